//===- ConstExprAnalysis.h - what HoistIntoGlobals may hoist ----*- C++ -*-===//
//
// Mirrors IREE's ConstExprAnalysis and ConstExprHoistingPolicy
// (Dialect/Util/Analysis/Constant): which values of a function are computed
// from weights and constants alone, and which of those are worth hoisting.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_GLOBALOPT_CONSTEXPRANALYSIS_H
#define DISPATCHLAB_GLOBALOPT_CONSTEXPRANALYSIS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace dispatchlab::globalopt {

/// The values an op reads: its operands and the values its regions use from
/// above it (IREE's escaping producers).
llvm::SetVector<mlir::Value> getProducers(mlir::Operation *op);

class ConstExprAnalysis {
public:
  /// Analyzes the ops of `function`'s entry block (ops in nested regions
  /// belong to the top-level op that holds them).
  ConstExprAnalysis(mlir::func::FuncOp function,
                    int64_t maxSizeIncreaseThreshold);

  /// Whether `value` is a root (a weight argument or a constant) or computed
  /// from roots alone.
  bool isConstExpr(mlir::Value value) const { return info.contains(value); }

  /// The values to hoist, in block order: constant expressions that are no
  /// root, may be a leaf, do not grow the module too much, and escape.
  llvm::ArrayRef<mlir::Value> getHoistedValues() const { return hoisted; }

private:
  enum class Decision { Undecided, Hoist, Keep };
  struct ValueInfo {
    bool isRoot = false;
    /// The roots it is computed from (the size check's input bytes).
    llvm::SetVector<mlir::Value> roots;
    Decision decision = Decision::Undecided;
  };

  static ValueInfo makeRoot(mlir::Value value);
  void analyze(mlir::Block &block);
  void decideInvariants(int64_t maxSizeIncreaseThreshold);
  bool hasLegalEscape(mlir::Value value) const;

  mlir::func::FuncOp function;
  mlir::Block *block;
  llvm::DenseMap<mlir::Value, ValueInfo> info;
  /// Non-root constant expressions in block order.
  llvm::SmallVector<mlir::Value> order;
  llvm::SmallVector<mlir::Value> hoisted;
};

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_CONSTEXPRANALYSIS_H

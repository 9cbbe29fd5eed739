//===- ParameterInitializer.h - a host's weight-packing function -*- C++
//-*-===//
//
// IREE hoists computations that depend only on a model's weights out of the
// program into initializers (const-expr hoisting), so that packing weights
// runs once at load time rather than on every call. Here that is one public
// function per host, `@<host>_initializer`: it takes weights the host is
// given (each argument tagged with the host argument it binds to) and
// returns packed layouts, which the host takes as arguments of its own after
// its inputs (each tagged with the initializer result it binds to).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PARAMETERINITIALIZER_H
#define DISPATCHLAB_CORE_CODEGEN_PARAMETERINITIALIZER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace dispatchlab {

/// The module's host function: its one public function with a body that is
/// neither a dispatch nor an initializer; null if there is not exactly one.
mlir::func::FuncOp getHostFunction(mlir::ModuleOp module);

/// The initializer of host `hostName`, or null if it has none.
mlir::func::FuncOp findInitializer(mlir::ModuleOp module,
                                   llvm::StringRef hostName);

/// Calls `fn` with each call of `host` to a dispatch function it calls
/// nowhere else, and that function: the dispatches whose arguments a pass
/// may retype along with their one call.
void forEachSoleDispatchCall(
    mlir::ModuleOp module, mlir::func::FuncOp host,
    llvm::function_ref<void(mlir::func::CallOp, mlir::func::FuncOp)> fn);

/// The host parameter (isParameter) `value` is, or is a reshape of (the
/// importer collapses a 1x1 convolution's filter to a matrix in the host) or
/// a static slice of (DropPaddingTaps keeps a filter's live taps), else
/// null.
mlir::BlockArgument getParameterView(mlir::Value value);

/// The initializer result a packed argument of a host binds to.
std::optional<unsigned> getPackedResult(mlir::Value value);

class ParameterInitializer {
public:
  /// The host's existing initializer; a new one is created on first need.
  ParameterInitializer(mlir::ModuleOp module, mlir::func::FuncOp host);

  /// The argument bound to host argument `weight`, added on first use.
  mlir::BlockArgument getArgument(mlir::BlockArgument weight);

  /// The initializer's copy of host value `weight`, a parameter or a reshape
  /// or slice of one (getParameterView): its argument, reshaped or sliced
  /// alike.
  mlir::Value getWeight(mlir::Value weight);

  /// A builder inserting before the initializer's return.
  mlir::OpBuilder getBuilder();

  /// Returns `value`, computed in the initializer, as a new result; returns
  /// the host argument bound to it.
  mlir::BlockArgument addResult(mlir::Value value);

  /// What result `index` returns.
  mlir::Value getResult(unsigned index);

  /// Returns `value` as result `index` instead, and retypes the host
  /// argument bound to it to match.
  void replaceResult(unsigned index, mlir::Value value);

private:
  mlir::func::FuncOp getOrCreate();
  mlir::Operation *getReturn();
  mlir::BlockArgument getHostArgument(unsigned index);

  mlir::ModuleOp module;
  mlir::func::FuncOp host;
  mlir::func::FuncOp initializer;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_PARAMETERINITIALIZER_H

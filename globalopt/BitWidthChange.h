//===- BitWidthChange.h - generics that only widen or narrow ----*- C++ -*-===//
//
// Which generics are element-type casts, for the GlobalOptimization steps
// (const-expr hoisting never hoists an extend) and for dispatch formation
// above them (heuristics/OpClassification.h).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_GLOBALOPT_BITWIDTHCHANGE_H
#define DISPATCHLAB_GLOBALOPT_BITWIDTHCHANGE_H

#include "mlir/IR/Operation.h"

namespace dispatchlab {

/// Mirrors IREE's `LinalgExt::isBitExtendOp`: an all-parallel single-init
/// generic whose widest max-rank input is narrower than its result, with no
/// `math` op in the body (dequantization-like).
bool isBitExtendOp(mlir::Operation *op);

/// Mirrors IREE's `LinalgExt::isBitTruncateOp`: an all-parallel single-init
/// generic whose result is narrower than its widest max-rank input, with the
/// result rank equal to that input's rank.
bool isBitTruncateOp(mlir::Operation *op);

} // namespace dispatchlab

#endif // DISPATCHLAB_GLOBALOPT_BITWIDTHCHANGE_H

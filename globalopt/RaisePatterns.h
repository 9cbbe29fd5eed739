//===- RaisePatterns.h - the rules of RaiseSpecialOps -----------*- C++ -*-===//
//
// IREE's GlobalOptimization RaiseSpecialOps is one pass of several unrelated
// raisings; each family lives in its own file and the pass
// (RaiseSpecialOps.cpp) runs them in IREE's order.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_GLOBALOPT_RAISEPATTERNS_H
#define DISPATCHLAB_GLOBALOPT_RAISEPATTERNS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace dispatchlab::globalopt {

/// A numerically stabilized softmax chain becomes `linalg.softmax`
/// (RaiseSoftmax.cpp).
void populateRaiseSoftmaxPatterns(mlir::RewritePatternSet &patterns);

/// Generics that are named ops in disguise (RaiseNamedOps.cpp): an extending
/// cast folds into the named contraction or convolution reading it, a matmul
/// or batch_matmul of a transposed RHS becomes its transpose-B form, and a
/// generic yielding a value from outside becomes `linalg.fill`.
void populateRaiseNamedOpPatterns(mlir::RewritePatternSet &patterns);

/// An `insert_slice` into a splat constant becomes `tensor.pad`
/// (RaiseSlices.cpp).
void populateRaisePadPatterns(mlir::RewritePatternSet &patterns);

/// Rotate-half (slice a tensor's innermost dim in halves, negate the second,
/// put them back swapped) becomes one generic (RaiseRotateHalf.cpp).
void populateRaiseRotateHalfPatterns(mlir::RewritePatternSet &patterns);

/// An elementwise generic reading a tensor with `tensor.extract` at
/// `linalg.index` or zero positions reads it as an input instead
/// (RaiseSlices.cpp).
mlir::FailureOr<mlir::linalg::GenericOp>
raiseTensorExtractToInput(mlir::linalg::GenericOp op,
                          mlir::RewriterBase &rewriter);

/// A copying generic that only drops unit-extent positions of its input
/// becomes a (rank-reducing) `tensor.extract_slice` (RaiseSlices.cpp).
mlir::FailureOr<mlir::Operation *>
raiseToExtractSlice(mlir::linalg::GenericOp op, mlir::RewriterBase &rewriter);

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_RAISEPATTERNS_H

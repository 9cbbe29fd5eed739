//===- OpClassification.h - which ops are roots, clones, casts -*- C++ -*-===//
//
// The per-op predicates that dispatch formation is built on (IREE's are in
// FormDispatchRegions.cpp, Flow's RegionOpUtils.cpp and LinalgExt's Utils.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_HEURISTICS_OPCLASSIFICATION_H
#define DISPATCHLAB_HEURISTICS_OPCLASSIFICATION_H

#include "globalopt/BitWidthChange.h"
#include "globalopt/ModelWeights.h"
#include "heuristics/HeuristicOptions.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace dispatchlab {

/// Mirrors IREE's `Flow::isCloneableIntoDispatchOp` (RegionOpUtils.cpp): ops
/// that are duplicated into each consumer dispatch instead of being fused or
/// rooted (gathers; under aggressive fusion also attention masks and scatter
/// indices).
bool isCloneableIntoDispatchOp(mlir::Operation *op,
                               const HeuristicOptions &options);

/// Mirrors IREE's `isSupportedContractionOp` (AnnotateDataTilingHints.cpp):
/// a Linalg contraction on tensors, no operand encoded, at most one batch, M,
/// N and K loop, an M or N loop and a K loop, and a matmul-like body. Both
/// data-tiling routes encode exactly these.
bool isDataTilingCandidate(mlir::Operation *op);

/// A linalg.pack of a weight. IREE const-evaluates it into a global
/// (HoistIntoGlobals, after the late data-tiling route), so it forms no
/// dispatch; codegen packs it in the host's initializer.
bool isWeightPack(mlir::Operation *op);

/// Mirrors IREE's `isRootLikeOp` (FormDispatchRegions.cpp): named Linalg ops
/// (but fill), reduction generics, iree_linalg_ext ops (but gather), and
/// TilingInterface ops other than pad/concat/pack.
bool isRootLikeOp(mlir::Operation *op);

/// Mirrors IREE's `hasFusableUnpackProducer`: a reduction generic reading an
/// unpack that it does not reduce along a packed dim is left to fuse with it.
bool hasFusableUnpackProducer(mlir::Operation *op);

/// True for ops IREE's LinalgFusionOpInterface covers: every Linalg
/// structured op, `linalg.softmax`, and the iree_linalg_ext ops that
/// implement it there (scatter, gather, attention, online_attention,
/// custom_op).
bool isFusionOp(mlir::Operation *op);

/// Mirrors IREE's `LinalgExt::isGatherlikeOp`: an all-parallel generic whose
/// single yielded value comes from a `tensor.extract` in its body.
bool isGatherlikeOp(mlir::Operation *op);

/// Loop-structure queries over fusion ops, answering for `linalg.softmax`
/// the way IREE's fusion interface does (identity maps, loops = input shape).
/// An operand or result map is null where the op has none (scatter's
/// original, gather's source).
unsigned getNumLoops(mlir::Operation *op);
llvm::SmallVector<mlir::utils::IteratorType>
getIteratorTypes(mlir::Operation *op);
llvm::SmallVector<int64_t> getStaticLoopRanges(mlir::Operation *op);
mlir::AffineMap getOperandMap(mlir::OpOperand &operand);
mlir::AffineMap getResultMap(mlir::OpResult result);

/// True if every result of `op` is i1 (or a tensor of i1): never worth
/// materializing, so IREE's control functions always fuse such producers.
bool yieldsOnlyI1(mlir::Operation *op);

/// A Linalg op whose body yields block arguments unchanged: free to recompute.
bool onlyCopies(mlir::Operation *op);

/// Mirrors IREE's binding-count guard of elementwise fusion: the distinct
/// operand values the op fusing `fusedOperand`'s producer into its owner
/// would have, approximated before fusion.
unsigned getNumFusedOperandValues(mlir::OpOperand *fusedOperand);

/// True if every loop of a fusion op is parallel.
bool isAllParallel(mlir::Operation *op);

/// Pack-like ops (`linalg.pack`, `iree_encoding.set_encoding`) and
/// unpack-like ops (`linalg.unpack`, `iree_encoding.unset_encoding`).
bool isPackLikeOp(mlir::Operation *op);
bool isUnpackLikeOp(mlir::Operation *op);

/// The byte size of a statically shaped tensor value, or 0 if unknown.
int64_t getStaticByteSize(mlir::Type type);

/// The largest tensor a model may hold (256 TiB): byte counts of a few
/// thousand such tensors still add up within int64_t.
inline constexpr int64_t kMaxTensorBytes = int64_t(1) << 48;

/// False for a static shape of more than kMaxTensorBytes (or one whose
/// element count overflows int64_t).
bool hasSupportedByteSize(mlir::Type type);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_OPCLASSIFICATION_H

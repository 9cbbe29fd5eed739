//===- TileHelpers.cpp - what both tiling passes do alike -----------------===//

#include "core/codegen/TileHelpers.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

namespace dispatchlab {

int64_t getFullTileSize(int64_t extent, int64_t target) {
  for (int64_t size = std::min(extent, target); size > 1; --size)
    if (extent % size == 0)
      return size;
  return 1;
}

void eraseDead(RewriterBase &rewriter, SmallVector<Operation *> &ops) {
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : ops) {
      if (!op || !op->use_empty())
        continue;
      rewriter.eraseOp(op);
      op = nullptr;
      erased = true;
    }
  }
}

static bool areDisjoint(OffsetSizeAndStrideOpInterface a,
                        OffsetSizeAndStrideOpInterface b) {
  FailureOr<bool> overlap = ValueBoundsConstraintSet::areOverlappingSlices(
      a->getContext(), HyperrectangularSlice(a), HyperrectangularSlice(b));
  return succeeded(overlap) && !*overlap;
}

/// The tail's inits slice the head's results inserted into the original
/// inits; a slice disjoint from the head's reads the original init when an
/// op computes it (an empty one stays: the slice of the insertion keeps the
/// tail writing in place).
static void readOriginalInits(RewriterBase &rewriter, Operation *tail) {
  auto destinationStyle = cast<DestinationStyleOpInterface>(tail);
  for (OpOperand &init : destinationStyle.getDpsInitsMutable()) {
    auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
    auto insert = slice
                      ? slice.getSource().getDefiningOp<tensor::InsertSliceOp>()
                      : nullptr;
    if (insert && insert.getDest().getDefiningOp<TilingInterface>() &&
        areDisjoint(slice, insert))
      rewriter.modifyOpInPlace(
          slice, [&] { slice.getSourceMutable().assign(insert.getDest()); });
  }
}

/// Inserts the head's results into empty tensors where the head's and the
/// tail's disjoint slices make up the whole result and nothing else reads
/// the original init through the head's insertion.
static void dropOverwrittenInits(RewriterBase &rewriter, Operation *tail) {
  for (Operation *user : tail->getUsers()) {
    auto second = dyn_cast<tensor::InsertSliceOp>(user);
    auto first = second
                     ? second.getDest().getDefiningOp<tensor::InsertSliceOp>()
                     : nullptr;
    if (!first || !first->hasOneUse() || !areDisjoint(first, second))
      continue;
    RankedTensorType head = first.getSourceType();
    RankedTensorType rest = second.getSourceType();
    RankedTensorType type = first.getDestType();
    if (!head.hasStaticShape() || !rest.hasStaticShape() ||
        !type.hasStaticShape() ||
        head.getNumElements() + rest.getNumElements() != type.getNumElements())
      continue;
    rewriter.setInsertionPoint(first);
    Value empty = tensor::EmptyOp::create(
        rewriter, first.getLoc(), type.getShape(), type.getElementType());
    rewriter.modifyOpInPlace(first,
                             [&] { first.getDestMutable().assign(empty); });
  }
}

static LogicalResult
sliceProducers(RewriterBase &rewriter, Operation *part,
               llvm::SetVector<Operation *> &originals,
               llvm::function_ref<bool(Operation *)> keepWhole) {
  SmallVector<Operation *> worklist = {part};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      auto slice = operand.getDefiningOp<tensor::ExtractSliceOp>();
      auto producer = slice ? dyn_cast<OpResult>(slice.getSource()) : nullptr;
      if (!producer || !isa<TilingInterface>(producer.getOwner()) ||
          keepWhole(producer.getOwner()))
        continue;
      rewriter.setInsertionPoint(slice);
      FailureOr<TilingResult> tiled =
          tensor::replaceExtractSliceWithTiledProducer(rewriter, slice,
                                                       producer);
      if (failed(tiled))
        return slice.emitOpError("producer not sliceable after split");
      rewriter.replaceOp(slice, tiled->tiledValues.front());
      originals.insert(producer.getOwner());
      llvm::append_range(worklist, tiled->tiledOps);
    }
  }
  return success();
}

FailureOr<std::pair<TilingInterface, TilingInterface>>
splitAndSliceProducers(RewriterBase &rewriter, TilingInterface root,
                       unsigned loop, int64_t at,
                       llvm::SetVector<Operation *> &originals,
                       llvm::function_ref<bool(Operation *)> keepWhole) {
  rewriter.setInsertionPoint(root);
  auto [head, tail] =
      linalg::splitOp(rewriter, root, loop, rewriter.getIndexAttr(at));
  if (!head || !tail)
    return root->emitOpError("splitting loop ") << loop << " failed";
  readOriginalInits(rewriter, tail);
  dropOverwrittenInits(rewriter, tail);
  if (failed(sliceProducers(rewriter, head, originals, keepWhole)) ||
      failed(sliceProducers(rewriter, tail, originals, keepWhole)))
    return failure();
  return std::make_pair(head, tail);
}

} // namespace dispatchlab

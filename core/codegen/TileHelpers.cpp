//===- TileHelpers.cpp - what both tiling passes do alike -----------------===//

#include "core/codegen/TileHelpers.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/TilingInterface.h"

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

LogicalResult sliceProducers(RewriterBase &rewriter, Operation *part,
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

} // namespace dispatchlab

//===- FillPaddingBorders.cpp - fill only what a dispatch leaves unwritten ===//
//
// A tensor.pad that dispatch formation did not fuse is a fill of the padded
// tensor, in the host, and a dispatch inserting the unpadded value into it.
// Filling the whole tensor first writes every interior element twice: for
// EfficientNet-B0 16.6 MB of fills per call, between dispatches. Only the
// border keeps the fill's value, so only the border is filled here. A zero
// border is recorded on the dispatch (kZeroPaddedResultsAttr), for the
// dispatches that read it (SkipPaddingTaps).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/PadInserts.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FILLPADDINGBORDERSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// Whether `use` of a fill is the destination of a static, unit-stride
/// insert_slice in a dispatch.
bool isInteriorInsert(OpOperand &use) {
  auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
  return insert && use.get() == insert.getDest() &&
         insert->getParentOfType<dispatch::RegionOp>() &&
         isStaticBoxInsert(insert);
}

/// Fills the slab [offsets, offsets + sizes) of `into` with `value`, in
/// place: a fill of a fresh empty tensor per slab would bufferize to a
/// buffer of its own, shared by equal slabs, and a copy.
Value fillSlab(OpBuilder &builder, Location loc, Value value, Value into,
               ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  MLIRContext *context = builder.getContext();
  SmallVector<OpFoldResult> at = getAsIndexOpFoldResult(context, offsets);
  SmallVector<OpFoldResult> extent = getAsIndexOpFoldResult(context, sizes);
  SmallVector<OpFoldResult> strides(sizes.size(), builder.getIndexAttr(1));
  Value slab =
      tensor::ExtractSliceOp::create(builder, loc, into, at, extent, strides);
  Value filled = linalg::FillOp::create(builder, loc, value, slab).getResult(0);
  return tensor::InsertSliceOp::create(builder, loc, filled, into, at, extent,
                                       strides);
}

/// A tensor of `insert`'s destination type holding `value` around the
/// interior `insert` writes: for each dim, the slabs below and above the
/// interior, spanning the interior along earlier dims and everything along
/// later ones, so that the slabs do not overlap.
Value fillBorder(OpBuilder &builder, Location loc, Value value,
                 tensor::InsertSliceOp insert) {
  ArrayRef<int64_t> shape = insert.getDestType().getShape();
  ArrayRef<int64_t> interiorOffsets = insert.getStaticOffsets();
  ArrayRef<int64_t> interiorSizes = insert.getStaticSizes();
  // An allocation, unlike an empty tensor, is not merged with an equal one
  // by CSE: two pads sharing one tensor would bufferize to a copy.
  Value result = bufferization::AllocTensorOp::create(
      builder, loc, insert.getDestType(), ValueRange());
  SmallVector<int64_t> offsets(shape.size(), 0);
  SmallVector<int64_t> sizes(shape);
  for (size_t dim = 0; dim < shape.size(); ++dim) {
    int64_t end = interiorOffsets[dim] + interiorSizes[dim];
    if (interiorOffsets[dim] > 0) {
      offsets[dim] = 0;
      sizes[dim] = interiorOffsets[dim];
      result = fillSlab(builder, loc, value, result, offsets, sizes);
    }
    if (end < shape[dim]) {
      offsets[dim] = end;
      sizes[dim] = shape[dim] - end;
      result = fillSlab(builder, loc, value, result, offsets, sizes);
    }
    offsets[dim] = interiorOffsets[dim];
    sizes[dim] = interiorSizes[dim];
  }
  return result;
}

/// Records on the dispatch holding `insert` that the result it returns
/// `insert` as is zero outside the inserted box.
void recordZeroBorder(tensor::InsertSliceOp insert) {
  OpResult result = getRegionResultOf(insert);
  if (!result)
    return;
  Operation *region = result.getOwner();
  Builder builder(region->getContext());
  SmallVector<Attribute> boxes;
  if (auto recorded = region->getAttrOfType<ArrayAttr>(kZeroPaddedResultsAttr))
    boxes.assign(recorded.begin(), recorded.end());
  else
    boxes.assign(region->getNumResults(), builder.getDenseI64ArrayAttr({}));
  SmallVector<int64_t> box(insert.getStaticOffsets());
  llvm::append_range(box, insert.getStaticSizes());
  boxes[result.getResultNumber()] = builder.getDenseI64ArrayAttr(box);
  region->setAttr(kZeroPaddedResultsAttr, builder.getArrayAttr(boxes));
}

struct FillPaddingBordersPass
    : impl::FillPaddingBordersPassBase<FillPaddingBordersPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (!fill->getParentOfType<dispatch::RegionOp>() &&
          fill.hasPureTensorSemantics() &&
          llvm::all_of(fill.getResult(0).getUses(), isInteriorInsert))
        fills.push_back(fill);
    });
    // A fill two pads share (CSE merges equal ones) gets a border per pad,
    // in program order.
    for (linalg::FillOp fill : fills) {
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          fill.getResult(0).getUses(), [](OpOperand &use) { return &use; });
      Block *block = fill->getBlock();
      llvm::sort(uses, [&](OpOperand *a, OpOperand *b) {
        return block->findAncestorOpInBlock(*a->getOwner())
            ->isBeforeInBlock(block->findAncestorOpInBlock(*b->getOwner()));
      });
      OpBuilder builder(fill);
      Value value = fill.getInputs().front();
      bool zero = isZeroConstant(value);
      for (OpOperand *use : uses) {
        auto insert = cast<tensor::InsertSliceOp>(use->getOwner());
        use->set(fillBorder(builder, fill.getLoc(), value, insert));
        if (zero)
          recordZeroBorder(insert);
      }
      fill.erase();
    }
  }
};

} // namespace
} // namespace dispatchlab

//===- SkipPaddingTaps.cpp - no reduction over a zero border --------------===//
//
// A convolution over a zero-padded input multiplies padding by weights at
// the edges of its output. With dilation 24 or 36 on a 17x17 map
// (deeplabv3's ASPP) every tap but the centre reads padding only, 8/9 of
// the work, and with 12 most of the others do. Here the reduction loops of
// a tile that read a slice of a zero-padded argument (kZeroPaddedInteriorAttr)
// run only when the slice meets the interior: a product accumulation adds
// nothing for a zero input. ONNX Runtime's NCHWc convolution likewise visits
// only the taps inside the image; IREE has no counterpart (its pads are
// fills before the dispatch, see FillPaddingBorders).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"
#include "core/codegen/ProductAccumulation.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_SKIPPADDINGTAPSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// A static slice of a zero-padded argument: per dim, the offsets of the
/// chain of slices from the argument down to it; for the padded dims only
/// (the others are all interior).
struct PaddedSlice {
  SmallVector<SmallVector<OpFoldResult>> offsets;
  ArrayRef<int64_t> sizes;
  ArrayRef<int64_t> interior;
  SmallVector<int64_t> paddedDims;
};

/// `value` as a chain of rank-preserving, unit-stride slices of a function
/// argument with kZeroPaddedInteriorAttr that is mostly padding.
std::optional<PaddedSlice> matchPaddedSlice(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  PaddedSlice slice;
  slice.offsets.resize(type.getRank());
  slice.sizes = type.getShape();
  while (auto extract = value.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (extract.getSourceType().getRank() != type.getRank() ||
        !llvm::all_of(extract.getMixedStrides(), isOneInteger))
      return std::nullopt;
    for (auto [dim, offset] : llvm::enumerate(extract.getMixedOffsets()))
      slice.offsets[dim].push_back(offset);
    value = extract.getSource();
  }
  auto argument = dyn_cast<BlockArgument>(value);
  auto function =
      argument ? dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp())
               : nullptr;
  if (!function || slice.offsets.front().empty())
    return std::nullopt;
  auto interior = function.getArgAttrOfType<DenseI64ArrayAttr>(
      argument.getArgNumber(), kZeroPaddedInteriorAttr);
  if (!interior || interior.size() != 2 * type.getRank())
    return std::nullopt;
  slice.interior = interior.asArrayRef();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(value.getType()).getShape();
  // The test makes the loop's trip count a runtime value, which costs every
  // tile: on ResNet-50's 3x3 convolutions, padded by one, more than the
  // taps it skipped. Only a tensor mostly of padding (a dilated
  // convolution's) is worth it.
  if (2 * computeProduct(slice.interior.drop_front(type.getRank())) >
      computeProduct(shape))
    return std::nullopt;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (slice.interior[dim] != 0 ||
        slice.interior[type.getRank() + dim] != shape[dim])
      slice.paddedDims.push_back(dim);
  return slice;
}

/// The values the slice's offsets are computed from, through affine.apply.
void collectOffsetLeaves(Value value, SmallVectorImpl<Value> &leaves) {
  if (auto apply = value.getDefiningOp<affine::AffineApplyOp>()) {
    for (Value operand : apply.getOperands())
      collectOffsetLeaves(operand, leaves);
    return;
  }
  leaves.push_back(value);
}

/// The value `op` accumulates into: a generic's init, a loop's iter_arg.
Value getAccumulator(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getInitArgs().front();
  return cast<linalg::GenericOp>(op).getDpsInits().front();
}

/// Whether `loop` does nothing but pass its one iter_arg through `inner`,
/// so that skipping `inner` in every iteration skips the loop.
bool onlyAccumulatesThrough(scf::ForOp loop, Operation *inner) {
  if (loop.getNumRegionIterArgs() != 1 || inner->getNumResults() != 1 ||
      getAccumulator(inner) != loop.getRegionIterArgs().front() ||
      !loop.getRegionIterArgs().front().hasOneUse() ||
      loop.getBody()->getTerminator()->getOperand(0) != inner->getResult(0))
    return false;
  return llvm::all_of(loop.getBody()->without_terminator(), [&](Operation &op) {
    return &op == inner || isMemoryEffectFree(&op);
  });
}

/// The outermost of the loops around `generic` whose skipping skips
/// exactly the generic's iterations and that the offsets do not vary in;
/// null if there is none.
scf::ForOp getSkippedLoop(linalg::GenericOp generic, ArrayRef<Value> leaves) {
  Operation *skipped = generic;
  scf::ForOp outermost;
  while (auto loop = dyn_cast<scf::ForOp>(skipped->getParentOp())) {
    bool varies = llvm::any_of(leaves, [&](Value leaf) {
      return loop.getRegion().isAncestor(leaf.getParentRegion());
    });
    if (varies || !onlyAccumulatesThrough(loop, skipped))
      break;
    skipped = outermost = loop;
  }
  return outermost;
}

/// Whether the slice meets the interior, built at `builder`'s point; null
/// if it always does.
Value buildMeetsInterior(OpBuilder &builder, Location loc,
                         const PaddedSlice &slice) {
  int64_t rank = slice.sizes.size();
  Value meets;
  for (int64_t dim : slice.paddedDims) {
    int64_t begin = slice.interior[dim];
    int64_t end = begin + slice.interior[rank + dim];
    AffineExpr sum = builder.getAffineConstantExpr(0);
    for (size_t i = 0; i < slice.offsets[dim].size(); ++i)
      sum = sum + builder.getAffineSymbolExpr(i);
    OpFoldResult offset = affine::makeComposedFoldedAffineApply(
        builder, loc, AffineMap::get(0, slice.offsets[dim].size(), sum),
        slice.offsets[dim]);
    std::optional<int64_t> known = getConstantIntValue(offset);
    if (known && *known + slice.sizes[dim] > begin && *known < end)
      continue;
    Value first = getValueOrCreateConstantIndexOp(builder, loc, offset);
    auto index = [&](int64_t value) {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    Value last =
        arith::AddIOp::create(builder, loc, first, index(slice.sizes[dim] - 1));
    Value reachesInterior = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, last, index(begin));
    Value beforeEnd = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, first, index(end));
    Value inside =
        arith::AndIOp::create(builder, loc, reachesInterior, beforeEnd);
    meets = meets ? arith::AndIOp::create(builder, loc, meets, inside) : inside;
  }
  return meets;
}

/// Gives `loop` no iterations when `slice` misses the interior. Only a
/// loop's bound changes, not the ops around it: the accumulator's reads and
/// writes are still hoisted out of the loops around it later
/// (loop-invariant-subset-hoisting), which a branch would prevent. A
/// generic with no such loop around it is left alone: an scf.if around
/// the stem convolution's tile made mobilenet_v2 under no-fusion miss its
/// reference in some processes, cause not found.
void guard(scf::ForOp loop, const PaddedSlice &slice) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  if (Value meets = buildMeetsInterior(builder, loc, slice))
    loop.setUpperBound(arith::SelectOp::create(
        builder, loc, meets, loop.getUpperBound(), loop.getLowerBound()));
}

struct SkipPaddingTapsPass
    : impl::SkipPaddingTapsPassBase<SkipPaddingTapsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, PaddedSlice>> reads;
    getOperation().walk([&](linalg::GenericOp generic) {
      for (OpOperand *input : generic.getDpsInputOperands()) {
        std::optional<PaddedSlice> slice = matchPaddedSlice(input->get());
        if (slice &&
            accumulatesProductsOf(generic, input->getOperandNumber())) {
          reads.emplace_back(generic, std::move(*slice));
          return;
        }
      }
    });
    for (auto &[generic, slice] : reads) {
      SmallVector<Value> leaves;
      for (int64_t dim : slice.paddedDims)
        for (OpFoldResult offset : slice.offsets[dim])
          if (auto value = dyn_cast<Value>(offset))
            collectOffsetLeaves(value, leaves);
      if (scf::ForOp loop = getSkippedLoop(generic, leaves))
        guard(loop, slice);
    }
  }
};

} // namespace
} // namespace dispatchlab

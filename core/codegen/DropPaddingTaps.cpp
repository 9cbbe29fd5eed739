//===- DropPaddingTaps.cpp - no filter taps, no padding, never read -------===//
//
// A convolution tap that reads only a pad's zeros for every output adds
// nothing: deeplabv3's ASPP convolutions with dilation 24 and 36 on a 17x17
// map keep only their centre tap. Dropping such taps (slicing the filter and
// shifting the input) also leaves most of the padded tensor unread, so the
// pad shrinks to what the remaining taps read: 50 MB of zeros per call that
// the host no longer fills. SkipPaddingTaps handles the taps that read the
// interior for some outputs only, per tile.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/PadInserts.h"
#include "core/codegen/Passes.h"
#include "core/codegen/ProductAccumulation.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_DROPPADDINGTAPSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// `coefficient * dim` in an indexing expression.
struct Term {
  unsigned dim;
  int64_t coefficient;
};

std::optional<Term> matchTerm(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return Term{dim.getPosition(), 1};
  auto product = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!product || product.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(product.getLHS());
  auto coefficient = dyn_cast<AffineConstantExpr>(product.getRHS());
  if (!dim || !coefficient || coefficient.getValue() < 1)
    return std::nullopt;
  return Term{dim.getPosition(), coefficient.getValue()};
}

/// The taps [first, last] a window dim keeps.
struct KeptTaps {
  unsigned dim;
  int64_t first, last;
};

/// What a convolution reads of a padded operand once its dead taps are
/// dropped: per dim of the operand, [begin, end).
struct TrimmedRead {
  linalg::GenericOp convolution;
  unsigned operand;
  SmallVector<int64_t> begin, end;
  SmallVector<KeptTaps> taps;
};

/// Reads along one dim of the padded operand, indexed by `expr`, whose
/// interior is [low, high); adds the window's kept taps to `read`.
LogicalResult trimDim(linalg::GenericOp convolution, AffineExpr expr,
                      int64_t low, int64_t high, TrimmedRead &read) {
  SmallVector<int64_t> ranges = convolution.getStaticLoopRanges();
  if (std::optional<Term> term = matchTerm(expr)) {
    read.begin.push_back(0);
    read.end.push_back(term->coefficient * (ranges[term->dim] - 1) + 1);
    return success();
  }
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return failure();
  std::optional<Term> output = matchTerm(sum.getLHS());
  std::optional<Term> window = matchTerm(sum.getRHS());
  if (!output || !window)
    return failure();
  auto iterators = convolution.getIteratorTypesArray();
  auto isReduction = [&](Term term) {
    return iterators[term.dim] == utils::IteratorType::reduction;
  };
  if (isReduction(*output))
    std::swap(output, window);
  if (isReduction(*output) || !isReduction(*window))
    return failure();
  // Tap k reads [t*k, s*(O-1) + t*k]: live when that meets [low, high).
  int64_t stride = output->coefficient, dilation = window->coefficient;
  int64_t span = stride * (ranges[output->dim] - 1);
  int64_t first =
      std::max<int64_t>(0, llvm::divideCeilSigned(low - span, dilation));
  int64_t last =
      std::min<int64_t>(ranges[window->dim] - 1, (high - 1) / dilation);
  if (first > last)
    return failure();
  read.taps.push_back({window->dim, first, last});
  read.begin.push_back(dilation * first);
  read.end.push_back(span + dilation * last + 1);
  return success();
}

/// The read of `use`, a convolution input, of a tensor zero outside
/// [offsets, offsets + sizes).
FailureOr<TrimmedRead> trimRead(OpOperand &use, ArrayRef<int64_t> offsets,
                                ArrayRef<int64_t> sizes) {
  auto convolution = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!convolution || !convolution.hasPureTensorSemantics() ||
      !convolution.isDpsInput(&use) ||
      !accumulatesProductsOf(convolution, use.getOperandNumber()))
    return failure();
  TrimmedRead read{convolution, use.getOperandNumber(), {}, {}, {}};
  AffineMap map = convolution.getMatchingIndexingMap(&use);
  for (auto [dim, expr] : llvm::enumerate(map.getResults()))
    if (failed(trimDim(convolution, expr, offsets[dim],
                       offsets[dim] + sizes[dim], read)))
      return failure();
  // A window dim indexing two dims of the padded operand keeps only the
  // taps live in both, which the per-dim reads above do not express.
  llvm::SmallDenseSet<unsigned> windows;
  for (KeptTaps taps : read.taps)
    if (!windows.insert(taps.dim).second)
      return failure();
  // A dropped tap's dim must index every other operand plainly.
  for (KeptTaps taps : read.taps)
    for (OpOperand &other : convolution->getOpOperands())
      if (&other != &use &&
          llvm::any_of(convolution.getMatchingIndexingMap(&other).getResults(),
                       [&](AffineExpr expr) {
                         return expr.isFunctionOfDim(taps.dim) &&
                                !isa<AffineDimExpr>(expr);
                       }))
        return failure();
  return read;
}

/// `value` sliced to [offsets, offsets + sizes), right before `before`.
Value slice(Operation *before, Value value, ArrayRef<int64_t> offsets,
            ArrayRef<int64_t> sizes) {
  OpBuilder builder(before);
  MLIRContext *context = builder.getContext();
  SmallVector<OpFoldResult> strides(sizes.size(), builder.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      builder, before->getLoc(), value,
      getAsIndexOpFoldResult(context, offsets),
      getAsIndexOpFoldResult(context, sizes), strides);
}

/// Slices the convolution's operands to its kept taps: the padded one to
/// its trimmed read, relative to `origin`, the new pad's first element, in
/// the dispatch (a slice passed in would be copied); the others (the
/// filter) along each window dim. A filter the host passes in is sliced in
/// the host, where it stays a view of the parameter.
void dropTaps(TrimmedRead &read, ArrayRef<int64_t> origin) {
  linalg::GenericOp convolution = read.convolution;
  for (OpOperand &operand : convolution->getOpOperands()) {
    auto type = cast<RankedTensorType>(operand.get().getType());
    SmallVector<int64_t> offsets(type.getRank(), 0);
    SmallVector<int64_t> sizes(type.getShape());
    if (operand.getOperandNumber() == read.operand) {
      for (size_t dim = 0; dim < offsets.size(); ++dim) {
        offsets[dim] = read.begin[dim] - origin[dim];
        sizes[dim] = read.end[dim] - read.begin[dim];
      }
    } else {
      AffineMap map = convolution.getMatchingIndexingMap(&operand);
      for (KeptTaps taps : read.taps)
        if (std::optional<unsigned> dim = map.getResultPosition(
                getAffineDimExpr(taps.dim, convolution.getContext()))) {
          offsets[*dim] = taps.first;
          sizes[*dim] = taps.last - taps.first + 1;
        }
    }
    if (sizes == type.getShape())
      continue;
    Operation *before = convolution;
    auto region = convolution->getParentOfType<dispatch::RegionOp>();
    if (operand.getOperandNumber() != read.operand &&
        !region->isAncestor(operand.get().getParentRegion()->getParentOp()))
      before = region;
    operand.set(slice(before, operand.get(), offsets, sizes));
  }
}

/// A zero pad: a fill in the host, one static insert into it in a dispatch,
/// which returns the insert.
struct ZeroPad {
  linalg::FillOp fill;
  tensor::InsertSliceOp insert;
  OpResult padded;
};

std::optional<ZeroPad> matchZeroPad(tensor::InsertSliceOp insert) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  OpResult padded = getRegionResultOf(insert);
  if (!fill || !padded || fill->getParentOfType<dispatch::RegionOp>() ||
      !fill.hasPureTensorSemantics() ||
      !isZeroConstant(fill.getInputs().front()) || !isStaticBoxInsert(insert) ||
      !insert.getResult().hasOneUse())
    return std::nullopt;
  return ZeroPad{fill, insert, padded};
}

/// Makes `pad` the box [begin, end) of what it was: a fill of that shape
/// the interior is inserted into at its offset within the box.
void shrinkPad(ZeroPad pad, ArrayRef<int64_t> begin, ArrayRef<int64_t> end) {
  SmallVector<int64_t> shape, offsets;
  for (auto [first, last, offset] :
       llvm::zip(begin, end, pad.insert.getStaticOffsets())) {
    shape.push_back(last - first);
    offsets.push_back(offset - first);
  }
  auto type = pad.insert.getDestType().clone(shape);
  OpBuilder builder(pad.fill);
  Location loc = pad.fill.getLoc();
  Value empty =
      tensor::EmptyOp::create(builder, loc, shape, type.getElementType());
  Value zeros =
      linalg::FillOp::create(builder, loc, pad.fill.getInputs(), empty)
          .getResult(0);
  builder.setInsertionPoint(pad.insert);
  MLIRContext *context = builder.getContext();
  Value inserted = tensor::InsertSliceOp::create(
      builder, pad.insert.getLoc(), pad.insert.getSource(), zeros,
      getAsIndexOpFoldResult(context, offsets), pad.insert.getMixedSizes(),
      pad.insert.getMixedStrides());
  pad.insert.getResult().replaceAllUsesWith(inserted);
  pad.insert.erase();
  pad.padded.setType(type);
  if (pad.fill->use_empty())
    pad.fill.erase();
}

/// Drops the dead taps of every convolution reading `pad` and shrinks the
/// pad to the hull of the interior and their reads; nothing unless every
/// reader is such a convolution and one drops a tap.
void trimPad(ZeroPad pad) {
  ArrayRef<int64_t> offsets = pad.insert.getStaticOffsets();
  ArrayRef<int64_t> sizes = pad.insert.getStaticSizes();
  SmallVector<TrimmedRead> reads;
  llvm::SmallPtrSet<Operation *, 4> readers;
  for (OpOperand &use : pad.padded.getUses()) {
    FailureOr<TrimmedRead> read = trimRead(use, offsets, sizes);
    if (failed(read) || !readers.insert(use.getOwner()).second)
      return;
    reads.push_back(std::move(*read));
  }
  auto dropsTap = [](TrimmedRead &read) {
    SmallVector<int64_t> ranges = read.convolution.getStaticLoopRanges();
    return llvm::any_of(read.taps, [&](KeptTaps taps) {
      return taps.first > 0 || taps.last < ranges[taps.dim] - 1;
    });
  };
  if (!llvm::any_of(reads, dropsTap))
    return;
  SmallVector<int64_t> begin(offsets), end;
  for (auto [offset, size] : llvm::zip(offsets, sizes))
    end.push_back(offset + size);
  for (TrimmedRead &read : reads)
    for (size_t dim = 0; dim < begin.size(); ++dim) {
      begin[dim] = std::min(begin[dim], read.begin[dim]);
      end[dim] = std::max(end[dim], read.end[dim]);
    }
  shrinkPad(pad, begin, end);
  for (TrimmedRead &read : reads)
    dropTaps(read, begin);
}

struct DropPaddingTapsPass
    : impl::DropPaddingTapsPassBase<DropPaddingTapsPass> {
  void runOnOperation() override {
    SmallVector<ZeroPad> pads;
    getOperation().walk([&](tensor::InsertSliceOp insert) {
      if (std::optional<ZeroPad> pad = matchZeroPad(insert))
        pads.push_back(*pad);
    });
    for (ZeroPad pad : pads)
      trimPad(pad);
  }
};

} // namespace
} // namespace dispatchlab

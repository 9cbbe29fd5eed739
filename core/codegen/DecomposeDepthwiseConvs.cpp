//===- DecomposeDepthwiseConvs.cpp - depthwise conv rows to 1-D convs -----===//
//
// Mirrors IREE's CPU depthwise convolution strategy: setConvRootConfig
// (KernelDispatch.cpp) tiles the convolution to one output row and the
// filter's height to 1, then CPUConvTileAndDecomposeExpert's
// DecomposeConvolutionToLowerDimOps rewrites each tile as a 1-D depthwise
// convolution, which linalg::vectorize turns into channel-vector FMAs.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_DECOMPOSEDEPTHWISECONVSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// Whether `op`'s body is `out + input * filter` in one float type, what
/// linalg.depthwise_conv_1d_nwc_wc computes (it would cast mixed types).
bool isMultiplyAccumulate(linalg::GenericOp op) {
  Type element = getElementTypeOrSelf(op.getDpsInits().front().getType());
  if (!isa<FloatType>(element) ||
      llvm::any_of(op->getOperandTypes(), [&](Type type) {
        return getElementTypeOrSelf(type) != element;
      }))
    return false;
  Block &body = op.getRegion().front();
  // The multiply, the add and the yield.
  if (body.getOperations().size() != 3)
    return false;
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value accumulator = body.getArgument(2);
  Value product = add.getLhs() == accumulator ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || (add.getLhs() != accumulator && add.getRhs() != accumulator))
    return false;
  Value input = body.getArgument(0), filter = body.getArgument(1);
  return (mul.getLhs() == input && mul.getRhs() == filter) ||
         (mul.getLhs() == filter && mul.getRhs() == input);
}

/// The stride and dilation along W of a depthwise convolution row.
struct RowWindow {
  int64_t stride;
  int64_t dilation;
};

/// Matches the tile TileAndFuseDispatches makes of the importer's depthwise
/// convolution (input [oh * sh + kh * dh, ow * sw + kw * dw, c], filter
/// [kh, kw, c], output [oh, ow, c]): one output row, a filter of height 1.
FailureOr<RowWindow> matchDepthwiseRow(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 5 || !op.hasPureTensorSemantics() ||
      op.hasDynamicShape() || !isMultiplyAccumulate(op))
    return failure();
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || !dims->batch.empty() || !dims->outputChannel.empty() ||
      !dims->inputChannel.empty() || dims->depth.size() != 1 ||
      dims->outputImage.size() != 2 || dims->filterLoop.size() != 2)
    return failure();
  unsigned oh = dims->outputImage[0], ow = dims->outputImage[1];
  unsigned kh = dims->filterLoop[0], kw = dims->filterLoop[1];
  unsigned c = dims->depth[0];
  MLIRContext *context = op.getContext();
  auto dimsMap = [&](ArrayRef<unsigned> results) {
    return AffineMap::getMultiDimMapWithTargets(5, results, context);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  ArrayRef<AffineExpr> input = maps[0].getResults();
  if (maps[1] != dimsMap({kh, kw, c}) || maps[2] != dimsMap({oh, ow, c}) ||
      input.size() != 3 || input[2] != getAffineDimExpr(c, context) ||
      !input[0].isFunctionOfDim(oh) || !input[0].isFunctionOfDim(kh) ||
      !input[1].isFunctionOfDim(ow) || !input[1].isFunctionOfDim(kw))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto inputType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  if (ranges[oh] != 1 || ranges[kh] != 1 || inputType.getDimSize(0) != 1)
    return failure();
  return RowWindow{dims->strides[1], dims->dilations[1]};
}

/// Rewrites a depthwise convolution row into linalg.depthwise_conv_1d_nwc_wc:
/// the row is the 1-D op's batch dim, so input and output are used as they
/// are and only the filter drops its unit height. Upstream's vectorizer then
/// reads the row's input, filter and accumulator as vectors and emits one
/// FMA per output column and filter tap; the generic, with its unit dims
/// dropped, kept its accumulator in a temporary buffer per tile instead.
struct DepthwiseRowToConv1D : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<RowWindow> window = matchDepthwiseRow(op);
    if (failed(window))
      return rewriter.notifyMatchFailure(op, "not a depthwise conv row");
    Location loc = op.getLoc();
    Value filter = op.getDpsInputs()[1];
    auto filterType = cast<RankedTensorType>(filter.getType());
    Value row = tensor::createCanonicalRankReducingExtractSliceOp(
        rewriter, loc, filter,
        RankedTensorType::get(filterType.getShape().drop_front(),
                              filterType.getElementType()));
    auto attr = [&](int64_t value) {
      return DenseIntElementsAttr::get(
          RankedTensorType::get({1}, rewriter.getI64Type()), {value});
    };
    auto conv = linalg::DepthwiseConv1DNwcWcOp::create(
        rewriter, loc, op->getResultTypes(),
        ValueRange{op.getDpsInputs()[0], row}, op.getDpsInits(),
        attr(window->stride), attr(window->dilation));
    rewriter.replaceOp(op, conv->getResults());
    return success();
  }
};

struct DecomposeDepthwiseConvsPass
    : impl::DecomposeDepthwiseConvsPassBase<DecomposeDepthwiseConvsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr))
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<DepthwiseRowToConv1D>(&getContext());
    if (failed(applyPatternsGreedily(function, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace dispatchlab

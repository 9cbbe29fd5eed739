//===- SetEncoding.cpp - encode the operands of hinted contractions -------===//
//
// Mirrors IREE's DispatchCreation SetEncoding (generic strategy) with its
// FoldFillWithSetEncoding clean-up: the contraction is rewritten where it is,
// inside its dispatch, on encoded operands.
//
//===----------------------------------------------------------------------===//

#include "compat/EncodingCompatDialect.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_SETENCODINGPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
/// The encoding of operand `index` of `op`, as IREE's SerializableAttr
/// derives it for a matmul.
encoding::EncodingAttr getEncoding(linalg::LinalgOp op, int64_t index) {
  Builder b(op.getContext());
  SmallVector<Attribute> elementTypes;
  for (Value operand : op->getOperands())
    elementTypes.push_back(TypeAttr::get(getElementTypeOrSelf(operand)));
  SmallVector<Attribute> sizes;
  for (int64_t size : op.getStaticLoopRanges())
    sizes.push_back(b.getI64IntegerAttr(size));
  return encoding::EncodingAttr::get(
      op.getContext(), b.getIndexAttr(index), encoding::EncodingOpType::matmul,
      b.getArrayAttr(elementTypes), /*original_element_type=*/nullptr,
      op.getIndexingMaps(), b.getArrayAttr(sizes));
}

Value setEncoding(RewriterBase &rewriter, Location loc, Value source,
                  Attribute encoding) {
  auto type =
      cast<RankedTensorType>(source.getType()).cloneWithEncoding(encoding);
  return encoding::SetEncodingOp::create(rewriter, loc, type, source,
                                         ValueRange{});
}

/// An encoded init: a fill becomes a fill of an encoded empty tensor (IREE's
/// FoldFillWithSetEncoding), anything else goes through set_encoding.
Value encodeInit(RewriterBase &rewriter, Location loc, Value init,
                 Attribute encoding) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return setEncoding(rewriter, loc, init, encoding);
  auto type = cast<RankedTensorType>(init.getType());
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, init),
      type.getElementType(), encoding);
  return linalg::FillOp::create(rewriter, loc, fill.getInputs(), empty)
      .getResult(0);
}

struct EncodeHintedContraction
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasAttr(kDataTilingHintAttr) || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "no data-tiling hint");
    Location loc = op.getLoc();
    SmallVector<Value> operands;
    for (auto [index, input] : llvm::enumerate(op.getDpsInputs()))
      operands.push_back(
          setEncoding(rewriter, loc, input, getEncoding(op, index)));
    Value init = op.getDpsInits()[0];
    operands.push_back(
        encodeInit(rewriter, loc, init, getEncoding(op, operands.size())));
    Operation *encoded =
        clone(rewriter, op, operands.back().getType(), operands);
    encoded->removeAttr(kDataTilingHintAttr);

    SmallVector<Value> dynamicSizes;
    SmallVector<int64_t> staticSizes;
    dispatchIndexOpFoldResults(tensor::getMixedSizes(rewriter, loc, init),
                               dynamicSizes, staticSizes);
    Value result = encoding::UnsetEncodingOp::create(
        rewriter, loc, init.getType(), encoded->getResult(0), dynamicSizes,
        ValueRange{});
    rewriter.replaceOp(op, result);
    // The fill folded into an encoded one, and its empty, are usually dead.
    for (Value dead = init; Operation *def = dead.getDefiningOp();) {
      if (!isa<linalg::FillOp, tensor::EmptyOp>(def) || !def->use_empty())
        break;
      dead = isa<linalg::FillOp>(def) ? def->getOperand(1) : Value();
      rewriter.eraseOp(def);
    }
    return success();
  }
};

struct SetEncodingPass
    : public dispatchlab::impl::SetEncodingPassBase<SetEncodingPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EncodeHintedContraction>(&getContext());
    // The walk driver does not fold: a constant cloned into a dispatch must
    // stay there.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

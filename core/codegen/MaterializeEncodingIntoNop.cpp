//===- MaterializeEncodingIntoNop.cpp - drop tensor encodings -------------===//
//
// Mirrors IREE's MaterializeEncodingIntoNop: what an encoding asked for is
// ignored, so the data-tiled module computes what it computed before
// SetEncoding, on plain tensors.
//
//===----------------------------------------------------------------------===//

#include "compat/EncodingCompatDialect.h"
#include "core/codegen/Passes.h"

#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_MATERIALIZEENCODINGINTONOPPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace {
/// `type` without its encoding, when it is an encoded tensor.
Type dropEncoding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getEncoding() ? tensor.dropEncoding() : type;
}

/// set_encoding and unset_encoding become their (now identical) source.
template <typename OpTy> struct ForwardSource : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getSource());
    return success();
  }
};

struct MaterializeEncodingIntoNopPass
    : dispatchlab::impl::MaterializeEncodingIntoNopPassBase<
          MaterializeEncodingIntoNopPass> {
  void runOnOperation() override {
    // Types first, in place: every value keeps its users, and after this
    // each set/unset_encoding maps a type onto itself.
    getOperation().walk([](Operation *op) {
      for (Value result : op->getResults())
        result.setType(dropEncoding(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            argument.setType(dropEncoding(argument.getType()));
    });
    RewritePatternSet patterns(&getContext());
    patterns.add<ForwardSource<dispatchlab::encoding::SetEncodingOp>,
                 ForwardSource<dispatchlab::encoding::UnsetEncodingOp>>(
        &getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

//===- HoistEncodingOps.cpp - move set_encoding out of dispatches ---------===//
//
// Mirrors IREE's DispatchCreation HoistEncodingOps (its hoisting half; the
// bubbling through bit-extend and broadcast generics is not modelled). A
// set_encoding whose source is computed inside its dispatch is seed 002's
// case: it stays (IREE today, and the unhoisted_encodings stat counts it),
// is an error (IREE before PR 21181), or leaves with its producer chain when
// that chain is only contiguous slices and constants (PR 21181).
//
//===----------------------------------------------------------------------===//

#include "compat/EncodingCompatDialect.h"
#include "heuristics/Passes.h"
#include "heuristics/SliceContiguity.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace dispatchlab {
#define GEN_PASS_DEF_HOISTENCODINGOPSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
/// IREE's isHoistableOp: ops that may cross the dispatch boundary.
bool isHoistableOp(Operation *op) {
  if (isa<tensor::ExtractSliceOp>(op))
    return isContiguousSlice(op);
  return op->hasTrait<OpTrait::ConstantLike>();
}

/// The ops of `region` that `setEncoding` depends on, in program order, or
/// failure when one may not leave (or any may not, without `hoistSlices`).
FailureOr<SmallVector<Operation *>>
getHoistedChain(encoding::SetEncodingOp setEncoding, dispatch::RegionOp region,
                bool hoistSlices) {
  llvm::SetVector<Operation *> chain;
  SmallVector<Operation *> worklist = {setEncoding};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !region->isProperAncestor(def) || chain.contains(def))
        continue;
      if (!hoistSlices || !isHoistableOp(def))
        return failure();
      chain.insert(def);
      worklist.push_back(def);
    }
  }
  SmallVector<Operation *> ordered = chain.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  ordered.push_back(setEncoding);
  return ordered;
}

struct HoistSetEncoding : public OpRewritePattern<encoding::SetEncodingOp> {
  HoistSetEncoding(MLIRContext *context, bool hoistSlices)
      : OpRewritePattern(context), hoistSlices(hoistSlices) {}

  LogicalResult matchAndRewrite(encoding::SetEncodingOp op,
                                PatternRewriter &rewriter) const override {
    auto region = op->getParentOfType<dispatch::RegionOp>();
    if (!region || op.getSource().getType().getRank() == 0)
      return rewriter.notifyMatchFailure(op, "not in a dispatch, or a scalar");
    FailureOr<SmallVector<Operation *>> chain =
        getHoistedChain(op, region, hoistSlices);
    if (failed(chain))
      return rewriter.notifyMatchFailure(op, "source computed in the dispatch");
    for (Operation *hoisted : *chain)
      rewriter.moveOpBefore(hoisted, region);
    return success();
  }

  bool hoistSlices;
};

struct HoistEncodingOpsPass
    : public dispatchlab::impl::HoistEncodingOpsPassBase<HoistEncodingOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<HoistSetEncoding>(&getContext(), hoistSlices);
    // No folding: constants cloned into dispatches stay where they are.
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    if (!unhoistedError)
      return;
    WalkResult walk = getOperation().walk([](encoding::SetEncodingOp op) {
      if (!op->getParentOfType<dispatch::RegionOp>())
        return WalkResult::advance();
      op.emitOpError("failed to hoist the op out of dispatch");
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

//===- EliminateEmptyTensors.cpp - empties as slices of their destination -===//
//
// Upstream's eliminate-empty-tensors, repeated with the FoldTensorEmpty
// patterns in between until nested insertions are resolved: see the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_ELIMINATEEMPTYTENSORSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// Each round resolves one level of nested insertions; a split of a split
/// of a 4-D result nests four deep.
constexpr int kMaxRounds = 8;

/// Whether an extract_slice slices a tensor.empty: what the next round
/// turns into an empty of its own, inserted somewhere.
bool slicesEmptyTensor(Operation *root) {
  return root
      ->walk([](tensor::ExtractSliceOp slice) {
        return slice.getSource().getDefiningOp<tensor::EmptyOp>()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct EliminateEmptyTensorsPass
    : impl::EliminateEmptyTensorsPassBase<EliminateEmptyTensorsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    FrozenRewritePatternSet folds(std::move(patterns));
    // Only those patterns, no op folding or region simplification: the
    // round is to change nothing but the slices of empties.
    GreedyRewriteConfig config;
    config.enableFolding(false).setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
    IRRewriter rewriter(&getContext());
    for (int round = 0;; ++round) {
      if (failed(
              bufferization::eliminateEmptyTensors(rewriter, getOperation())))
        return signalPassFailure();
      if (round == kMaxRounds || !slicesEmptyTensor(getOperation()))
        return;
      if (failed(applyPatternsGreedily(getOperation(), folds, config)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace dispatchlab

//===- LinearizeTileLoops.cpp - n-D scf.parallel to 1-D -------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace dispatchlab {
#define GEN_PASS_DEF_LINEARIZETILELOOPSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

struct LinearizeTileLoopsPass
    : impl::LinearizeTileLoopsPassBase<LinearizeTileLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop.getNumLoops() > 1)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      std::vector<unsigned> dims(loop.getNumLoops());
      std::iota(dims.begin(), dims.end(), 0);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {dims});
    }
  }
};

} // namespace
} // namespace dispatchlab

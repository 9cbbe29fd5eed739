//===- BlockTileLoopsPerThread.cpp - one block of tiles per thread --------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {
#define GEN_PASS_DEF_BLOCKTILELOOPSPERTHREADPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// Rewrites `scf.parallel (%i) = (lb) to (ub) step (s) { body(%i) }` into
///   scf.parallel (%t) = (0) to (threads) step (1) {
///     scf.for %k = t * per to min((t + 1) * per, n) { body(lb + %k * s) }
///   }
/// with n the trip count and per = ceildiv(n, threads).
void blockLoop(IRRewriter &rewriter, scf::ParallelOp loop, int64_t threads) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value lb = loop.getLowerBound().front();
  Value step = loop.getStep().front();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value blocks = arith::ConstantIndexOp::create(rewriter, loc, threads);
  Value span =
      arith::SubIOp::create(rewriter, loc, loop.getUpperBound().front(), lb);
  Value trips = arith::CeilDivSIOp::create(rewriter, loc, span, step);
  Value perBlock = arith::CeilDivSIOp::create(rewriter, loc, trips, blocks);

  auto outer = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                       ValueRange{blocks}, ValueRange{one});
  rewriter.setInsertionPointToStart(outer.getBody());
  Value first = arith::MulIOp::create(rewriter, loc,
                                      outer.getInductionVars()[0], perBlock);
  Value last = arith::MinSIOp::create(
      rewriter, loc, arith::AddIOp::create(rewriter, loc, first, perBlock),
      trips);
  auto inner = scf::ForOp::create(rewriter, loc, first, last, one);
  rewriter.setInsertionPointToStart(inner.getBody());
  Value index = arith::AddIOp::create(
      rewriter, loc, lb,
      arith::MulIOp::create(rewriter, loc, inner.getInductionVar(), step));
  IRMapping mapping;
  mapping.map(loop.getInductionVars()[0], index);
  for (Operation &op : loop.getBody()->without_terminator())
    rewriter.clone(op, mapping);
  rewriter.eraseOp(loop);
}

struct BlockTileLoopsPerThreadPass
    : impl::BlockTileLoopsPerThreadPassBase<BlockTileLoopsPerThreadPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < 2)
      return;
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      // Only a tile loop: one dim, no reductions, not inside another one.
      if (loop.getNumLoops() == 1 && loop.getNumResults() == 0 &&
          !loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops)
      blockLoop(rewriter, loop, threads);
  }
};

} // namespace
} // namespace dispatchlab

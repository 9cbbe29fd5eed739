//===- BlockTileLoopsPerThread.cpp - one block of tiles per thread --------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// Chunks a block's tiles are claimed in: few enough that claiming costs
/// nothing next to the tiles, enough that a thread finishing early takes
/// over all but a small part of another's block.
constexpr int64_t kChunksPerBlock = 32;
/// i64 slots between two blocks' counters: 128 bytes, so that no two share a
/// cache line or the line pair the L2's adjacent-line prefetcher fetches.
constexpr int64_t kCounterStride = 16;

/// The loop claiming chunks of block `block`'s tiles from its counter in
/// `counters` (the next unclaimed tile) until it reaches `end`, and running
/// `body` on each claimed tile index k.
void claimChunks(OpBuilder &builder, Location loc, Value counters, Value block,
                 Value end, Value chunk,
                 function_ref<void(OpBuilder &, Location, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value chunk64 =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), chunk);
  scf::WhileOp::create(
      builder, loc, TypeRange{builder.getIndexType()}, ValueRange{},
      [&](OpBuilder &b, Location loc, ValueRange) {
        Value claimed = memref::AtomicRMWOp::create(
            b, loc, arith::AtomicRMWKind::addi, chunk64, counters,
            ValueRange{block, zero});
        Value next =
            arith::IndexCastOp::create(b, loc, b.getIndexType(), claimed);
        Value more =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next, end);
        scf::ConditionOp::create(b, loc, more, ValueRange{next});
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value stop = arith::MinSIOp::create(
            b, loc, arith::AddIOp::create(b, loc, args[0], chunk), end);
        scf::ForOp::create(
            b, loc, args[0], stop, one, ValueRange{},
            [&](OpBuilder &b, Location loc, Value k, ValueRange) {
              body(b, loc, k);
              scf::YieldOp::create(b, loc);
            });
        scf::YieldOp::create(b, loc);
      });
}

/// The `threads` blocks' counters, each at its block's first tile
/// (block * perBlock), on the caller's stack: the tasks finish before the
/// dispatch returns.
Value createBlockCounters(OpBuilder &builder, Location loc, int64_t threads,
                          Value perBlock) {
  Type i64 = builder.getI64Type();
  Value counters = memref::AllocaOp::create(
      builder, loc, MemRefType::get({threads, kCounterStride}, i64));
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  for (int64_t block = 0; block < threads; ++block) {
    Value index = arith::ConstantIndexOp::create(builder, loc, block);
    Value first = arith::IndexCastOp::create(
        builder, loc, i64,
        arith::MulIOp::create(builder, loc, index, perBlock));
    memref::StoreOp::create(builder, loc, first, counters,
                            ValueRange{index, zero});
  }
  return counters;
}

/// Rewrites `scf.parallel (%i) = (lb) to (ub) step (s) { body(%i) }` into
///   counters[t] = t * per for each block t
///   scf.parallel (%t) = (0) to (threads) step (1) {
///     for each block b = t, t + 1, ... (mod threads):
///       while (k = atomic counters[b] += chunk) < min((b + 1) * per, n):
///         scf.for %j = k to min(k + chunk, end) { body(lb + %j * s) }
///   }
/// with n the trip count and per = ceildiv(n, threads): each thread runs
/// its own block in order, then helps the others with theirs.
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
  Value chunk = arith::CeilDivSIOp::create(
      rewriter, loc, perBlock,
      arith::ConstantIndexOp::create(rewriter, loc, kChunksPerBlock));

  Value counters = createBlockCounters(rewriter, loc, threads, perBlock);

  auto outer = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                       ValueRange{blocks}, ValueRange{one});
  rewriter.setInsertionPointToStart(outer.getBody());
  Value thread = outer.getInductionVars()[0];
  auto blockOrder = scf::ForOp::create(rewriter, loc, zero, blocks, one);
  rewriter.setInsertionPointToStart(blockOrder.getBody());
  Value block = arith::RemUIOp::create(
      rewriter, loc,
      arith::AddIOp::create(rewriter, loc, thread,
                            blockOrder.getInductionVar()),
      blocks);
  Value end = arith::MinSIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc,
                            arith::AddIOp::create(rewriter, loc, block, one),
                            perBlock),
      trips);
  claimChunks(rewriter, loc, counters, block, end, chunk,
              [&](OpBuilder &builder, Location loc, Value k) {
                Value index = arith::AddIOp::create(
                    builder, loc, lb,
                    arith::MulIOp::create(builder, loc, k, step));
                IRMapping mapping;
                mapping.map(loop.getInductionVars()[0], index);
                for (Operation &op : loop.getBody()->without_terminator())
                  builder.clone(op, mapping);
              });
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

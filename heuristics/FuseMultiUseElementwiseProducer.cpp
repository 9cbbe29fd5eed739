//===- FuseMultiUseElementwiseProducer.cpp - multi-use generic fusion -----===//
//
// Mirrors IREE's DispatchCreation FuseMultiUseElementwiseProducer pass:
// an all-parallel producer with several users is fused into the consumer
// whose use dominates all the others; the fused op also yields the
// producer's value for the remaining users, so the producer disappears.
//
//===----------------------------------------------------------------------===//

#include "heuristics/FusionScope.h"
#include "heuristics/OpClassification.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FUSEMULTIUSEELEMENTWISEPRODUCERPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

static bool isAllParallel(linalg::GenericOp op) {
  return op.getNumLoops() == op.getNumParallelLoops();
}

// IREE only fuses into the user that comes first: the fused op must dominate
// every other user, which then reads the producer's value from it.
static bool consumerDominatesAllUses(linalg::GenericOp producer,
                                     Operation *consumer,
                                     DominanceInfo &dominance) {
  return llvm::all_of(producer->getUsers(), [&](Operation *user) {
    return dominance.dominates(consumer, user);
  });
}

// A consumer reading the producer inside its body (a tensor.extract of it)
// cannot absorb it: the fused op would capture its own result. IREE leaves
// such pairs unfused (its lit case `use_in_generic`).
static bool isReadInsideBody(linalg::GenericOp producer, Operation *consumer) {
  return llvm::any_of(producer->getUsers(), [&](Operation *user) {
    return user != consumer && consumer->isProperAncestor(user);
  });
}

static SmallVector<OpOperand *> getUsesIn(Operation *producer,
                                          Operation *consumer) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &operand : consumer->getOpOperands())
    if (operand.get().getDefiningOp() == producer)
      uses.push_back(&operand);
  return uses;
}

// Mirrors IREE's per-consumer producer choice in fuseMultiUseProducers: the
// first operand whose producer passes every check.
static linalg::GenericOp
findFusableProducer(linalg::GenericOp consumer,
                    const llvm::DenseSet<Operation *> &taken,
                    DominanceInfo &dominance, bool intraDispatch) {
  for (OpOperand &operand : consumer->getOpOperands()) {
    auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
    if (!producer || taken.contains(producer) ||
        producer->getBlock() != consumer->getBlock() ||
        !isInFusionScope(producer, consumer, intraDispatch))
      continue;
    if (!linalg::areElementwiseOpsFusable(&operand))
      continue;
    if (!isAllParallel(producer) ||
        producer.getNumLoops() != consumer.getNumLoops())
      continue;
    if (!consumerDominatesAllUses(producer, consumer, dominance) ||
        isReadInsideBody(producer, consumer))
      continue;
    // Extends are cloned into their users and truncates stay with the wide
    // computation; multi-use fusion must not move either (IREE's
    // fuseMultiUseProducers skips both).
    if (isBitExtendOp(producer) || isBitTruncateOp(producer))
      continue;
    // A use left unfused would keep the producer alive for nothing.
    if (!llvm::all_of(getUsesIn(producer, consumer),
                      linalg::areElementwiseOpsFusable))
      continue;
    return producer;
  }
  return nullptr;
}

// Fuses every use of `producer` in `consumer`, redirecting the other users of
// both to the fused op. Returns false if upstream fusion fails.
static bool fuseAllUses(RewriterBase &rewriter, Operation *producer,
                        Operation *consumer) {
  while (true) {
    SmallVector<OpOperand *> uses = getUsesIn(producer, consumer);
    if (uses.empty())
      break;
    rewriter.setInsertionPoint(consumer);
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, uses.front());
    if (failed(fused))
      return false;
    for (auto [original, replacement] : fused->replacements)
      rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
        return use.getOwner() != fused->fusedOp;
      });
    rewriter.eraseOp(consumer);
    consumer = fused->fusedOp;
  }
  if (isOpTriviallyDead(producer))
    rewriter.eraseOp(producer);
  return true;
}

namespace {
struct FuseMultiUseElementwiseProducerPass
    : public dispatchlab::impl::FuseMultiUseElementwiseProducerPassBase<
          FuseMultiUseElementwiseProducerPass> {
  using FuseMultiUseElementwiseProducerPassBase::
      FuseMultiUseElementwiseProducerPassBase;

  // One round: pick pairs walking consumers from last to first, then fuse.
  // Returns the number of pairs fused, or failure.
  FailureOr<unsigned> runRound(IRRewriter &rewriter) {
    FunctionOpInterface func = getOperation();
    DominanceInfo dominance(func);
    llvm::MapVector<Operation *, Operation *> consumerToProducer;
    llvm::DenseSet<Operation *> taken;
    func.walk<WalkOrder::PostOrder, ReverseIterator>(
        [&](linalg::GenericOp consumer) {
          // Extends fuse with their consumers by cloning instead.
          if (!isAllParallel(consumer) || isBitExtendOp(consumer))
            return;
          linalg::GenericOp producer =
              findFusableProducer(consumer, taken, dominance, intraDispatch);
          if (!producer)
            return;
          taken.insert(producer);
          consumerToProducer[consumer] = producer;
        });

    // As in IREE, later-chosen pairs go first; a pair whose consumer or
    // producer was consumed by an earlier fusion waits for the next round.
    llvm::DenseSet<Operation *> erased;
    unsigned numFused = 0;
    for (auto [consumer, producer] : llvm::reverse(consumerToProducer)) {
      if (erased.contains(consumer) || erased.contains(producer))
        continue;
      erased.insert(consumer);
      erased.insert(producer);
      if (!fuseAllUses(rewriter, producer, consumer))
        return failure();
      ++numFused;
    }
    return numFused;
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (unsigned i = 0; i < numIterations; ++i) {
      FailureOr<unsigned> numFused = runRound(rewriter);
      if (failed(numFused)) {
        getOperation()->emitError("multi-use elementwise fusion failed");
        return signalPassFailure();
      }
      if (*numFused == 0)
        break;
      RewritePatternSet patterns(&getContext());
      linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace

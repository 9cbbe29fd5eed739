//===- FuseHorizontalContractions.cpp - merge contractions sharing an LHS -===//
//
// Mirrors IREE's DispatchCreation FuseHorizontalContractions pass.
// Contractions that read the same LHS value and are independent of each other
// become one multi-result linalg.generic: one root, so one dispatch that reads
// the LHS once.
//
// Divergences: IREE computes the M-size rule on each candidate; here it is
// checked once on the seed, which gives the same answer because every
// candidate reads the same LHS through the same map. A fusion-limit below 2
// merges nothing (IREE still merges pairs).
//
//===----------------------------------------------------------------------===//

#include "heuristics/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FUSEHORIZONTALCONTRACTIONSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

static bool sameContractionDims(const linalg::ContractionDimensions &a,
                                const linalg::ContractionDimensions &b) {
  return a.batch == b.batch && a.m == b.m && a.n == b.n && a.k == b.k;
}

// Mirrors IREE's permuteIndexingMapsToMatchSeedLhs: finds a renaming of
// `op`'s loops, built from pairwise swaps only, under which its LHS map equals
// `seedLhsMap`, and applies it to `maps`. Fails when the swaps conflict or
// would move a reduction loop. The result maps new loop i to old loop
// `permutation[i]`; swaps make it its own inverse.
static std::optional<SmallVector<int64_t>>
alignLoopsWithSeedLhs(AffineMap seedLhsMap,
                      ArrayRef<utils::IteratorType> iterators,
                      SmallVector<AffineMap> &maps) {
  AffineMap lhsMap = maps.front();
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, lhsMap.getNumDims()));
  if (lhsMap == seedLhsMap)
    return permutation;
  if (lhsMap.getNumDims() != seedLhsMap.getNumDims() ||
      lhsMap.getNumResults() != seedLhsMap.getNumResults() ||
      !lhsMap.isProjectedPermutation() || !seedLhsMap.isProjectedPermutation())
    return std::nullopt;

  for (auto [seedExpr, expr] :
       llvm::zip_equal(seedLhsMap.getResults(), lhsMap.getResults())) {
    int64_t want = cast<AffineDimExpr>(seedExpr).getPosition();
    int64_t have = cast<AffineDimExpr>(expr).getPosition();
    if (want == have)
      continue;
    bool untouched = permutation[want] == want && permutation[have] == have;
    if (untouched) {
      std::swap(permutation[want], permutation[have]);
      continue;
    }
    if (permutation[want] != have || permutation[have] != want)
      return std::nullopt;
  }

  SmallVector<utils::IteratorType> permuted = llvm::to_vector(iterators);
  applyPermutationToVector(permuted, permutation);
  if (!llvm::equal(permuted, iterators))
    return std::nullopt;

  AffineMap rename =
      AffineMap::getPermutationMap(permutation, seedLhsMap.getContext());
  for (AffineMap &map : maps)
    map = map.compose(rename);
  return permutation;
}

static bool haveSameRankAndElementType(Value a, Value b) {
  auto aType = dyn_cast<ShapedType>(a.getType());
  auto bType = dyn_cast<ShapedType>(b.getType());
  return aType && bType && aType.getRank() == bType.getRank() &&
         aType.getElementType() == bType.getElementType();
}

// Mirrors IREE's M-size rule (its workaround for GPU codegen of small fused
// matmuls): the M dims must be static and multiply to at least 16.
static bool hasLargeEnoughM(linalg::LinalgOp seed) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(seed);
  if (failed(dims))
    return false;
  SmallVector<int64_t> ranges = seed.getStaticLoopRanges();
  int64_t product = 1;
  for (unsigned m : dims->m) {
    // IREE's unsigned product turns a dynamic size into 0, i.e. refuses.
    if (ShapedType::isDynamic(ranges[m]))
      return false;
    product *= ranges[m];
  }
  return product >= 16;
}

// Mirrors IREE's checkContractionOpEquivalence: can `op` join `seed`'s group?
static bool isCompatibleWithSeed(linalg::LinalgOp op, linalg::LinalgOp seed) {
  // Same LHS value: the point of the fusion is reading it once.
  if (op.getDpsInputOperand(0)->get() != seed.getDpsInputOperand(0)->get())
    return false;

  SmallVector<AffineMap> seedMaps = seed.getIndexingMapsArray();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<SmallVector<int64_t>> permutation =
      alignLoopsWithSeedLhs(seedMaps.front(), op.getIteratorTypesArray(), maps);
  if (!permutation)
    return false;

  // Same batch/M/N/K dims once the loops are aligned.
  FailureOr<linalg::ContractionDimensions> seedDims =
      linalg::inferContractionDims(seedMaps);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(maps);
  if (failed(seedDims) || failed(dims) ||
      !sameContractionDims(*seedDims, *dims))
    return false;

  // N dims static and equal, so the results share one iteration space.
  SmallVector<int64_t> seedRanges = seed.getStaticLoopRanges();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  applyPermutationToVector(ranges, *permutation);
  for (unsigned n : seedDims->n)
    if (ShapedType::isDynamic(seedRanges[n]) || seedRanges[n] != ranges[n])
      return false;

  // RHS and output: same rank and element type (IREE allows them to be
  // transposed, so the shapes are not compared).
  if (!haveSameRankAndElementType(op.getDpsInputOperand(1)->get(),
                                  seed.getDpsInputOperand(1)->get()) ||
      !haveSameRankAndElementType(op.getDpsInitOperand(0)->get(),
                                  seed.getDpsInitOperand(0)->get()))
    return false;

  // Same iterator types (before alignment, as IREE compares them).
  if (op.getIteratorTypesArray() != seed.getIteratorTypesArray())
    return false;

  // Equivalent bodies, so one body can be cloned per result.
  return OperationEquivalence::isRegionEquivalentTo(
      &op->getRegion(0), &seed->getRegion(0),
      OperationEquivalence::IgnoreLocations);
}

// The ops between `seed` and `op` that `op` depends on, including `op`.
static SetVector<Operation *> sliceSinceSeed(Operation *op, Operation *seed,
                                             const DominanceInfo &dominance) {
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *candidate) {
    return !dominance.properlyDominates(candidate, seed);
  };
  SetVector<Operation *> slice;
  (void)getBackwardSlice(op, &slice, options);
  return slice;
}

// Mirrors IREE's getHorizontalFusionGroupMembers: later LHS users in the same
// block that are compatible with `seed` and independent of every op already
// in the group (IREE's isHorizontalToGroup), in program order, up to
// `fusionLimit` ops.
static SmallVector<linalg::LinalgOp>
collectGroup(linalg::LinalgOp seed, const DenseSet<Operation *> &grouped,
             const DominanceInfo &dominance, unsigned fusionLimit) {
  SmallVector<linalg::LinalgOp> group = {seed};
  if (!hasLargeEnoughM(seed))
    return group;

  SmallVector<linalg::LinalgOp> candidates;
  for (Operation *user : seed.getDpsInputOperand(0)->get().getUsers()) {
    auto op = dyn_cast<linalg::LinalgOp>(user);
    if (!op || op == seed || op->getBlock() != seed->getBlock() ||
        grouped.contains(op) || !op.hasPureTensorSemantics() ||
        !linalg::isaContractionOpInterface(op) ||
        !dominance.properlyDominates(seed.getOperation(), op) ||
        !isCompatibleWithSeed(op, seed))
      continue;
    candidates.push_back(op);
  }
  llvm::sort(candidates, [](linalg::LinalgOp a, linalg::LinalgOp b) {
    return a->isBeforeInBlock(b);
  });
  // An op can use the LHS twice (e.g. x * x^T); keep it once.
  candidates.erase(llvm::unique(candidates), candidates.end());

  for (linalg::LinalgOp op : candidates) {
    if (group.size() >= fusionLimit)
      break;
    SetVector<Operation *> slice = sliceSinceSeed(op, seed, dominance);
    if (llvm::any_of(group, [&](linalg::LinalgOp member) {
          return slice.contains(member);
        }))
      continue;
    group.push_back(op);
  }
  return group;
}

// Builds the multi-result generic at the seed, after moving the operand
// producers that sit between the group's ops above it.
static void fuseGroup(RewriterBase &rewriter, ArrayRef<linalg::LinalgOp> group,
                      const DominanceInfo &dominance) {
  linalg::LinalgOp seed = group.front();
  SetVector<Operation *> toHoist;
  for (linalg::LinalgOp op : group.drop_front())
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (!dominance.properlyDominates(def, seed))
          toHoist.insert_range(sliceSinceSeed(def, seed, dominance));
  for (Operation *op : mlir::topologicalSort(toHoist))
    rewriter.moveOpBefore(op, seed);

  AffineMap lhsMap = seed.getIndexingMapsArray().front();
  SmallVector<Value> ins = {seed.getDpsInputOperand(0)->get()};
  SmallVector<Value> outs;
  SmallVector<AffineMap> rhsMaps, outMaps;
  SmallVector<Type> resultTypes;
  for (linalg::LinalgOp op : group) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    // Cannot fail: the same alignment was accepted when grouping.
    (void)alignLoopsWithSeedLhs(lhsMap, op.getIteratorTypesArray(), maps);
    ins.push_back(op.getDpsInputOperand(1)->get());
    outs.push_back(op.getDpsInitOperand(0)->get());
    rhsMaps.push_back(maps[1]);
    outMaps.push_back(maps[2]);
    resultTypes.push_back(op->getResult(0).getType());
  }
  SmallVector<AffineMap> indexingMaps = {lhsMap};
  llvm::append_range(indexingMaps, rhsMaps);
  llvm::append_range(indexingMaps, outMaps);

  rewriter.setInsertionPoint(seed);
  auto fused = linalg::GenericOp::create(
      rewriter, seed.getLoc(), resultTypes, ins, outs, indexingMaps,
      seed.getIteratorTypesArray(),
      [&](OpBuilder &builder, Location loc, ValueRange args) {
        // Block arguments: LHS, the RHSs, then the outputs.
        SmallVector<Value> yielded;
        for (auto [index, op] : llvm::enumerate(group)) {
          Block *body = &op->getRegion(0).front();
          IRMapping mapping;
          mapping.map(body->getArgument(0), args[0]);
          mapping.map(body->getArgument(1), args[1 + index]);
          mapping.map(body->getArgument(2), args[1 + group.size() + index]);
          for (Operation &bodyOp : body->without_terminator())
            builder.clone(bodyOp, mapping);
          yielded.push_back(
              mapping.lookup(body->getTerminator()->getOperand(0)));
        }
        linalg::YieldOp::create(builder, loc, yielded);
      });
  for (auto [index, op] : llvm::enumerate(group))
    rewriter.replaceOp(op, fused->getResult(index));
}

namespace {
struct FuseHorizontalContractionsPass
    : public dispatchlab::impl::FuseHorizontalContractionsPassBase<
          FuseHorizontalContractionsPass> {
  using FuseHorizontalContractionsPassBase::FuseHorizontalContractionsPassBase;

  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    // Groups are all chosen first, as in IREE, so rewriting one cannot change
    // which ops another sees.
    SmallVector<SmallVector<linalg::LinalgOp>> groups;
    DenseSet<Operation *> grouped;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // The merged op yields tensors, so buffer contractions are left alone.
      if (!op.hasPureTensorSemantics() ||
          !linalg::isaContractionOpInterface(op) || grouped.contains(op))
        return;
      SmallVector<linalg::LinalgOp> group =
          collectGroup(op, grouped, dominance, fusionLimit);
      if (group.size() < 2)
        return;
      for (linalg::LinalgOp member : group)
        grouped.insert(member);
      groups.push_back(std::move(group));
    });

    IRRewriter rewriter(&getContext());
    for (ArrayRef<linalg::LinalgOp> group : groups)
      fuseGroup(rewriter, group, dominance);
  }
};
} // namespace

//===- PropagateLinalgTranspose.cpp - move transposes into neighbours -----===//
//
// Mirrors IREE's GlobalOptimization PropagateLinalgTranspose. A transpose
// left between two ops is a dispatch of its own unless it fuses; moving it
// into an indexing map of the generic or contraction next to it (or
// cancelling it against another) removes it. The pass only makes local
// decisions, in IREE's four phases: specialize, sink into named
// contractions, bubble up into producers, sink into consumers.
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/Passes.h"
#include "globalopt/PrunedAttributes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_PROPAGATELINALGTRANSPOSEPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;
using dispatchlab::globalopt::isOutsideDispatch;
using dispatchlab::globalopt::prunedAttributes;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// An empty tensor shaped like `source` permuted by `perm`.
Value permutedEmpty(OpBuilder &builder, Location loc, Value source,
                    ArrayRef<int64_t> perm) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(builder, loc, source);
  applyPermutationToVector(sizes, perm);
  return tensor::EmptyOp::create(builder, loc, sizes,
                                 getElementTypeOrSelf(source.getType()));
}

/// `source` transposed by `perm`; transposing an empty tensor only needs a
/// permuted empty, so none is created for it.
Value transposeOf(OpBuilder &builder, Location loc, Value source,
                  ArrayRef<int64_t> perm) {
  Value empty = permutedEmpty(builder, loc, source, perm);
  if (source.getDefiningOp<tensor::EmptyOp>())
    return empty;
  return linalg::TransposeOp::create(builder, loc, source, empty, perm)
      ->getResult(0);
}

/// `map` with its results reordered by `perm`.
AffineMap permuteResults(AffineMap map, ArrayRef<int64_t> perm) {
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                        applyPermutation(map.getResults(), perm),
                        map.getContext());
}

/// IREE's isReshapeBlockingFusion: a reshape between two ops that could
/// share a dispatch keeps them apart, so moving a transpose through it is
/// worth it even without edge reshape propagation.
bool isFusable(Operation *op) {
  return op &&
         isa<linalg::LinalgDialect, tensor::TensorDialect>(op->getDialect());
}

bool reshapeBlocksFusion(Operation *producer, Operation *consumer) {
  return isFusable(producer) && isFusable(consumer);
}

/// IREE's getAllowedGenericOpOrGeneralizeNamedOp: generics take part as
/// they are; named contractions only under aggressive propagation and
/// convolutions only under conv propagation, generalized first.
FailureOr<linalg::GenericOp> asAllowedGeneric(RewriterBase &rewriter,
                                              Operation *op, bool aggressive,
                                              bool conv) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return failure();
  bool isConv = linalg::isaConvolutionOpInterface(linalgOp);
  if (isConv && !conv)
    return failure();
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return generic;
  bool generalizable =
      (aggressive && linalg::isaContractionOpInterface(linalgOp)) || isConv;
  if (!generalizable)
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  return linalg::generalizeNamedOp(rewriter, linalgOp);
}

/// Whether permuting the loops by `loopPerm` changes the relative order in
/// which `map` (a projected permutation) reads its operand's dims.
bool reordersOperand(AffineMap map, ArrayRef<int64_t> loopPerm) {
  int64_t previous = -1;
  for (AffineExpr expr : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return true;
    int64_t position = loopPerm[dim.getPosition()];
    if (position <= previous)
      return true;
    previous = position;
  }
  return false;
}

/// IREE's getSingleTransposedInputOperand: the one input whose access order
/// `loopPerm` changes, or null if none or several.
OpOperand *singleReorderedInput(linalg::GenericOp generic,
                                ArrayRef<int64_t> loopPerm) {
  OpOperand *found = nullptr;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!reordersOperand(generic.getMatchingIndexingMap(input), loopPerm))
      continue;
    if (found)
      return nullptr;
    found = input;
  }
  return found;
}

/// An elementwise generic with one identity-mapped result and no
/// linalg.index: the shape the unary elementwise rules rewrite.
LogicalResult checkUnaryElementwise(PatternRewriter &rewriter,
                                    linalg::GenericOp generic) {
  if (!linalg::isElementwise(generic))
    return rewriter.notifyMatchFailure(generic, "not elementwise");
  if (generic.hasIndexSemantics())
    return rewriter.notifyMatchFailure(generic, "reads linalg.index");
  if (generic.getNumDpsInits() != 1)
    return rewriter.notifyMatchFailure(generic, "several results");
  if (!generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return rewriter.notifyMatchFailure(generic, "result map not identity");
  return success();
}

/// A copy of the elementwise `generic` computing its result in the loop
/// order `loopPerm`: `operand` is replaced by `newOperand` (which the
/// caller has transposed, so its map stays) and every other input map is
/// composed with the permutation.
Value permutedElementwise(PatternRewriter &rewriter, linalg::GenericOp generic,
                          OpOperand *operand, Value newOperand,
                          ArrayRef<int64_t> loopPerm) {
  Location loc = generic.getLoc();
  Value init = permutedEmpty(rewriter, loc, generic.getDpsInits()[0],
                             invertPermutationVector(loopPerm));
  AffineMap loopMap =
      AffineMap::getPermutationMap(loopPerm, rewriter.getContext());
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input != operand)
      maps[input->getOperandNumber()] =
          maps[input->getOperandNumber()].compose(loopMap);
  SmallVector<Value> operands = generic->getOperands();
  operands[operand->getOperandNumber()] = newOperand;
  operands[generic.getDpsInitOperand(0)->getOperandNumber()] = init;
  Operation *copy = mlir::clone(rewriter, generic, init.getType(), operands);
  cast<linalg::GenericOp>(copy).setIndexingMapsAttr(
      rewriter.getAffineMapArrayAttr(maps));
  return copy->getResult(0);
}

//===----------------------------------------------------------------------===//
// Specialization
//===----------------------------------------------------------------------===//

/// IREE's specializeGenericTransposeOp: a parallel generic that only copies
/// its single input, through two different permutation maps, is a
/// transpose. Output dim i reads the input dim its map puts at i.
std::optional<SmallVector<int64_t>>
transposePermutation(linalg::GenericOp generic) {
  if (generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap in = generic.getIndexingMapsArray()[0];
  AffineMap out = generic.getIndexingMapsArray()[1];
  if (!in.isPermutation() || !out.isPermutation() || in == out)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (!llvm::hasSingleElement(generic.getBody()->getOperations()) ||
      yield.getOperand(0) != generic.getBody()->getArgument(0))
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (AffineExpr expr : out.getResults())
    perm.push_back(*in.getResultPosition(expr));
  return perm;
}

void specializeTransposes(FunctionOpInterface func) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp generic) {
    if (isOutsideDispatch(generic))
      generics.push_back(generic);
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::GenericOp generic : generics) {
    std::optional<SmallVector<int64_t>> perm = transposePermutation(generic);
    if (!perm)
      continue;
    rewriter.setInsertionPoint(generic);
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(
        generic, generic.getDpsInputs()[0], generic.getDpsInits()[0], *perm);
  }
}

//===----------------------------------------------------------------------===//
// Bubbling rules
//===----------------------------------------------------------------------===//

/// Loop order that walks `map`'s dims in the order it writes them, the
/// other loops staying in place (IREE interchanges the generic so its
/// transposed result is written in order).
SmallVector<unsigned> outputOrder(AffineMap map) {
  SmallVector<unsigned> order;
  unsigned next = 0;
  for (unsigned d = 0, e = map.getNumDims(); d < e; ++d) {
    if (!map.isFunctionOfDim(d)) {
      order.push_back(d);
      continue;
    }
    order.push_back(cast<AffineDimExpr>(map.getResult(next++)).getPosition());
  }
  return order;
}

/// IREE's FuseTransposeWithProducerLinalgOp: the producing generic writes
/// its result transposed (permuted output map, permuted init).
struct FuseTransposeWithProducer : OpRewritePattern<linalg::TransposeOp> {
  FuseTransposeWithProducer(MLIRContext *context, bool aggressive, bool conv)
      : OpRewritePattern(context), aggressive(aggressive), conv(conv) {}

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(transpose))
      return rewriter.notifyMatchFailure(transpose, "in a dispatch");
    auto result = dyn_cast<OpResult>(transpose.getInput());
    if (!result || !result.hasOneUse())
      return rewriter.notifyMatchFailure(transpose, "no single-use producer");
    unsigned index = result.getResultNumber();
    auto producerOp = dyn_cast<linalg::LinalgOp>(result.getOwner());
    if (!producerOp || !producerOp.getIndexingMapMatchingResult(result)
                            .isProjectedPermutation())
      return rewriter.notifyMatchFailure(transpose, "no plain Linalg result");
    FailureOr<linalg::GenericOp> producer =
        asAllowedGeneric(rewriter, result.getOwner(), aggressive, conv);
    if (failed(producer))
      return rewriter.notifyMatchFailure(transpose, "producer not allowed");
    FailureOr<linalg::GenericOp> fused =
        writeTransposed(rewriter, *producer, index, transpose.getPermutation());
    if (failed(fused))
      return rewriter.notifyMatchFailure(transpose, "interchange failed");
    rewriter.replaceOp(transpose, fused->getResult(index));
    for (OpResult old : producer->getResults())
      if (old.getResultNumber() != index)
        rewriter.replaceAllUsesWith(old,
                                    fused->getResult(old.getResultNumber()));
    return success();
  }

private:
  static FailureOr<linalg::GenericOp> writeTransposed(PatternRewriter &rewriter,
                                                      linalg::GenericOp generic,
                                                      unsigned index,
                                                      ArrayRef<int64_t> perm) {
    unsigned initNumber = generic.getNumDpsInputs() + index;
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    maps[initNumber] = permuteResults(maps[initNumber], perm);
    SmallVector<Value> inits = generic.getDpsInits();
    inits[index] = transposeOf(rewriter, generic.getLoc(), inits[index], perm);
    SmallVector<Type> types(generic->getResultTypes());
    types[index] = inits[index].getType();
    auto fused = linalg::GenericOp::create(
        rewriter, generic.getLoc(), types, generic.getDpsInputs(), inits, maps,
        generic.getIteratorTypesArray(), /*bodyBuild=*/nullptr,
        prunedAttributes(generic));
    rewriter.cloneRegionBefore(generic.getRegion(), fused.getRegion(),
                               fused.getRegion().begin());
    if (fused.getNumResults() != 1)
      return fused;
    return linalg::interchangeGenericOp(rewriter, fused,
                                        outputOrder(maps[initNumber]));
  }

  bool aggressive;
  bool conv;
};

/// Reassociation groups reordered by `order` (group i of the result is
/// group order[i] of `groups`), flattened: the permutation of the
/// uncollapsed dims this amounts to, and the regrouped reassociation.
std::pair<SmallVector<int64_t>, SmallVector<ReassociationIndices>>
reorderGroups(SmallVector<ReassociationIndices> groups,
              ArrayRef<int64_t> order) {
  applyPermutationToVector(groups, order);
  SmallVector<int64_t> flat;
  SmallVector<ReassociationIndices> regrouped;
  for (const ReassociationIndices &group : groups) {
    ReassociationIndices next;
    for (int64_t dim : group) {
      next.push_back(flat.size());
      flat.push_back(dim);
    }
    regrouped.push_back(next);
  }
  return {flat, regrouped};
}

/// IREE's BubbleTransposeThroughCollapseShape: transposing collapsed
/// groups is transposing the uncollapsed dims group-wise, then collapsing.
struct BubbleTransposeThroughCollapseShape
    : OpRewritePattern<linalg::TransposeOp> {
  BubbleTransposeThroughCollapseShape(MLIRContext *context, bool edge)
      : OpRewritePattern(context), edge(edge) {}

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(transpose))
      return rewriter.notifyMatchFailure(transpose, "in a dispatch");
    auto collapse =
        transpose.getInput().getDefiningOp<tensor::CollapseShapeOp>();
    // A multi-use collapse would leave the transpose duplicated.
    if (!collapse || !collapse->hasOneUse())
      return rewriter.notifyMatchFailure(transpose, "no single-use collapse");
    if (!edge &&
        !reshapeBlocksFusion(transpose, collapse.getSrc().getDefiningOp()))
      return rewriter.notifyMatchFailure(transpose, "collapse blocks nothing");
    auto [perm, groups] = reorderGroups(collapse.getReassociationIndices(),
                                        transpose.getPermutation());
    Value moved =
        transposeOf(rewriter, transpose.getLoc(), collapse.getSrc(), perm);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        transpose, transpose->getResultTypes()[0], moved, groups);
    return success();
  }

private:
  bool edge;
};

/// IREE's BubbleTransposeThroughUnaryElementwiseDpsInit: a transpose of an
/// elementwise result whose loop permutation reorders only one input moves
/// onto that input; the other inputs absorb it in their maps.
struct BubbleTransposeThroughUnaryElementwise
    : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto generic = transpose.getInput().getDefiningOp<linalg::GenericOp>();
    if (!generic || !isOutsideDispatch(generic) ||
        !isOutsideDispatch(transpose))
      return rewriter.notifyMatchFailure(transpose, "no generic producer");
    if (failed(checkUnaryElementwise(rewriter, generic)))
      return failure();
    if (!generic->hasOneUse())
      return rewriter.notifyMatchFailure(transpose, "producer has other uses");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<int64_t> loopPerm = invertPermutationVector(perm);
    OpOperand *input = singleReorderedInput(generic, loopPerm);
    if (!input || !generic.getMatchingIndexingMap(input).isIdentity())
      return rewriter.notifyMatchFailure(transpose,
                                         "no single reordered input");
    Value moved = transposeOf(rewriter, transpose.getLoc(), input->get(), perm);
    rewriter.replaceOp(transpose, permutedElementwise(rewriter, generic, input,
                                                      moved, loopPerm));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Sinking rules
//===----------------------------------------------------------------------===//

/// IREE's ComposeTransposes: two transposes in a row are one (or none).
struct ComposeTransposes : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(consumer))
      return rewriter.notifyMatchFailure(consumer, "in a dispatch");
    auto producer = consumer.getInput().getDefiningOp<linalg::TransposeOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(consumer, "input not a transpose");
    SmallVector<int64_t> perm =
        applyPermutation(producer.getPermutation(), consumer.getPermutation());
    Value source = producer.getInput();
    if (!isIdentityPermutation(perm))
      source = transposeOf(rewriter, consumer.getLoc(), source, perm);
    rewriter.replaceOp(consumer, source);
    return success();
  }
};

/// IREE's isOffsetSizeAndStrideMappableToFlow: a unit-stride slice that is
/// one contiguous run of `shape` (full inner dims, then at most one partial
/// dim, then unit dims outside it), which IREE copies without a dispatch.
bool isContiguousSlice(ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes,
                       ArrayRef<OpFoldResult> strides,
                       ArrayRef<int64_t> shape) {
  bool partialSeen = false;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (!isConstantIntValue(strides[d], 1))
      return false;
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (partialSeen) {
      if (size != 1)
        return false;
      continue;
    }
    bool full = isConstantIntValue(offsets[d], 0) && size &&
                !ShapedType::isDynamic(shape[d]) && *size == shape[d];
    partialSeen = !full;
  }
  return true;
}

/// The transpose of a rank-reducing slice: `perm` without the dims the
/// slice drops (`dropped`, in transposed space), renumbered.
SmallVector<int64_t> dropDims(ArrayRef<int64_t> perm,
                              const llvm::SmallDenseSet<unsigned> &dropped) {
  SmallVector<int64_t> rank(perm.size(), -1);
  int64_t next = 0;
  SmallVector<int64_t> kept = invertPermutationVector(perm);
  for (int64_t source = 0, e = perm.size(); source < e; ++source)
    if (!dropped.contains(kept[source]))
      rank[source] = next++;
  SmallVector<int64_t> reduced;
  for (int64_t d = 0, e = perm.size(); d < e; ++d)
    if (!dropped.contains(d))
      reduced.push_back(rank[perm[d]]);
  return reduced;
}

/// IREE's SinkTransposeThroughExtractSlice: slice the untransposed tensor
/// and transpose the (smaller) slice, when the slice is contiguous there.
struct SinkTransposeThroughExtractSlice
    : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(slice))
      return rewriter.notifyMatchFailure(slice, "in a dispatch");
    auto transpose = slice.getSource().getDefiningOp<linalg::TransposeOp>();
    if (!transpose)
      return rewriter.notifyMatchFailure(slice, "source not a transpose");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<int64_t> inverse = invertPermutationVector(perm);
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    SmallVector<OpFoldResult> strides = slice.getMixedStrides();
    applyPermutationToVector(offsets, inverse);
    applyPermutationToVector(sizes, inverse);
    applyPermutationToVector(strides, inverse);
    if (!isContiguousSlice(offsets, sizes, strides,
                           transpose.getInput().getType().getShape()))
      return rewriter.notifyMatchFailure(slice, "not contiguous untransposed");
    std::optional<llvm::SmallDenseSet<unsigned>> dropped =
        computeRankReductionMask(slice.getStaticSizes(),
                                 slice.getResultType().getShape());
    if (!dropped)
      return rewriter.notifyMatchFailure(slice, "no rank-reduction mask");
    SmallVector<int64_t> reduced = dropDims(perm, *dropped);
    auto type = RankedTensorType::get(
        applyPermutation(slice.getResultType().getShape(),
                         invertPermutationVector(reduced)),
        slice.getResultType().getElementType());
    Value moved = tensor::ExtractSliceOp::create(rewriter, slice.getLoc(), type,
                                                 transpose.getInput(), offsets,
                                                 sizes, strides);
    if (!isIdentityPermutation(reduced))
      moved = transposeOf(rewriter, slice.getLoc(), moved, reduced);
    rewriter.replaceOp(slice, moved);
    return success();
  }
};

/// IREE's SinkTransposeThroughExpandShape: expand the untransposed tensor
/// group-wise, then transpose the expanded dims.
struct SinkTransposeThroughExpandShape
    : OpRewritePattern<tensor::ExpandShapeOp> {
  SinkTransposeThroughExpandShape(MLIRContext *context, bool edge)
      : OpRewritePattern(context), edge(edge) {}

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(expand))
      return rewriter.notifyMatchFailure(expand, "in a dispatch");
    auto transpose = expand.getSrc().getDefiningOp<linalg::TransposeOp>();
    // A multi-use transpose would stay and be duplicated.
    if (!transpose || !transpose->hasOneUse())
      return rewriter.notifyMatchFailure(expand, "no single-use transpose");
    if (!edge && llvm::none_of(expand->getUsers(), [&](Operation *user) {
          return reshapeBlocksFusion(transpose, user);
        }))
      return rewriter.notifyMatchFailure(expand, "expand blocks nothing");
    auto [order, groups] =
        reorderGroups(expand.getReassociationIndices(),
                      invertPermutationVector(transpose.getPermutation()));
    SmallVector<OpFoldResult> outputShape = expand.getMixedOutputShape();
    applyPermutationToVector(outputShape, order);
    auto type = RankedTensorType::get(
        applyPermutation(expand.getResultType().getShape(), order),
        expand.getResultType().getElementType());
    Value expanded = tensor::ExpandShapeOp::create(rewriter, expand.getLoc(),
                                                   type, transpose.getInput(),
                                                   groups, outputShape);
    rewriter.replaceOp(expand, transposeOf(rewriter, expand.getLoc(), expanded,
                                           invertPermutationVector(order)));
    return success();
  }

private:
  bool edge;
};

/// IREE's FuseTransposeWithLinalgOpConsumer: the consumer reads the
/// untransposed tensor through a permuted input map.
struct FuseTransposeWithConsumer : OpInterfaceRewritePattern<linalg::LinalgOp> {
  FuseTransposeWithConsumer(MLIRContext *context, bool aggressive, bool conv)
      : OpInterfaceRewritePattern(context), aggressive(aggressive), conv(conv) {
  }

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(op))
      return rewriter.notifyMatchFailure(op, "in a dispatch");
    OpOperand *operand = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
      if (transpose && transpose->hasOneUse()) {
        operand = input;
        break;
      }
    }
    if (!operand)
      return rewriter.notifyMatchFailure(op, "no single-use transpose input");
    unsigned number = operand->getOperandNumber();
    auto transpose = operand->get().getDefiningOp<linalg::TransposeOp>();
    FailureOr<linalg::GenericOp> generic =
        asAllowedGeneric(rewriter, op, aggressive, conv);
    if (failed(generic))
      return rewriter.notifyMatchFailure(op, "consumer not allowed");
    SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
    maps[number] = permuteResults(
        maps[number], invertPermutationVector(transpose.getPermutation()));
    rewriter.modifyOpInPlace(*generic, [&] {
      generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      generic->setOperand(number, transpose.getInput());
    });
    return success();
  }

private:
  bool aggressive;
  bool conv;
};

/// IREE's SinkTransposeThroughUnaryElementwiseInput: an identity-mapped
/// transposed input whose loop permutation reorders no other input is read
/// untransposed; the result is transposed instead.
struct SinkTransposeThroughUnaryElementwise
    : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(generic))
      return rewriter.notifyMatchFailure(generic, "in a dispatch");
    if (failed(checkUnaryElementwise(rewriter, generic)))
      return failure();
    for (OpOperand *input : generic.getDpsInputOperands()) {
      // Broadcast inputs would transpose more data; transposed ones
      // compose instead.
      if (!generic.getMatchingIndexingMap(input).isIdentity())
        continue;
      auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
      if (!transpose || !transpose->hasOneUse() ||
          singleReorderedInput(generic, transpose.getPermutation()) != input)
        continue;
      ArrayRef<int64_t> perm = transpose.getPermutation();
      Value result = permutedElementwise(rewriter, generic, input,
                                         transpose.getInput(), perm);
      rewriter.replaceOp(generic,
                         transposeOf(rewriter, generic.getLoc(), result, perm));
      return success();
    }
    return rewriter.notifyMatchFailure(generic, "no single-use transpose");
  }
};

//===----------------------------------------------------------------------===//
// Named contraction rules
//===----------------------------------------------------------------------===//

/// IREE's NamedOpConversion for matmul and batch_matmul: a transpose of the
/// two inner dims of an operand becomes (or cancels) the transpose_a/b
/// variant. `OpTy` is MatmulOp or BatchMatmulOp.
template <typename OpTy, typename TransposeA, typename TransposeB>
struct FoldTransposeIntoMatmul : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(op))
      return rewriter.notifyMatchFailure(op, "in a dispatch");
    // IREE tries the RHS first.
    for (unsigned index : {1u, 0u})
      if (succeeded(foldOperand(rewriter, op, index)))
        return success();
    return rewriter.notifyMatchFailure(op, "no inner-dims transpose input");
  }

private:
  static LogicalResult foldOperand(PatternRewriter &rewriter, OpTy op,
                                   unsigned index) {
    auto transpose =
        op.getInputs()[index].template getDefiningOp<linalg::TransposeOp>();
    int64_t rank =
        cast<RankedTensorType>(op.getInputs()[index].getType()).getRank();
    SmallVector<int64_t> swapInner =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(swapInner[rank - 1], swapInner[rank - 2]);
    if (!transpose || transpose.getPermutation() != ArrayRef(swapInner))
      return failure();
    SmallVector<Value> inputs = op.getInputs();
    inputs[index] = transpose.getInput();
    SmallVector<NamedAttribute> attrs = prunedAttributes(op);
    TypeRange types = op->getResultTypes();
    Location loc = op.getLoc();
    ValueRange inits = op.getDpsInits();
    Operation *replacement = nullptr;
    bool plain = !op.hasUserDefinedMaps();
    if ((index == 0 && isa<TransposeA>(op.getOperation())) ||
        (index == 1 && isa<TransposeB>(op.getOperation())))
      replacement = OpTy::create(rewriter, loc, types, inputs, inits, attrs);
    else if (plain && index == 0)
      replacement =
          TransposeA::create(rewriter, loc, types, inputs, inits, attrs);
    else if (plain && index == 1)
      replacement =
          TransposeB::create(rewriter, loc, types, inputs, inits, attrs);
    if (!replacement)
      return failure();
    rewriter.replaceOp(op, replacement);
    return success();
  }
};

/// IREE's FuseTransposeThroughGenericReduction (at IREE b48a5955; it
/// replaced the matmul-only FuseTransposeThroughGenericContraction): a
/// reduction generic reads a transposed input through a permuted map when
/// that map then reads its dims in increasing loop order, so the access
/// stays in order; the transpose may have other uses. As in IREE, only the
/// first transposed input is tried.
struct FuseTransposeIntoGenericReduction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(generic))
      return rewriter.notifyMatchFailure(generic, "in a dispatch");
    if (generic.getNumParallelLoops() == generic.getNumLoops())
      return rewriter.notifyMatchFailure(generic, "not a reduction");
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    if (!llvm::all_of(maps,
                      [](AffineMap m) { return m.isProjectedPermutation(); }))
      return rewriter.notifyMatchFailure(generic, "maps not projections");
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
      if (!transpose)
        continue;
      unsigned number = input->getOperandNumber();
      maps[number] = permuteResults(
          maps[number], invertPermutationVector(transpose.getPermutation()));
      if (!llvm::is_sorted(maps[number].getResults(),
                           [](AffineExpr a, AffineExpr b) {
                             return cast<AffineDimExpr>(a).getPosition() <
                                    cast<AffineDimExpr>(b).getPosition();
                           }))
        return rewriter.notifyMatchFailure(generic,
                                           "permuted map out of order");
      rewriter.modifyOpInPlace(generic, [&] {
        generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
        generic.setOperand(number, transpose.getInput());
      });
      return success();
    }
    return rewriter.notifyMatchFailure(generic, "no transposed input");
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

void addNamedContractionRules(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<FoldTransposeIntoMatmul<linalg::MatmulOp, linalg::MatmulTransposeAOp,
                                   linalg::MatmulTransposeBOp>,
           FoldTransposeIntoMatmul<linalg::BatchMatmulOp,
                                   linalg::BatchMatmulTransposeAOp,
                                   linalg::BatchMatmulTransposeBOp>,
           FuseTransposeIntoGenericReduction>(context);
}

/// IREE's populateCommonCanonicalizationPatterns (without the memref dim
/// resolution: no memrefs here). Fill's patterns fold a transpose of a fill.
void addCanonicalizations(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  linalg::FillOp::getCanonicalizationPatterns(patterns, context);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::populateFoldTensorEmptyPatterns(patterns,
                                          /*foldSingleUseOnly=*/false);
}

struct PropagateLinalgTransposePass
    : dispatchlab::globalopt::impl::PropagateLinalgTransposePassBase<
          PropagateLinalgTransposePass> {
  using PropagateLinalgTransposePassBase::PropagateLinalgTransposePassBase;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    // Rules then only need to match linalg.transpose.
    specializeTransposes(func);
    if ((!testBubblingOnly &&
         failed(applyPatternsGreedily(func, initialSinking()))) ||
        (!testSinkingOnly &&
         failed(applyPatternsGreedily(func, bubbling(), unbounded()))) ||
        (!testBubblingOnly &&
         failed(applyPatternsGreedily(func, sinking(), unbounded()))))
      return signalPassFailure();
  }

private:
  static GreedyRewriteConfig unbounded() {
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    return config;
  }

  /// Transposes next to named contractions fold into them before reshapes
  /// move: the named op is the more canonical form.
  RewritePatternSet initialSinking() {
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkTransposeThroughExtractSlice>(&getContext());
    patterns.add<SinkTransposeThroughExpandShape>(&getContext(),
                                                  edgeReshapePropagation);
    addNamedContractionRules(patterns);
    addCanonicalizations(patterns);
    patterns.add<SinkTransposeThroughUnaryElementwise>(&getContext(),
                                                       /*benefit=*/2);
    return patterns;
  }

  RewritePatternSet bubbling();
  RewritePatternSet sinking();
};

/// Bubbling: expand_shapes feeding a transpose move up through their
/// producing generic so the transpose can fuse into it.
RewritePatternSet PropagateLinalgTransposePass::bubbling() {
  MLIRContext *context = &getContext();
  RewritePatternSet patterns(context);
  linalg::ControlFusionFn moveExpandUp = [this](OpOperand *operand) {
    Operation *producer = operand->get().getDefiningOp();
    Operation *expand = operand->getOwner();
    auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(producer);
    if (!linalgOp || !linalgOp->hasOneUse() || !isOutsideDispatch(linalgOp) ||
        !isOutsideDispatch(expand) || !isa<tensor::ExpandShapeOp>(expand))
      return false;
    if (!aggressivePropagation && !isa<linalg::GenericOp>(producer))
      return false;
    if (!edgeReshapePropagation &&
        llvm::none_of(expand->getUsers(), [&](Operation *user) {
          return reshapeBlocksFusion(producer, user);
        }))
      return false;
    return expand->hasOneUse() &&
           isa<linalg::TransposeOp>(*expand->user_begin());
  };
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, moveExpandUp);
  patterns.add<FuseTransposeWithProducer>(context, aggressivePropagation,
                                          propagateThroughConv);
  patterns.add<BubbleTransposeThroughCollapseShape>(context,
                                                    edgeReshapePropagation);
  patterns.add<BubbleTransposeThroughUnaryElementwise>(context, /*benefit=*/2);
  patterns.add<ComposeTransposes>(context);
  addCanonicalizations(patterns);
  return patterns;
}

/// Sinking: collapse_shapes of a transpose move down through consuming
/// parallel generics so the transpose can fuse into them.
RewritePatternSet PropagateLinalgTransposePass::sinking() {
  MLIRContext *context = &getContext();
  RewritePatternSet patterns(context);
  linalg::ControlFusionFn moveCollapseDown = [this](OpOperand *operand) {
    Operation *collapse = operand->get().getDefiningOp();
    auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
    if (!isa_and_nonnull<tensor::CollapseShapeOp>(collapse) || !consumer ||
        !isOutsideDispatch(collapse) || !isOutsideDispatch(consumer) ||
        consumer.getNumReductionLoops() != 0)
      return false;
    if (!aggressivePropagation && !isa<linalg::GenericOp>(consumer))
      return false;
    Operation *source = collapse->getOperand(0).getDefiningOp();
    if (!edgeReshapePropagation && !reshapeBlocksFusion(source, consumer))
      return false;
    return isa_and_nonnull<linalg::TransposeOp>(source);
  };
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, moveCollapseDown);
  patterns.add<SinkTransposeThroughExtractSlice, ComposeTransposes>(context);
  patterns.add<SinkTransposeThroughExpandShape>(context,
                                                edgeReshapePropagation);
  patterns.add<FuseTransposeWithConsumer>(context, aggressivePropagation,
                                          propagateThroughConv);
  addNamedContractionRules(patterns);
  addCanonicalizations(patterns);
  patterns.add<SinkTransposeThroughUnaryElementwise>(context, /*benefit=*/2);
  return patterns;
}

} // namespace

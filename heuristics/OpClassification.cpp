//===- OpClassification.cpp - which ops are roots, clones, casts ----------===//

#include "heuristics/OpClassification.h"

#include "compat/EncodingCompatDialect.h"
#include "compat/LinalgExtCompatDialect.h"
#include "heuristics/DispatchDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

namespace dispatchlab {

int64_t getStaticByteSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  Type element = shaped.getElementType();
  int64_t bits;
  if (element.isIntOrFloat())
    bits = element.getIntOrFloatBitWidth();
  else if (element.isIndex())
    bits = 64;
  else if (auto complex = dyn_cast<ComplexType>(element))
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  else
    return 0;
  return shaped.getNumElements() * ((bits + 7) / 8);
}

bool hasSupportedByteSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return true;
  // Up to 16 bytes an element (complex<f64>), counted without overflowing.
  int64_t bytes = 16;
  for (int64_t dim : shaped.getShape()) {
    if (dim != 0 && bytes > kMaxTensorBytes / dim)
      return false;
    bytes *= dim;
  }
  return true;
}

static bool isScalarIntOrFloat(Type type) { return type.isIntOrFloat(); }

// Mirrors IREE's isAttentionMaskGenerator (RegionOpUtils.cpp): the mask is
// big and made from little, so it is recomputed inside the attention.
static bool isAttentionMaskGenerator(Operation *op) {
  return llvm::any_of(op->getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto attention = dyn_cast<linalg_ext::AttentionOp>(user))
      return attention.getMask() == use.get();
    if (auto attention = dyn_cast<linalg_ext::OnlineAttentionOp>(user))
      return attention.getMask() == use.get();
    return false;
  });
}

// Mirrors IREE's isScatterIndicesGenerator (RegionOpUtils.cpp).
static bool isScatterIndicesGenerator(Operation *op) {
  return llvm::any_of(op->getUses(), [](OpOperand &use) {
    auto scatter = dyn_cast<linalg_ext::ScatterOp>(use.getOwner());
    return scatter && scatter.getIndices() == use.get();
  });
}

// Mirrors IREE's isCloneableIntoDispatchOp (RegionOpUtils.cpp); scan users
// are left out (no such op here). `iree_encoding.unset_encoding` is cloned
// like an extract_slice: each consumer dispatch decodes for itself. The
// aggressive flag only adds the attention-mask and scatter-index cases;
// inline-constant-bytes is
// --iree-flow-inline-constants-max-byte-length.
bool isCloneableIntoDispatchOp(Operation *op, const HeuristicOptions &options) {
  Dialect *dialect = op->getDialect();
  if (!isa_and_nonnull<affine::AffineDialect, arith::ArithDialect,
                       complex::ComplexDialect, encoding::EncodingDialect,
                       linalg::LinalgDialect, linalg_ext::LinalgExtDialect,
                       tensor::TensorDialect>(dialect))
    return false;
  if (isa<tensor::InsertSliceOp>(op))
    return false;

  // expand_shape/collapse_shape stay uncloneable, as in IREE (a bufferization
  // TODO there), so a reshape between two ops always splits them. The
  // DispatchLinalgOnTensors of 2022 (dispatch-formation=pr8723) cloned them.
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
    return options.dispatchFormation == DispatchFormation::Pr8723;
  if (isa<affine::AffineApplyOp, arith::IndexCastOp, linalg::FillOp,
          tensor::EmptyOp, tensor::ExtractOp, tensor::ExtractSliceOp,
          complex::CreateOp, encoding::UnsetEncodingOp>(op))
    return true;

  if (isBitExtendOp(op))
    return true;

  if (options.aggressiveFusion &&
      (isAttentionMaskGenerator(op) || isScatterIndicesGenerator(op)))
    return true;

  // A gather is recomputed in each consumer rather than materialized.
  if (isa<linalg_ext::GatherOp>(op))
    return true;

  if (isa<arith::ConstantOp, complex::ConstantOp>(op)) {
    if (options.inlineConstantBytes == 0)
      return false;
    Type type = op->getResult(0).getType();
    if (!isa<ShapedType>(type))
      return true;
    if (auto dense =
            dyn_cast<DenseElementsAttr>(op->getAttrOfType<Attribute>("value")))
      if (dense.isSplat())
        return true;
    int64_t bytes = getStaticByteSize(type);
    return bytes > 0 && bytes <= options.inlineConstantBytes;
  }

  if (isa<arith::ArithDialect>(dialect))
    return llvm::all_of(op->getOperandTypes(), isScalarIntOrFloat) &&
           llvm::all_of(op->getResultTypes(), isScalarIntOrFloat);
  return false;
}

// yield(add(out, mul(a, b))), where a and b are block arguments or casts of
// them: what mmt4d can compute (IREE's hasMatmulLikeBody).
static bool hasMatmulLikeBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Operation *add = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
    return false;
  Value other = add->getOperand(0) == out   ? add->getOperand(1)
                : add->getOperand(1) == out ? add->getOperand(0)
                                            : Value();
  Operation *mul = other ? other.getDefiningOp() : nullptr;
  if (!isa_and_nonnull<arith::MulFOp, arith::MulIOp>(mul))
    return false;
  return llvm::all_of(mul->getOperands(), [](Value factor) {
    if (auto cast = factor.getDefiningOp<CastOpInterface>())
      factor = cast->getOperand(0);
    return isa<BlockArgument>(factor);
  });
}

bool isDataTilingCandidate(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInits() != 1)
    return false;
  auto encoded = [](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type && type.getEncoding();
  };
  if (llvm::any_of(op->getOperands(), encoded) ||
      !linalg::isaContractionOpInterface(linalgOp))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  if (failed(dims) || dims->batch.size() > 1 || dims->m.size() > 1 ||
      dims->n.size() > 1 || dims->k.size() != 1 ||
      (dims->m.empty() && dims->n.empty()))
    return false;
  return hasMatmulLikeBody(linalgOp);
}

bool isWeightPack(Operation *op) {
  auto pack = dyn_cast<linalg::PackOp>(op);
  return pack && isParameter(pack.getSource());
}

bool hasFusableUnpackProducer(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  for (OpOperand &operand : op->getOpOperands()) {
    auto unpack = operand.get().getDefiningOp<linalg::UnPackOp>();
    if (!unpack)
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    bool reducesPackedDim =
        llvm::any_of(unpack.getInnerDimsPos(), [&](int64_t pos) {
          auto dim = dyn_cast<AffineDimExpr>(map.getResult(pos));
          return dim &&
                 linalg::isReductionIterator(iterators[dim.getPosition()]);
        });
    if (!reducesPackedDim)
      return true;
  }
  return false;
}

// Mirrors IREE's isRootLikeOp (FormDispatchRegions.cpp); ops already inside a
// dispatch (scalar dispatches, say) play the role of ops inside
// flow.dispatch.workgroups.
bool isRootLikeOp(Operation *op) {
  if (op->getParentOfType<dispatch::RegionOp>())
    return false;
  if (isBitExtendOp(op))
    return false;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (isa<linalg::GenericOp>(op))
      return linalgOp.getNumReductionLoops() != 0 &&
             !hasFusableUnpackProducer(op);
    return !isa<linalg::FillOp>(op);
  }
  // IREE's LinalgExt ops are TilingInterface ops there: roots, but gather.
  if (isa_and_nonnull<linalg_ext::LinalgExtDialect>(op->getDialect()))
    return !isa<linalg_ext::GatherOp, linalg_ext::YieldOp>(op);
  if (isa<TilingInterface>(op))
    return !isa<tensor::PadOp, tensor::ConcatOp, linalg::PackOp>(op);
  return isa<linalg::UnPackOp>(op);
}

bool isFusionOp(Operation *op) {
  return isa<linalg::LinalgOp, linalg::SoftmaxOp,
             linalg_ext::FusionOpInterface>(op);
}

// Mirrors IREE's isGatherlikeOp (LinalgExt's Utils.cpp): an all-parallel
// generic yielding one value computed from a tensor.extract.
bool isGatherlikeOp(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumLoops() != generic.getNumParallelLoops() ||
      !llvm::hasSingleElement(generic.getRegion()))
    return false;
  Operation *yield = generic.getBody()->getTerminator();
  if (yield->getNumOperands() != 1)
    return false;
  SmallVector<Value> worklist = {yield->getOperand(0)};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != generic.getBody() ||
        !seen.insert(def).second)
      continue;
    if (isa<tensor::ExtractOp>(def))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

// As IREE's FormDispatchRegions: set_encoding has pack semantics and
// unset_encoding unpack semantics.
bool isPackLikeOp(Operation *op) {
  return isa<linalg::PackOp, encoding::SetEncodingOp>(op);
}
bool isUnpackLikeOp(Operation *op) {
  return isa<linalg::UnPackOp, encoding::UnsetEncodingOp>(op);
}

unsigned getNumLoops(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getNumLoops();
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return softmax.getInputOperandType().getRank();
  if (auto fusionOp = dyn_cast<linalg_ext::FusionOpInterface>(op))
    return fusionOp.getLoopIteratorTypes().size();
  return 0;
}

SmallVector<utils::IteratorType> getIteratorTypes(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getIteratorTypesArray();
  if (auto fusionOp = dyn_cast<linalg_ext::FusionOpInterface>(op))
    return fusionOp.getLoopIteratorTypes();
  if (auto tiling = dyn_cast<TilingInterface>(op))
    return tiling.getLoopIteratorTypes();
  return {};
}

SmallVector<int64_t> getStaticLoopRanges(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getStaticLoopRanges();
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return llvm::to_vector(softmax.getInputOperandType().getShape());
  if (auto fusionOp = dyn_cast<linalg_ext::FusionOpInterface>(op))
    return fusionOp.getStaticLoopRanges();
  return {};
}

AffineMap getOperandMap(OpOperand &operand) {
  Operation *op = operand.getOwner();
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getMatchingIndexingMap(&operand);
  if (auto fusionOp = dyn_cast<linalg_ext::FusionOpInterface>(op))
    return fusionOp.getIndexingMapsForOperands()[operand.getOperandNumber()];
  return AffineMap::getMultiDimIdentityMap(getNumLoops(op), op->getContext());
}

AffineMap getResultMap(OpResult result) {
  Operation *op = result.getOwner();
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getIndexingMapMatchingResult(result);
  if (auto fusionOp = dyn_cast<linalg_ext::FusionOpInterface>(op))
    return fusionOp.getIndexingMapsForResults()[result.getResultNumber()];
  return AffineMap::getMultiDimIdentityMap(getNumLoops(op), op->getContext());
}

bool yieldsOnlyI1(Operation *op) {
  return llvm::all_of(op->getResultTypes(), [](Type type) {
    return getElementTypeOrSelf(type).isInteger(1);
  });
}

bool onlyCopies(Operation *op) {
  return op->getRegion(0).front().begin()->hasTrait<OpTrait::IsTerminator>();
}

unsigned getNumFusedOperandValues(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  DenseSet<Value> operands(producer->operand_begin(), producer->operand_end());
  for (OpOperand &operand : fusedOperand->getOwner()->getOpOperands())
    if (&operand != fusedOperand)
      operands.insert(operand.get());
  return operands.size();
}

bool isAllParallel(Operation *op) {
  return llvm::all_of(getIteratorTypes(op), linalg::isParallelIterator);
}

} // namespace dispatchlab

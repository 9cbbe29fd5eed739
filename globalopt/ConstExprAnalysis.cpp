//===- ConstExprAnalysis.cpp - what HoistIntoGlobals may hoist ------------===//

#include "globalopt/ConstExprAnalysis.h"

#include "compat/EncodingCompatDialect.h"
#include "compat/UtilCompatDialect.h"
#include "core/support/WeightArguments.h"
#include "globalopt/BitWidthChange.h"
#include "globalopt/ModelWeights.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace dispatchlab::globalopt {

SetVector<Value> getProducers(Operation *op) {
  SetVector<Value> producers(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), producers);
  return producers;
}

namespace {
/// IREE's isLegalConstExprType: integer, index and float scalars and tensors.
bool isLegalType(Type type) {
  if (auto tensor = dyn_cast<TensorType>(type))
    return tensor.getElementType().isIntOrIndexOrFloat();
  return type.isIntOrIndexOrFloat();
}

/// The host's weights stand for IREE's immutable globals: the importer's,
/// and the values an earlier hoisting computed (packed).
bool isWeightArgument(func::FuncOp function, BlockArgument argument) {
  return isParameter(argument) ||
         function.getArgAttr(argument.getArgNumber(), kPackedAttr);
}

/// IREE's isEligibleConstExpr with the HoistableOpInterface models of
/// UtilExternalModels.cpp: set_encoding is never hoisted.
bool isEligible(Operation *op) {
  if (op->getNumResults() == 0 ||
      isa<util::OptimizationBarrierOp, encoding::SetEncodingOp>(op))
    return false;
  return llvm::all_of(op->getResultTypes(), isLegalType) &&
         isMemoryEffectFree(op);
}

/// IREE's hasOnlyScalarInputs: no tensor read, directly or from above.
bool hasOnlyScalarInputs(linalg::GenericOp generic) {
  if (llvm::any_of(generic.getDpsInputs(), [](Value input) {
        return isa<ShapedType>(input.getType());
      }))
    return false;
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(generic.getRegion(), captured);
  return llvm::none_of(
      captured, [](Value value) { return isa<ShapedType>(value.getType()); });
}

/// IREE's isHoistableConstExprLeaf with the Linalg and tensor models:
/// extending casts, fills, broadcasts and generics of scalars fuse into their
/// consumers; empties, reshapes and slices only hoist inside a larger tree.
/// Scalars stay too: the host's arguments are tensors (they fold anyway).
bool isHoistableLeaf(Operation *op, Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return false;
  if (isa<tensor::EmptyOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
          tensor::ExtractSliceOp>(op))
    return false;
  if (isa<linalg::LinalgOp>(op)) {
    if (isBitExtendOp(op))
      return false;
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic && isa<linalg::FillOp>(op))
      return false;
    if (generic && (hasOnlyScalarInputs(generic) ||
                    linalg::isaBroadcastOpInterface(generic).has_value()))
      return false;
  }
  // Sub-byte integers are cast or packed in some successor.
  auto integer = dyn_cast<IntegerType>(tensor.getElementType());
  return !integer || integer.getWidth() % 8 == 0;
}

/// Bytes a tensor of `type` takes; dynamic dims count as one when `dynamic`
/// is null, else set it.
int64_t getStorageBytes(ShapedType type, bool *dynamic = nullptr) {
  int64_t elements = 1;
  for (int64_t dim : type.getShape()) {
    if (ShapedType::isDynamic(dim)) {
      if (dynamic)
        *dynamic = true;
      continue;
    }
    elements *= dim;
  }
  Type element = type.getElementType();
  int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  return (elements * bits + 7) / 8;
}
} // namespace

ConstExprAnalysis::ConstExprAnalysis(func::FuncOp function,
                                     int64_t maxSizeIncreaseThreshold)
    : function(function), block(&function.front()) {
  analyze(*block);
  decideInvariants(maxSizeIncreaseThreshold);
  // IREE's policy sweeps in def-use order: a value whose consumers are still
  // undecided is kept, and is then cloned with whichever consumer escapes.
  for (Value value : order) {
    ValueInfo &valueInfo = info[value];
    if (valueInfo.decision != Decision::Undecided)
      continue;
    valueInfo.decision =
        hasLegalEscape(value) ? Decision::Hoist : Decision::Keep;
    if (valueInfo.decision == Decision::Hoist)
      hoisted.push_back(value);
  }
}

ConstExprAnalysis::ValueInfo ConstExprAnalysis::makeRoot(Value value) {
  ValueInfo root;
  root.isRoot = true;
  root.roots.insert(value);
  return root;
}

void ConstExprAnalysis::analyze(Block &block) {
  for (BlockArgument argument : function.getArguments())
    if (isWeightArgument(function, argument) && isLegalType(argument.getType()))
      info[argument] = makeRoot(argument);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::ConstantLike>()) {
      if (op.getNumResults() == 1 && isLegalType(op.getResult(0).getType()))
        info[op.getResult(0)] = makeRoot(op.getResult(0));
      continue;
    }
    if (!isEligible(&op))
      continue;
    SetVector<Value> roots;
    bool fromRoots = llvm::all_of(getProducers(&op), [&](Value producer) {
      auto it = info.find(producer);
      if (it == info.end())
        return false;
      roots.insert(it->second.roots.begin(), it->second.roots.end());
      return true;
    });
    if (!fromRoots)
      continue;
    for (Value result : op.getResults()) {
      info[result].roots = roots;
      order.push_back(result);
    }
  }
}

void ConstExprAnalysis::decideInvariants(int64_t maxSizeIncreaseThreshold) {
  for (Value value : order) {
    ValueInfo &valueInfo = info[value];
    if (!isHoistableLeaf(value.getDefiningOp(), value)) {
      valueInfo.decision = Decision::Keep;
      continue;
    }
    // IREE's doesHoistingIncreaseSizeSignificantly.
    int64_t inBytes = 0;
    for (Value root : valueInfo.roots)
      if (auto shaped = dyn_cast<ShapedType>(root.getType()))
        inBytes += getStorageBytes(shaped);
    bool dynamic = false;
    int64_t outBytes =
        getStorageBytes(cast<ShapedType>(value.getType()), &dynamic);
    if (dynamic || outBytes > inBytes + maxSizeIncreaseThreshold)
      valueInfo.decision = Decision::Keep;
  }
}

/// IREE's legal escape: a consumer without results (a return), or one that
/// stays in the function (not a constant expression, or kept).
bool ConstExprAnalysis::hasLegalEscape(Value value) const {
  for (Operation *user : value.getUsers()) {
    Operation *consumer = block->findAncestorOpInBlock(*user);
    if (!consumer || consumer->getNumResults() == 0)
      return true;
    auto it = info.find(consumer->getResult(0));
    if (it == info.end() || it->second.decision == Decision::Keep)
      return true;
  }
  return false;
}

} // namespace dispatchlab::globalopt

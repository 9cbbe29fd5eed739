//===- WidenLowPrecisionFloats.cpp - an f32 twin of an f16 model ----------===//

#include "core/codegen/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace dispatchlab {
#define GEN_PASS_DEF_WIDENLOWPRECISIONFLOATSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

bool isNarrowFloat(Type type) { return isa<Float16Type, BFloat16Type>(type); }

Type widen(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (isNarrowFloat(type))
    return f32;
  if (auto shaped = dyn_cast<ShapedType>(type);
      shaped && isNarrowFloat(shaped.getElementType()))
    return shaped.clone(f32);
  if (auto function = dyn_cast<FunctionType>(type))
    return FunctionType::get(type.getContext(),
                             llvm::map_to_vector(function.getInputs(), widen),
                             llvm::map_to_vector(function.getResults(), widen));
  return type;
}

APInt toF32Bits(const APFloat &value) {
  APFloat wide = value;
  bool losesInfo = false;
  // f16 and bf16 values are exact in f32.
  wide.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return wide.bitcastToAPInt();
}

Attribute widen(Attribute attr) {
  if (auto scalar = dyn_cast<FloatAttr>(attr);
      scalar && isNarrowFloat(scalar.getType()))
    return FloatAttr::get(
        widen(scalar.getType()),
        APFloat(APFloat::IEEEsingle(), toF32Bits(scalar.getValue())));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr);
      dense && isNarrowFloat(dense.getElementType()))
    return dense.mapValues(Float32Type::get(attr.getContext()), toF32Bits);
  if (auto type = dyn_cast<TypeAttr>(attr))
    return TypeAttr::get(widen(type.getValue()));
  return attr;
}

/// Retypes `op`'s results, its regions' block arguments and its attributes.
LogicalResult widenOp(Operation *op) {
  if (auto bitcast = dyn_cast<arith::BitcastOp>(op);
      bitcast && (isNarrowFloat(getElementTypeOrSelf(bitcast.getIn())) ||
                  isNarrowFloat(getElementTypeOrSelf(bitcast.getOut()))))
    return op->emitError("a bitcast of a narrow float cannot be widened");
  for (OpResult result : op->getResults())
    result.setType(widen(result.getType()));
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        argument.setType(widen(argument.getType()));
  for (NamedAttribute named : op->getAttrs())
    if (Attribute wide = widen(named.getValue()); wide != named.getValue())
      op->setAttr(named.getName(), wide);
  return success();
}

/// An extf or truncf between f32 and the narrow type is a no-op once both
/// sides are f32.
bool isIdentityCast(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
         op->getOperand(0).getType() == op->getResult(0).getType();
}

struct WidenLowPrecisionFloatsPass
    : impl::WidenLowPrecisionFloatsPassBase<WidenLowPrecisionFloatsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Function types are attributes of the function ops: widened with them.
    WalkResult walk = module.walk([](Operation *op) {
      return failed(widenOp(op)) ? WalkResult::interrupt()
                                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    SmallVector<Operation *> identities;
    module.walk([&](Operation *op) {
      if (isIdentityCast(op))
        identities.push_back(op);
    });
    for (Operation *op : identities) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
  }
};

} // namespace
} // namespace dispatchlab

//===- ConvertUtilGlobals.cpp - IREE's weights as ours --------------------===//
//
// IREE holds a model's weights and constants in util.globals; the model
// loader gives them the form the ONNX importer gives weights, so that
// formation, const-expr hoisting and `run` treat both alike.
//
//===----------------------------------------------------------------------===//

#include "core/pipeline/ConvertUtilGlobals.h"

#include "compat/FlowCompatDialect.h"
#include "compat/UtilCompatDialect.h"
#include "core/support/WeightArguments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace dispatchlab {

using util::GlobalAddressOp;
using util::GlobalLoadIndirectOp;
using util::GlobalLoadOp;
using util::GlobalOp;
using util::GlobalStoreOp;
using util::InitializerOp;

namespace {
/// `function`'s argument for the weight `name` of `type`: the one tagged so,
/// else a new last argument tagged so.
Value getWeightArgument(func::FuncOp function, StringRef name, Type type,
                        Location loc) {
  unsigned count = function.getNumArguments();
  for (unsigned index = 0; index < count; ++index)
    if (auto tag = function.getArgAttrOfType<StringAttr>(index, kParameterAttr))
      if (tag.getValue() == name &&
          function.getArgument(index).getType() == type)
        return function.getArgument(index);
  Builder builder(function);
  (void)function.insertArgument(
      count, type,
      builder.getDictionaryAttr(
          builder.getNamedAttr(kParameterAttr, builder.getStringAttr(name))),
      loc);
  return function.getArgument(count);
}

/// The value a load of `global` reads in `function`: its constant, or the
/// function's argument for it (tagged as the weight named after the global).
Value getGlobalValue(func::FuncOp function, GlobalOp global,
                     GlobalLoadOp load) {
  auto value = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
  if (value && value.getType() == load.getType()) {
    OpBuilder builder(load);
    return arith::ConstantOp::create(builder, load.getLoc(), value);
  }
  return getWeightArgument(function, global.getSymName(), load.getType(),
                           global.getLoc());
}

/// flow.tensor.constants become constants of their elements, or the
/// argument of their function for the parameter they name (tagged with its
/// key).
LogicalResult convertTensorConstants(ModuleOp module) {
  SmallVector<flow::TensorConstantOp> constants;
  module.walk([&](flow::TensorConstantOp op) { constants.push_back(op); });
  for (flow::TensorConstantOp op : constants) {
    Value value;
    if (auto elements = dyn_cast<ElementsAttr>(op.getValue())) {
      OpBuilder builder(op);
      value = arith::ConstantOp::create(builder, op.getLoc(), elements);
    } else if (auto parameter =
                   dyn_cast<flow::ParameterNamedAttr>(op.getValue())) {
      auto function = op->getParentOfType<func::FuncOp>();
      if (!function)
        return emitError(op.getLoc(),
                         "flow.tensor.constant outside a function");
      value = getWeightArgument(function, parameter.getKey().getValue(),
                                op.getType(), op.getLoc());
    } else {
      return emitError(op.getLoc(), "flow.tensor.constant of ")
             << op.getValue() << ": expected elements or a parameter";
    }
    op.replaceAllUsesWith(value);
    op.erase();
  }
  return success();
}
} // namespace

namespace {
/// Clones `initializer`'s computation to the start of `function`; returns
/// the mapping of its values to the clones.
IRMapping cloneInitializer(InitializerOp initializer, func::FuncOp function) {
  IRMapping mapping;
  OpBuilder builder = OpBuilder::atBlockBegin(&function.front());
  for (Operation &op : initializer.getBody().front())
    if (!isa<GlobalStoreOp, util::ReturnOp>(op))
      builder.clone(op, mapping);
  return mapping;
}

/// IREE's older frontends read globals through references
/// (util.global.address, util.global.load.indirect): each such load becomes
/// the direct load of the global its reference names.
LogicalResult resolveIndirectLoads(ModuleOp module) {
  SmallVector<GlobalLoadIndirectOp> loads;
  module.walk([&](GlobalLoadIndirectOp load) { loads.push_back(load); });
  for (GlobalLoadIndirectOp load : loads) {
    auto address = load.getSource().getDefiningOp<GlobalAddressOp>();
    if (!address)
      return emitError(load.getLoc(), "util.global.load.indirect of a "
                                      "reference not from util.global.address");
    OpBuilder builder(load);
    auto direct = GlobalLoadOp::create(builder, load.getLoc(), load.getType(),
                                       address.getGlobalAttr(), UnitAttr());
    load.replaceAllUsesWith(direct.getResult());
    load.erase();
  }
  SmallVector<GlobalAddressOp> addresses;
  module.walk([&](GlobalAddressOp address) { addresses.push_back(address); });
  for (GlobalAddressOp address : addresses) {
    if (!address.use_empty())
      return emitError(address.getLoc(), "util.global.address of ")
             << address.getGlobalAttr()
             << " is used other than by util.global.load.indirect";
    address.erase();
  }
  return success();
}

/// IREE's initializers (HoistIntoGlobals' output) run their computation in
/// each function that loads what they store, before that function's own
/// ops: the program as it was before the hoisting, which `--pipeline=iree`
/// hoists again. An initializer loading another's global gets it the same
/// way, in later rounds.
LogicalResult inlineInitializers(ModuleOp module) {
  llvm::StringMap<std::pair<InitializerOp, Value>> stored;
  SmallVector<InitializerOp> initializers(module.getOps<InitializerOp>());
  for (InitializerOp initializer : initializers)
    for (auto store : initializer.getBody().front().getOps<GlobalStoreOp>())
      stored[store.getGlobal()] = {initializer, store.getValue()};
  for (size_t round = 0; round <= initializers.size(); ++round) {
    SmallVector<GlobalLoadOp> loads;
    module.walk([&](GlobalLoadOp load) {
      if (stored.contains(load.getGlobal()) &&
          !load->getParentOfType<InitializerOp>())
        loads.push_back(load);
    });
    if (loads.empty()) {
      for (InitializerOp initializer : initializers)
        initializer.erase();
      return success();
    }
    DenseMap<std::pair<Operation *, Operation *>, IRMapping> clones;
    for (GlobalLoadOp load : loads) {
      auto function = load->getParentOfType<func::FuncOp>();
      if (!function)
        return emitError(load.getLoc(), "util.global.load of ")
               << load.getGlobalAttr() << " outside a function";
      auto [initializer, value] = stored.lookup(load.getGlobal());
      auto key =
          std::make_pair(function.getOperation(), initializer.getOperation());
      if (!clones.contains(key))
        clones[key] = cloneInitializer(initializer, function);
      load.replaceAllUsesWith(clones[key].lookup(value));
      load.erase();
    }
  }
  return emitError(initializers.front().getLoc(),
                   "util.initializers that read their own globals");
}
} // namespace

LogicalResult convertUtilGlobals(ModuleOp module) {
  if (failed(resolveIndirectLoads(module)) ||
      failed(inlineInitializers(module)) ||
      failed(convertTensorConstants(module)))
    return failure();
  SmallVector<GlobalOp> globals(module.getOps<GlobalOp>());
  for (GlobalOp global : globals)
    if (global.getIsMutable())
      return emitError(global.getLoc(), "mutable util.global @")
             << global.getSymName()
             << " is not supported: dispatchlab reads immutable weights and "
                "constants only";
  SmallVector<GlobalLoadOp> loads;
  module.walk([&](GlobalLoadOp load) { loads.push_back(load); });
  for (GlobalLoadOp load : loads) {
    auto global = SymbolTable::lookupNearestSymbolFrom<GlobalOp>(
        load, load.getGlobalAttr());
    auto function = load->getParentOfType<func::FuncOp>();
    if (!global || !function)
      return emitError(load.getLoc(), "util.global.load of ")
             << load.getGlobalAttr()
             << ": no such util.global, or not inside a function";
    load.replaceAllUsesWith(getGlobalValue(function, global, load));
    load.erase();
  }
  for (GlobalOp global : globals)
    global.erase();
  return success();
}

} // namespace dispatchlab

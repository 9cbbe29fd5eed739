//===- ConvertUtilGlobals.cpp - IREE's weights as ours --------------------===//
//
// IREE holds a model's weights and constants in util.globals; the model
// loader gives them the form the ONNX importer gives weights, so that
// formation, const-expr hoisting and `run` treat both alike.
//
//===----------------------------------------------------------------------===//

#include "core/pipeline/ConvertUtilGlobals.h"

#include "compat/UtilCompatDialect.h"
#include "core/support/WeightArguments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace dispatchlab {

using util::GlobalLoadOp;
using util::GlobalOp;
using util::GlobalStoreOp;
using util::InitializerOp;

namespace {
/// The value a load of `global` reads in `function`: its constant, or the
/// function's argument for it (added on first use, tagged as the weight
/// named after the global).
Value getGlobalValue(func::FuncOp function, GlobalOp global,
                     GlobalLoadOp load) {
  auto value = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
  if (value && value.getType() == load.getType()) {
    OpBuilder builder(load);
    return arith::ConstantOp::create(builder, load.getLoc(), value);
  }
  unsigned count = function.getNumArguments();
  for (unsigned index = 0; index < count; ++index)
    if (auto tag = function.getArgAttrOfType<StringAttr>(index, kParameterAttr))
      if (tag.getValue() == global.getSymName() &&
          function.getArgument(index).getType() == load.getType())
        return function.getArgument(index);
  Builder builder(function);
  (void)function.insertArgument(
      count, load.getType(),
      builder.getDictionaryAttr(builder.getNamedAttr(
          kParameterAttr, builder.getStringAttr(global.getSymName()))),
      global.getLoc());
  return function.getArgument(count);
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
  if (failed(inlineInitializers(module)))
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

//===- InstrumentDispatchCalls.cpp - hooks around dispatch calls ----------===//

#include "core/codegen/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace dispatchlab {
#define GEN_PASS_DEF_INSTRUMENTDISPATCHCALLSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The external `(i64) -> ()` hook `name`, declared at the module's end when
/// missing. Fails when the symbol exists with another type.
FailureOr<func::FuncOp> getOrDeclareHook(ModuleOp module, StringRef name,
                                         SymbolTable &symbols) {
  OpBuilder builder(module.getBodyRegion());
  builder.setInsertionPointToEnd(module.getBody());
  auto type = builder.getFunctionType({builder.getI64Type()}, {});
  if (auto existing = symbols.lookup<func::FuncOp>(name)) {
    if (existing.getFunctionType() != type || !existing.isExternal())
      return existing.emitOpError("is not the declaration ")
             << type << " that dispatch profiling calls";
    return existing;
  }
  if (symbols.lookup(name))
    return module.emitError("symbol @") << name << " is no func.func";
  auto hook = func::FuncOp::create(builder, module.getLoc(), name, type);
  hook.setPrivate();
  symbols.insert(hook);
  return hook;
}

struct InstrumentDispatchCallsPass
    : impl::InstrumentDispatchCallsPassBase<InstrumentDispatchCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    FailureOr<func::FuncOp> begin =
        getOrDeclareHook(module, kDispatchBeginFunction, symbols);
    FailureOr<func::FuncOp> end =
        getOrDeclareHook(module, kDispatchEndFunction, symbols);
    if (failed(begin) || failed(end))
      return signalPassFailure();

    SmallVector<Attribute> callees;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function->hasAttr(kDispatchFunctionAttr))
        continue;
      function.walk([&](func::CallOp call) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee || !callee->hasAttr(kDispatchFunctionAttr))
          return;
        OpBuilder builder(call);
        Value index = arith::ConstantIntOp::create(
            builder, call.getLoc(), builder.getI64Type(), callees.size());
        func::CallOp::create(builder, call.getLoc(), *begin, index);
        builder.setInsertionPointAfter(call);
        func::CallOp::create(builder, call.getLoc(), *end, index);
        callees.push_back(call.getCalleeAttr().getAttr());
      });
    }
    module->setAttr(kDispatchCallsAttr,
                    ArrayAttr::get(module.getContext(), callees));
  }
};

} // namespace
} // namespace dispatchlab

//===- DeduplicateDispatches.cpp - one function per distinct dispatch -----===//

#include "core/codegen/Passes.h"

#include "mlir/IR/AsmState.h"
#include "llvm/ADT/StringMap.h"

namespace dispatchlab {
#define GEN_PASS_DEF_DEDUPLICATEDISPATCHESPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The function's type and body as text, names numbered within the
/// function: equal for two dispatches exactly when they compute the same
/// thing (locations and the symbol name are not part of it).
std::string getBodyKey(func::FuncOp function) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << function.getFunctionType() << '\n';
  AsmState state(function);
  for (Block &block : function.getBody())
    for (Operation &op : block) {
      op.print(os, state);
      os << '\n';
    }
  return key;
}

struct DeduplicateDispatchesPass
    : impl::DeduplicateDispatchesPassBase<DeduplicateDispatchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<func::FuncOp> firstWithBody;
    DenseMap<StringAttr, StringAttr> replacement;
    SmallVector<func::FuncOp> duplicates;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!function->hasAttr(kDispatchFunctionAttr) || function.isExternal())
        continue;
      auto [first, inserted] =
          firstWithBody.try_emplace(getBodyKey(function), function);
      if (inserted)
        continue;
      replacement[function.getSymNameAttr()] = first->second.getSymNameAttr();
      duplicates.push_back(function);
    }
    module.walk([&](func::CallOp call) {
      if (StringAttr target =
              replacement.lookup(call.getCalleeAttr().getAttr()))
        call.setCallee(target);
    });
    for (func::FuncOp function : duplicates)
      function.erase();
  }
};

} // namespace
} // namespace dispatchlab

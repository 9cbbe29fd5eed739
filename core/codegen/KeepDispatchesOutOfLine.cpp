//===- KeepDispatchesOutOfLine.cpp - dispatches stay calls ----------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace dispatchlab {
#define GEN_PASS_DEF_KEEPDISPATCHESOUTOFLINEPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

// Mirrors the executable boundary of IREE's HAL: a dispatch is called by
// the host, never inlined into it.
struct KeepDispatchesOutOfLinePass
    : impl::KeepDispatchesOutOfLinePassBase<KeepDispatchesOutOfLinePass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<LLVM::LLVMFuncOp>())
      if (function->hasAttr(kDispatchFunctionAttr) && !function.isExternal())
        function.setNoInline(true);
  }
};

} // namespace
} // namespace dispatchlab

//===- HoistStaticAllocas.cpp - stack buffers into the entry block --------===//
//
// convert-scf-to-cf lowers a loop body's allocas as LLVM allocas inside the
// loop, which LLVM allocates anew every iteration: every tile took fresh
// stack (a BERT softmax 1.5 MB a call). Passes.td says when an alloca moves;
// IREE's LLVMCPU pipeline does the same (HoistStaticallyBoundAllocations).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace dispatchlab {
#define GEN_PASS_DEF_HOISTSTATICALLOCASPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// Whether every op between `alloca` and `function` runs its regions on the
/// thread that reached it.
bool isUnderSequentialControlFlow(memref::AllocaOp alloca,
                                  func::FuncOp function) {
  for (Operation *parent = alloca->getParentOp(); parent != function;
       parent = parent->getParentOp())
    if (!isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp, memref::AllocaScopeOp>(parent))
      return false;
  return true;
}

struct HoistStaticAllocasPass
    : impl::HoistStaticAllocasPassBase<HoistStaticAllocasPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    Block &entry = function.getBody().front();
    SmallVector<memref::AllocaOp> allocas;
    function.walk([&](memref::AllocaOp alloca) {
      if (alloca->getBlock() != &entry && alloca.getType().hasStaticShape() &&
          alloca->getNumOperands() == 0 &&
          isUnderSequentialControlFlow(alloca, function))
        allocas.push_back(alloca);
    });
    // In program order, before the function's first op.
    Operation *first = &entry.front();
    for (memref::AllocaOp alloca : allocas)
      alloca->moveBefore(first);
  }
};

} // namespace
} // namespace dispatchlab

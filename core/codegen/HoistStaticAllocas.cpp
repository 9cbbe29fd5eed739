//===- HoistStaticAllocas.cpp - stack buffers into the entry block --------===//
//
// Upstream MLIR makes scf.for an automatic allocation scope, so
// canonicalization inlines the memref.alloca_scope of a loop body, but
// convert-scf-to-cf does not free the body's allocas per iteration: they
// become LLVM allocas outside the entry block, which LLVM treats as dynamic.
// Each iteration then moved the stack pointer further down. A softmax tile's
// two 4 KB temporaries took 8 KB of fresh stack per tile, 1.5 MB per call in
// BERT's attention, written to lines that were no longer in cache. LLVM also
// promotes only entry-block allocas to registers (SROA, mem2reg). A
// static-shaped alloca under sequential control flow only moves to the entry
// block of its function, as IREE's LLVMCPU pipeline does
// (HoistStaticallyBoundAllocations); one under a parallel loop or an async
// region would be shared between threads and stays.
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

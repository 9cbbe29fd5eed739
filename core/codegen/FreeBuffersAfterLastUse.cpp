//===- FreeBuffersAfterLastUse.cpp - deallocs right after the last use ----===//

#include "core/codegen/BufferEscape.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FREEBUFFERSAFTERLASTUSEPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The last op of `dealloc`'s block that uses its buffer or a view of it
/// (a use nested in an op counts at that op), other than `dealloc`; null
/// when the buffer may escape or is used outside the block.
Operation *findLastUse(memref::DeallocOp dealloc,
                       BufferViewFlowAnalysis &aliases) {
  Block *block = dealloc->getBlock();
  Operation *last = dealloc.getMemref().getDefiningOp();
  for (Value alias : aliases.resolve(dealloc.getMemref()))
    for (Operation *user : alias.getUsers()) {
      if (user == dealloc.getOperation())
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || mayLetBufferEscape(user))
        return nullptr;
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  return last;
}

struct FreeBuffersAfterLastUsePass
    : impl::FreeBuffersAfterLastUsePassBase<FreeBuffersAfterLastUsePass> {
  void runOnOperation() override {
    BufferViewFlowAnalysis aliases(getOperation());
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp dealloc) {
      auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
      if (alloc && alloc->getBlock() == dealloc->getBlock())
        deallocs.push_back(dealloc);
    });
    for (memref::DeallocOp dealloc : deallocs)
      if (Operation *last = findLastUse(dealloc, aliases))
        if (last->isBeforeInBlock(dealloc))
          dealloc->moveAfter(last);
  }
};

} // namespace
} // namespace dispatchlab

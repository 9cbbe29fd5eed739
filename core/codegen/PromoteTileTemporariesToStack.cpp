//===- PromoteTileTemporariesToStack.cpp - tile buffers on the stack ------===//

#include "core/codegen/BufferEscape.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {
#define GEN_PASS_DEF_PROMOTETILETEMPORARIESTOSTACKPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// Whether `alloc` is a temporary of one tile: a static buffer of at most
/// `maxBytes` in a loop body whose every use, through views, stays in that
/// body and is no return, terminator or op producing other memrefs.
bool isTileTemporary(memref::AllocOp alloc, int64_t maxBytes,
                     BufferViewFlowAnalysis &aliases) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat() ||
      type.getNumElements() * type.getElementTypeBitWidth() > maxBytes * 8)
    return false;
  Operation *parent = alloc->getParentOp();
  if (!isa<scf::ForOp, scf::ParallelOp, memref::AllocaScopeOp>(parent))
    return false;
  Block *block = alloc->getBlock();
  for (Value alias : aliases.resolve(alloc.getResult()))
    for (Operation *user : alias.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor->hasTrait<OpTrait::IsTerminator>() ||
          mayLetBufferEscape(user))
        return false;
    }
  return true;
}

/// Moves the ops from `first` to the end of its block (terminator excluded)
/// into a memref.alloca_scope, so that stack memory allocated in them is
/// released at the end of each iteration.
void wrapRestOfBlockInAllocaScope(IRRewriter &rewriter, Operation *first) {
  Block *block = first->getBlock();
  Operation *terminator = block->getTerminator();
  SmallVector<Operation *> moved;
  for (Operation *op = first; op != terminator; op = op->getNextNode())
    moved.push_back(op);
  llvm::SmallPtrSet<Operation *, 16> inside(moved.begin(), moved.end());
  SmallVector<Value> escaping;
  for (Operation *op : moved)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(block->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);

  rewriter.setInsertionPoint(first);
  auto scope = memref::AllocaScopeOp::create(rewriter, first->getLoc(),
                                             ValueRange(escaping).getTypes());
  Block *body = rewriter.createBlock(&scope.getBodyRegion());
  for (Operation *op : moved)
    op->moveBefore(body, body->end());
  rewriter.setInsertionPointToEnd(body);
  memref::AllocaScopeReturnOp::create(rewriter, first->getLoc(), escaping);
  for (auto [value, result] : llvm::zip(escaping, scope.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return use.getOwner()->getBlock() == block;
    });
}

struct PromoteTileTemporariesToStackPass
    : impl::PromoteTileTemporariesToStackPassBase<
          PromoteTileTemporariesToStackPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr("dispatchlab.dispatch"))
      return;
    BufferViewFlowAnalysis aliases(func);
    SmallVector<memref::AllocOp> temporaries;
    func.walk([&](memref::AllocOp alloc) {
      if (isTileTemporary(alloc, maxBytes, aliases))
        temporaries.push_back(alloc);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocOp alloc : temporaries) {
      if (!isa<memref::AllocaScopeOp>(alloc->getParentOp()))
        wrapRestOfBlockInAllocaScope(rewriter, alloc);
      rewriter.setInsertionPoint(alloc);
      rewriter.replaceOpWithNewOp<memref::AllocaOp>(alloc, alloc.getType(),
                                                    alloc.getAlignmentAttr());
    }
  }
};

} // namespace
} // namespace dispatchlab

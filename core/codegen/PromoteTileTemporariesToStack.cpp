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
      rewriter.setInsertionPoint(alloc);
      rewriter.replaceOpWithNewOp<memref::AllocaOp>(alloc, alloc.getType(),
                                                    alloc.getAlignmentAttr());
    }
  }
};

} // namespace
} // namespace dispatchlab

//===- FormScalarDispatches.cpp - dispatches for scalar compute -----------===//
//
// Mirrors IREE's FormScalarDispatches pass: Linalg/tensor compute on
// scalars or single-element tensors gets its own dispatch before
// FormDispatchRegions runs, so those ops are invisible to it.
//
//===----------------------------------------------------------------------===//

#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FORMSCALARDISPATCHESPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

// IREE's workload limit: scalars or static tensors of at most one element.
static bool isScalarSized(Type type) {
  if (type.isIntOrIndexOrFloat())
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() <= 1;
}

// Mirrors IREE's isComputeOperation: Linalg ops and tensor ops other than
// metadata-only and layout ops.
static bool isComputeOp(Operation *op) {
  if (isa_and_nonnull<linalg::LinalgDialect>(op->getDialect()))
    return !isa<linalg::PackOp, linalg::UnPackOp>(op);
  if (isa_and_nonnull<tensor::TensorDialect>(op->getDialect()))
    return !isa<tensor::CastOp, tensor::CollapseShapeOp, tensor::EmptyOp,
                tensor::ExpandShapeOp>(op);
  return false;
}

// Mirrors IREE's isScalarOperation. Cloneable ops (fills, extracts, ...) are
// left to be cloned into their users.
static bool isScalarOp(Operation *op) {
  return isComputeOp(op) &&
         llvm::all_of(op->getOperandTypes(), isScalarSized) &&
         llvm::all_of(op->getResultTypes(), isScalarSized) &&
         !isCloneableIntoDispatchOp(op, HeuristicOptions{});
}

// Mirrors IREE's computeSliceToMoveIntoDispatch: scalar ops of the root's
// block whose users are all already assigned. As in IREE the filter also
// applies to `root` itself, so the slice is empty unless every user of the
// root is already in some scalar dispatch.
static SetVector<Operation *>
getScalarSlice(Operation *root,
               const DenseMap<Operation *, Operation *> &owner) {
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) {
    return !owner.count(op) && op->getBlock() == root->getBlock() &&
           isScalarOp(op) && llvm::all_of(op->getUsers(), [&](Operation *user) {
             return owner.count(user);
           });
  };
  SetVector<Operation *> slice;
  (void)getBackwardSlice(root, &slice, options);
  return slice;
}

namespace {
struct FormScalarDispatchesPass
    : public dispatchlab::impl::FormScalarDispatchesPassBase<
          FormScalarDispatchesPass> {
  using FormScalarDispatchesPassBase::FormScalarDispatchesPassBase;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<SmallVector<Operation *>> groups;
    DenseMap<Operation *, Operation *> owner;

    // Only ops directly in the function body, visited last to first.
    Block &entry = func.getFunctionBody().front();
    for (Operation &opRef : llvm::reverse(entry)) {
      Operation *root = &opRef;
      if (owner.count(root) || !isScalarOp(root))
        continue;
      SetVector<Operation *> group = getScalarSlice(root, owner);
      for (Operation *op : group)
        owner[op] = root;

      // Mirrors IREE's horizontal step: earlier independent scalar roots
      // join, until an op some skipped op depends on is reached.
      DenseSet<Operation *> blocked;
      for (Operation *prev = root->getPrevNode(); prev;
           prev = prev->getPrevNode()) {
        if (blocked.contains(prev))
          break;
        if (owner.count(prev))
          continue;
        if (!isScalarOp(prev)) {
          if (group.contains(prev))
            continue;
          auto block = [&](Value value) {
            if (Operation *def = value.getDefiningOp())
              blocked.insert(def);
          };
          llvm::for_each(prev->getOperands(), block);
          visitUsedValuesDefinedAbove(
              prev->getRegions(), [&](OpOperand *use) { block(use->get()); });
          continue;
        }
        group.insert(prev);
        owner[prev] = root;
        for (Operation *op : getScalarSlice(prev, owner)) {
          owner[op] = root;
          group.insert(op);
        }
      }
      group.insert(root);
      groups.push_back(group.takeVector());
    }

    IRRewriter rewriter(&getContext());
    for (ArrayRef<Operation *> group : groups) {
      FailureOr<dispatch::RegionOp> region =
          wrapOpsInDispatchRegion(rewriter, group);
      if (failed(region)) {
        group.back()->emitOpError("cannot form a scalar dispatch around op");
        return signalPassFailure();
      }
      dispatch::DispatchDialect::setKindAttr(*region, "scalar");
    }
  }
};
} // namespace

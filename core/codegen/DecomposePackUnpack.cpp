//===- DecomposePackUnpack.cpp - packs left untiled to plain tensor ops ---===//
//
// A pack or unpack that no tile loop vectorized (the initializer's weight
// packs, a tile with a dynamic boundary, --codegen=loops) becomes what it
// means in plain tensor ops, which bufferize and lower to loops: a pack is
// a pad, an expand_shape and a transpose; an unpack a transpose, a
// collapse_shape and a slice (upstream's lowerPack and lowerUnPack).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace dispatchlab {
#define GEN_PASS_DEF_DECOMPOSEPACKUNPACKPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

struct DecomposePackUnpackPass
    : impl::DecomposePackUnpackPassBase<DecomposePackUnpackPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      bool lowered =
          isa<linalg::PackOp>(op)
              ? succeeded(linalg::lowerPack(rewriter, cast<linalg::PackOp>(op)))
              : succeeded(
                    linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)));
      if (!lowered) {
        op->emitOpError("could not be lowered to plain tensor ops");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace dispatchlab

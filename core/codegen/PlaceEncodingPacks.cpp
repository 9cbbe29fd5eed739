//===- PlaceEncodingPacks.cpp - where packs between dispatches run --------===//
//
// A set_encoding left between dispatches is, once materialized, a
// linalg.pack in the host function. IREE runs such an encode where the
// data comes from: one of a weight is const-evaluated into a global
// (HoistIntoGlobals), any other becomes a dispatch of its own (Stream's
// encoding dispatches). Here those are the host's initializer and a
// dispatch.region.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/CompileStats.h"
#include "core/codegen/ParameterInitializer.h"
#include "core/codegen/Passes.h"
#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

namespace dispatchlab {
#define GEN_PASS_DEF_PLACEENCODINGPACKSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The ops `pack` needs besides its source, cloned next to it: its
/// destination and padding value.
SmallVector<Operation *> getPackOperandOps(linalg::PackOp pack) {
  SmallVector<Operation *> ops;
  for (Value operand : pack->getOperands())
    if (operand != pack.getSource())
      if (Operation *def = operand.getDefiningOp())
        ops.push_back(def);
  return ops;
}

/// Packs `weight` in the initializer instead; the host reads the result.
void packInInitializer(RewriterBase &rewriter, ParameterInitializer &init,
                       linalg::PackOp pack) {
  auto weight = cast<BlockArgument>(pack.getSource());
  OpBuilder builder = init.getBuilder();
  IRMapping mapping;
  mapping.map(weight, init.getArgument(weight));
  for (Operation *op : getPackOperandOps(pack))
    builder.clone(*op, mapping);
  Operation *packed = builder.clone(*pack, mapping);
  BlockArgument hostPacked = init.addResult(packed->getResult(0));
  rewriter.replaceOp(pack, hostPacked);
}

/// Wraps `pack` in a dispatch of its own, with its destination and padding
/// value.
LogicalResult packInDispatch(RewriterBase &rewriter, linalg::PackOp pack) {
  FailureOr<dispatch::RegionOp> region =
      wrapOpsInDispatchRegion(rewriter, {pack});
  if (failed(region))
    return pack.emitOpError("could not be given a dispatch of its own");
  (*region)->setAttr(kEncodingDispatchAttr, rewriter.getUnitAttr());
  rewriter.setInsertionPoint(pack);
  for (Operation *op : getPackOperandOps(pack)) {
    Operation *copy = rewriter.clone(*op);
    rewriter.replaceUsesWithIf(
        op->getResults(), copy->getResults(),
        [&](OpOperand &use) { return use.getOwner() == pack; });
    if (op->use_empty())
      rewriter.eraseOp(op);
  }
  return success();
}

struct PlaceEncodingPacksPass
    : impl::PlaceEncodingPacksPassBase<PlaceEncodingPacksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp host = getHostFunction(module);
    if (!host)
      return;
    SmallVector<linalg::PackOp> packs(host.front().getOps<linalg::PackOp>());
    if (packs.empty())
      return;
    IRRewriter rewriter(&getContext());
    ParameterInitializer init(module, host);
    for (linalg::PackOp pack : packs) {
      if (isParameter(pack.getSource())) {
        packInInitializer(rewriter, init, pack);
        continue;
      }
      if (failed(packInDispatch(rewriter, pack)))
        return signalPassFailure();
    }
    // Destinations and padding values of packs moved away.
    for (Operation &op : llvm::make_early_inc_range(host.front()))
      if (isa<tensor::EmptyOp, arith::ConstantOp>(op) && op.use_empty())
        rewriter.eraseOp(&op);
  }
};

} // namespace
} // namespace dispatchlab

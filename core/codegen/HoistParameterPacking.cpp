//===- HoistParameterPacking.cpp - weight layouts in an initializer -------===//
//
// Moves the weight transposes of TransposeWeights into the host's
// initializer (ParameterInitializer.h says why).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/ParameterInitializer.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace dispatchlab {
#define GEN_PASS_DEF_HOISTPARAMETERPACKINGPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// A transpose inside a dispatch of a weight the host passes in: its input
/// is an argument of the dispatch that every call binds to a parameter of
/// the host or a reshape or slice of one.
struct HoistableTranspose {
  linalg::TransposeOp transpose;
  func::CallOp call;
  func::FuncOp callee;
  unsigned argument;
};

struct HoistParameterPackingPass
    : impl::HoistParameterPackingPassBase<HoistParameterPackingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp host = getHostFunction(module);
    if (!host)
      return;

    SmallVector<HoistableTranspose> hoistable;
    forEachSoleDispatchCall(
        module, host, [&](func::CallOp call, func::FuncOp callee) {
          callee.walk([&](linalg::TransposeOp transpose) {
            auto input = dyn_cast<BlockArgument>(transpose.getInput());
            if (!input || input.getOwner() != &callee.front() ||
                !transpose.getInit().getDefiningOp<tensor::EmptyOp>() ||
                !getParameterView(call.getOperand(input.getArgNumber())))
              return;
            hoistable.push_back(
                {transpose, call, callee, input.getArgNumber()});
          });
        });
    if (hoistable.empty())
      return;

    // One packed layout per weight and permutation, whichever dispatches
    // read it.
    ParameterInitializer initializer(module, host);
    DenseMap<std::pair<Value, Attribute>, BlockArgument> packed;
    for (HoistableTranspose &item : hoistable) {
      Value weight = item.call.getOperand(item.argument);
      auto key = std::make_pair(weight,
                                Attribute(item.transpose.getPermutationAttr()));
      BlockArgument &hostPacked = packed[key];
      if (!hostPacked) {
        OpBuilder builder = initializer.getBuilder();
        Location loc = item.transpose.getLoc();
        auto resultType =
            cast<RankedTensorType>(item.transpose.getResult()[0].getType());
        Value init = tensor::EmptyOp::create(
            builder, loc, resultType.getShape(), resultType.getElementType());
        auto copy = linalg::TransposeOp::create(
            builder, loc, initializer.getWeight(weight), init,
            item.transpose.getPermutation());
        hostPacked = initializer.addResult(copy->getResult(0));
      }

      // The host passes the packed weight; the dispatch reads it instead of
      // transposing its own copy.
      func::CallOp call = item.call;
      func::FuncOp callee = item.callee;
      unsigned position = callee.getNumArguments();
      if (failed(callee.insertArgument(position, hostPacked.getType(), {},
                                       item.transpose.getLoc())))
        return signalPassFailure();
      Value dispatchPacked = callee.getArgument(position);
      Value empty = item.transpose.getInit();
      item.transpose->getResult(0).replaceAllUsesWith(dispatchPacked);
      item.transpose->erase();
      if (empty.use_empty())
        empty.getDefiningOp()->erase();
      SmallVector<Value> operands(call.getOperands());
      operands.push_back(hostPacked);
      call->setOperands(operands);
    }

    // A dispatch argument no longer read (the weight, when every use was
    // the transpose) is dropped from the dispatch and its call.
    for (HoistableTranspose &item : hoistable) {
      func::FuncOp callee = item.callee;
      BitVector unused(callee.getNumArguments());
      for (BlockArgument argument : callee.getArguments())
        if (argument.use_empty())
          unused.set(argument.getArgNumber());
      if (unused.none())
        continue;
      if (failed(callee.eraseArguments(unused)))
        return signalPassFailure();
      item.call->eraseOperands(unused);
    }
  }
};

} // namespace
} // namespace dispatchlab

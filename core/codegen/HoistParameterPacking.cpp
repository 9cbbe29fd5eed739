//===- HoistParameterPacking.cpp - weight layouts in an initializer -------===//
//
// IREE hoists computations that depend only on a model's weights out of the
// program into initializers (const-expr hoisting), so that data-tiling's
// weight packing runs once at load time rather than on every call. This
// pass does the same for the weight transposes of TransposeWeights.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/SymbolTable.h"

namespace dispatchlab {
#define GEN_PASS_DEF_HOISTPARAMETERPACKINGPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

bool isParameter(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return false;
  auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
  if (!function)
    return false;
  unsigned index = argument.getArgNumber();
  return function.getArgAttr(index, kParameterAttr) ||
         function.getArgAttr(index, kParameterExprAttr);
}

/// A transpose inside a dispatch of a weight the host passes in: its input
/// is an argument of the dispatch that every call binds to a parameter of
/// the host.
struct HoistableTranspose {
  linalg::TransposeOp transpose;
  func::CallOp call;
  unsigned argument;
};

struct HoistParameterPackingPass
    : impl::HoistParameterPackingPassBase<HoistParameterPackingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> hosts;
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isPublic() && !function.isDeclaration() &&
          !function->hasAttr(kDispatchFunctionAttr))
        hosts.push_back(function);
    if (hosts.size() != 1)
      return;
    func::FuncOp host = hosts.front();

    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    SmallVector<HoistableTranspose> hoistable;
    host.walk([&](func::CallOp call) {
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || !callee->hasAttr(kDispatchFunctionAttr) ||
          callee.isDeclaration() || users.getUsers(callee).size() != 1)
        return;
      callee.walk([&](linalg::TransposeOp transpose) {
        auto input = dyn_cast<BlockArgument>(transpose.getInput());
        if (!input || input.getOwner() != &callee.front() ||
            !transpose.getInit().getDefiningOp<tensor::EmptyOp>() ||
            !isParameter(call.getOperand(input.getArgNumber())))
          return;
        hoistable.push_back({transpose, call, input.getArgNumber()});
      });
    });
    if (hoistable.empty())
      return;

    // The initializer takes the weights and returns their packed layouts;
    // the host takes those as arguments of its own, after its inputs.
    OpBuilder builder(host);
    std::string name = (host.getName() + "_initializer").str();
    auto initializer = func::FuncOp::create(builder, host.getLoc(), name,
                                            builder.getFunctionType({}, {}));
    SymbolTable(module).insert(initializer, host->getIterator());
    initializer->setAttr(kInitializerOfAttr,
                         FlatSymbolRefAttr::get(host.getNameAttr()));
    initializer->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                         builder.getUnitAttr());
    Block *body = initializer.addEntryBlock();
    builder.setInsertionPointToStart(body);

    DenseMap<Value, Value> initializerArguments;
    SmallVector<int64_t> hostIndices;
    SmallVector<Value> packed;
    // One packed layout per weight and permutation, whichever dispatches
    // read it.
    DenseMap<std::pair<Value, Attribute>, unsigned> packedIndex;
    for (HoistableTranspose &item : hoistable) {
      Value weight = item.call.getOperand(item.argument);
      auto key = std::make_pair(weight,
                                Attribute(item.transpose.getPermutationAttr()));
      auto [it, inserted] = packedIndex.try_emplace(key, packed.size());
      if (inserted) {
        Value &argument = initializerArguments[weight];
        if (!argument) {
          argument = body->addArgument(weight.getType(), weight.getLoc());
          hostIndices.push_back(cast<BlockArgument>(weight).getArgNumber());
        }
        Location loc = item.transpose.getLoc();
        auto resultType =
            cast<RankedTensorType>(item.transpose.getResult()[0].getType());
        Value init = tensor::EmptyOp::create(
            builder, loc, resultType.getShape(), resultType.getElementType());
        auto copy = linalg::TransposeOp::create(
            builder, loc, argument, init, item.transpose.getPermutation());
        packed.push_back(copy->getResult(0));
      }
      unsigned index = it->second;

      // The host passes the packed weight; the dispatch reads it instead of
      // transposing its own copy.
      func::CallOp call = item.call;
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      Value hostPacked = getHostArgument(host, packed[index].getType(), index);
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
    func::ReturnOp::create(builder, host.getLoc(), packed);
    initializer.setFunctionType(builder.getFunctionType(
        body->getArgumentTypes(), ValueRange(packed).getTypes()));
    for (auto [position, hostIndex] : llvm::enumerate(hostIndices))
      initializer.setArgAttr(position, kHostArgumentAttr,
                             builder.getI64IntegerAttr(hostIndex));

    // A dispatch argument no longer read (the weight, when every use was
    // the transpose) is dropped from the dispatch and its call.
    for (HoistableTranspose &item : hoistable) {
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          item.call, item.call.getCalleeAttr());
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

  /// Argument `index` of the host's packed weights, appended after its
  /// inputs on first use (tagged with the initializer result it binds to,
  /// and read-only like every model argument).
  Value getHostArgument(func::FuncOp host, Type type, unsigned index) {
    for (BlockArgument argument : host.getArguments())
      if (auto tag = host.getArgAttrOfType<IntegerAttr>(argument.getArgNumber(),
                                                        kPackedAttr))
        if (tag.getInt() == index)
          return argument;
    unsigned position = host.getNumArguments();
    Builder builder(host.getContext());
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr(kPackedAttr, builder.getI64IntegerAttr(index)),
        builder.getNamedAttr(
            bufferization::BufferizationDialect::kWritableAttrName,
            builder.getBoolAttr(false))};
    (void)host.insertArgument(position, type, builder.getDictionaryAttr(attrs),
                              host.getLoc());
    return host.getArgument(position);
  }
};

} // namespace
} // namespace dispatchlab

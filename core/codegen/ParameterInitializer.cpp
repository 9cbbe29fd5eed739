//===- ParameterInitializer.cpp - a host's weight-packing function --------===//

#include "core/codegen/ParameterInitializer.h"

#include "core/codegen/Passes.h"
#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace dispatchlab {

func::FuncOp getHostFunction(ModuleOp module) {
  func::FuncOp host;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!function.isPublic() || function.isDeclaration() ||
        function->hasAttr(kDispatchFunctionAttr) ||
        function->hasAttr(kInitializerOfAttr))
      continue;
    if (host)
      return nullptr;
    host = function;
  }
  return host;
}

func::FuncOp findInitializer(ModuleOp module, StringRef hostName) {
  for (auto function : module.getOps<func::FuncOp>())
    if (auto of =
            function->getAttrOfType<FlatSymbolRefAttr>(kInitializerOfAttr))
      if (of.getValue() == hostName)
        return function;
  return nullptr;
}

void forEachSoleDispatchCall(
    ModuleOp module, func::FuncOp host,
    llvm::function_ref<void(func::CallOp, func::FuncOp)> fn) {
  SymbolTableCollection symbols;
  SymbolUserMap users(symbols, module);
  host.walk([&](func::CallOp call) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (callee && callee->hasAttr(kDispatchFunctionAttr) &&
        !callee.isDeclaration() && users.getUsers(callee).size() == 1)
      fn(call, callee);
  });
}

BlockArgument getParameterView(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp>(op) ||
        op->getNumOperands() != 1)
      return {};
    value = op->getOperand(0);
  }
  return isParameter(value) ? cast<BlockArgument>(value) : BlockArgument();
}

std::optional<unsigned> getPackedResult(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return std::nullopt;
  auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
  if (!function)
    return std::nullopt;
  if (auto tag = function.getArgAttrOfType<IntegerAttr>(argument.getArgNumber(),
                                                        kPackedAttr))
    return tag.getInt();
  return std::nullopt;
}

ParameterInitializer::ParameterInitializer(ModuleOp module, func::FuncOp host)
    : module(module), host(host),
      initializer(findInitializer(module, host.getName())) {}

func::FuncOp ParameterInitializer::getOrCreate() {
  if (initializer)
    return initializer;
  OpBuilder builder(host);
  initializer = func::FuncOp::create(builder, host.getLoc(),
                                     (host.getName() + "_initializer").str(),
                                     builder.getFunctionType({}, {}));
  SymbolTable(module).insert(initializer, host->getIterator());
  initializer->setAttr(kInitializerOfAttr,
                       FlatSymbolRefAttr::get(host.getNameAttr()));
  initializer->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                       builder.getUnitAttr());
  Block *body = initializer.addEntryBlock();
  builder.setInsertionPointToStart(body);
  func::ReturnOp::create(builder, host.getLoc());
  return initializer;
}

Operation *ParameterInitializer::getReturn() {
  return getOrCreate().front().getTerminator();
}

BlockArgument ParameterInitializer::getArgument(BlockArgument weight) {
  func::FuncOp function = getOrCreate();
  for (BlockArgument argument : function.getArguments())
    if (function
            .getArgAttrOfType<IntegerAttr>(argument.getArgNumber(),
                                           kHostArgumentAttr)
            .getInt() == weight.getArgNumber())
      return argument;
  unsigned position = function.getNumArguments();
  Builder builder(module.getContext());
  (void)function.insertArgument(
      position, weight.getType(),
      builder.getDictionaryAttr(builder.getNamedAttr(
          kHostArgumentAttr, builder.getI64IntegerAttr(weight.getArgNumber()))),
      weight.getLoc());
  return function.getArgument(position);
}

Value ParameterInitializer::getWeight(Value weight) {
  Operation *reshape = weight.getDefiningOp();
  if (!reshape)
    return getArgument(cast<BlockArgument>(weight));
  IRMapping mapping;
  mapping.map(reshape->getOperand(0), getWeight(reshape->getOperand(0)));
  return getBuilder().clone(*reshape, mapping)->getResult(0);
}

OpBuilder ParameterInitializer::getBuilder() {
  OpBuilder builder(module.getContext());
  builder.setInsertionPoint(getReturn());
  return builder;
}

BlockArgument ParameterInitializer::addResult(Value value) {
  Operation *terminator = getReturn();
  unsigned index = terminator->getNumOperands();
  terminator->insertOperands(index, value);
  initializer.setFunctionType(FunctionType::get(module.getContext(),
                                                initializer.getArgumentTypes(),
                                                terminator->getOperandTypes()));
  return getHostArgument(index);
}

Value ParameterInitializer::getResult(unsigned index) {
  return getReturn()->getOperand(index);
}

void ParameterInitializer::replaceResult(unsigned index, Value value) {
  Operation *terminator = getReturn();
  terminator->setOperand(index, value);
  initializer.setFunctionType(FunctionType::get(module.getContext(),
                                                initializer.getArgumentTypes(),
                                                terminator->getOperandTypes()));
  BlockArgument argument = getHostArgument(index);
  argument.setType(value.getType());
  host.setFunctionType(FunctionType::get(module.getContext(),
                                         host.front().getArgumentTypes(),
                                         host.getResultTypes()));
}

/// Appended after the host's arguments on first use; read-only like every
/// model argument.
BlockArgument ParameterInitializer::getHostArgument(unsigned index) {
  for (BlockArgument argument : host.getArguments())
    if (getPackedResult(argument) == index)
      return argument;
  unsigned position = host.getNumArguments();
  Builder builder(module.getContext());
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr(kPackedAttr, builder.getI64IntegerAttr(index)),
      builder.getNamedAttr(
          bufferization::BufferizationDialect::kWritableAttrName,
          builder.getBoolAttr(false))};
  (void)host.insertArgument(position, getResult(index).getType(),
                            builder.getDictionaryAttr(attrs), host.getLoc());
  return host.getArgument(position);
}

} // namespace dispatchlab

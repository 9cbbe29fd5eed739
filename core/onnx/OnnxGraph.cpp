//===- OnnxGraph.cpp - state of one ONNX graph being imported -------------===//

#include "core/onnx/OnnxGraph.h"

#include "core/onnx/OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using onnx::TensorProto;

namespace dispatchlab::onnx_import {

Type convertDataType(MLIRContext *context, int32_t dataType) {
  Builder b(context);
  switch (dataType) {
  case TensorProto::FLOAT:
    return b.getF32Type();
  case TensorProto::FLOAT16:
    return b.getF16Type();
  case TensorProto::BFLOAT16:
    return b.getBF16Type();
  case TensorProto::DOUBLE:
    return b.getF64Type();
  case TensorProto::BOOL:
    return b.getI1Type();
  case TensorProto::INT8:
  case TensorProto::UINT8:
    return b.getI8Type();
  case TensorProto::INT16:
  case TensorProto::UINT16:
    return b.getI16Type();
  case TensorProto::INT32:
  case TensorProto::UINT32:
    return b.getI32Type();
  case TensorProto::INT64:
  case TensorProto::UINT64:
    return b.getI64Type();
  default:
    return nullptr;
  }
}

int32_t toDataType(Type type) {
  if (type.isF32())
    return TensorProto::FLOAT;
  if (type.isF16())
    return TensorProto::FLOAT16;
  if (type.isBF16())
    return TensorProto::BFLOAT16;
  if (type.isF64())
    return TensorProto::DOUBLE;
  if (type.isInteger(1))
    return TensorProto::BOOL;
  if (type.isInteger(8))
    return TensorProto::INT8;
  if (type.isInteger(16))
    return TensorProto::INT16;
  if (type.isInteger(32))
    return TensorProto::INT32;
  return TensorProto::INT64;
}

OnnxGraph::OnnxGraph(func::FuncOp func, StringRef modelPath,
                     const onnx::ModelProto &model)
    : func(func), modelPath(modelPath.str()) {
  for (const onnx::OperatorSetIdProto &opset : model.opset_import())
    opsets[opset.domain() == "ai.onnx" ? "" : opset.domain()] = opset.version();
  for (const onnx::NodeProto &node : model.graph().node())
    for (const std::string &input : node.input())
      if (!input.empty())
        users[input].push_back(&node);
  for (const onnx::ValueInfoProto &output : model.graph().output())
    outputs.insert(output.name());
}

Location OnnxGraph::getFileLoc() const {
  return FileLineColLoc::get(getContext(), modelPath, 0, 0);
}

int64_t OnnxGraph::getOpsetVersion(StringRef domain) const {
  auto it = opsets.find(domain == "ai.onnx" ? "" : domain);
  return it == opsets.end() ? 1 : it->second;
}

OnnxValue *OnnxGraph::lookup(StringRef name) {
  auto it = values.find(name);
  return it == values.end() ? nullptr : &it->second;
}

void OnnxGraph::define(StringRef name, OnnxValue value) {
  values[name] = std::move(value);
}

ArrayRef<const onnx::NodeProto *> OnnxGraph::getUsers(StringRef name) const {
  auto it = users.find(name);
  if (it == users.end())
    return {};
  return it->second;
}

bool OnnxGraph::isGraphOutput(StringRef name) const {
  return outputs.contains(name);
}

/// A dense attribute holding `tensor`'s values as `type`.
static DenseElementsAttr toDenseAttr(const HostTensor &tensor,
                                     RankedTensorType type) {
  Type elementType = type.getElementType();
  // Splats (ConstantOfShape masks) stay one value however large the tensor.
  bool splat = true;
  for (int64_t i = 1, e = tensor.numElements(); i < e && splat; ++i)
    splat = tensor.getDouble(i) == tensor.getDouble(0) &&
            tensor.getInt(i) == tensor.getInt(0);
  if (splat && tensor.numElements() > 1) {
    HostTensor first = tensor;
    first.shape.clear();
    first.floats.resize(first.isFloat() ? 1 : 0);
    first.ints.resize(first.isFloat() ? 0 : 1);
    return DenseElementsAttr::get(
        type, toDenseAttr(first, RankedTensorType::get({}, elementType))
                  .getSplatValue<Attribute>());
  }
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    SmallVector<APFloat> values;
    for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
      APFloat value(tensor.getDouble(i));
      bool losesInfo;
      value.convert(floatType.getFloatSemantics(),
                    llvm::RoundingMode::NearestTiesToEven, &losesInfo);
      values.push_back(value);
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = elementType.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i)
    values.push_back(width == 1
                         ? APInt(1, tensor.getInt(i) != 0)
                         : APInt(width, tensor.getInt(i),
                                 /*isSigned=*/true, /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, values);
}

/// The tag of an argument holding initializer `name`.
static DictionaryAttr getParameterTag(MLIRContext *context, StringRef name) {
  return DictionaryAttr::get(
      context, {NamedAttribute(StringAttr::get(context, kParameterAttr),
                               StringAttr::get(context, name))});
}

Value OnnxGraph::getParameterArgument(const OnnxValue &value, Location loc) {
  if (value.derived) {
    auto [it, inserted] = derivedArguments.insert({value.derived, {}});
    if (inserted) {
      // Tagged with its result once the parameter function is finished.
      (void)func.insertArgument(func.getNumArguments(), value.type, {}, loc);
      it->second = func.getArguments().back();
    }
    return it->second;
  }
  auto [it, inserted] =
      parameterArguments.try_emplace(value.parameter, func.getNumArguments());
  if (inserted)
    (void)func.insertArgument(it->second, value.type,
                              getParameterTag(getContext(), value.parameter),
                              loc);
  return func.getArgument(it->second);
}

func::FuncOp OnnxGraph::getParameterFunction() {
  if (parameterFunc)
    return parameterFunc;
  OpBuilder builder(getContext());
  builder.setInsertionPointAfter(func);
  parameterFunc = func::FuncOp::create(builder, getFileLoc(),
                                       (func.getName() + "_parameters").str(),
                                       builder.getFunctionType({}, {}));
  // Private: the model's one public function stays `@main`.
  parameterFunc.setPrivate();
  parameterFunc->setAttr(kParametersOfAttr,
                         FlatSymbolRefAttr::get(func.getNameAttr()));
  parameterFunc.addEntryBlock();
  return parameterFunc;
}

Value OnnxGraph::getParameterValue(const OnnxValue &value) {
  if (value.derived)
    return value.derived;
  func::FuncOp function = getParameterFunction();
  auto [it, inserted] =
      parameterInputs.try_emplace(value.parameter, function.getNumArguments());
  if (inserted) {
    MLIRContext *context = getContext();
    (void)function.insertArgument(
        it->second, value.type, getParameterTag(context, value.parameter),
        NameLoc::get(StringAttr::get(context, value.parameter), getFileLoc()));
  }
  return function.getArgument(it->second);
}

SmallVector<Value> OnnxGraph::mergeDerivedArguments() {
  // CSE replaces values; the return operands follow the replacements.
  OpBuilder builder = OpBuilder::atBlockEnd(&parameterFunc.front());
  auto terminator = func::ReturnOp::create(
      builder, getFileLoc(),
      llvm::to_vector(llvm::make_first_range(derivedArguments)));
  IRRewriter rewriter(getContext());
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, parameterFunc);

  DenseMap<Value, BlockArgument> kept;
  BitVector merged(func.getNumArguments());
  SmallVector<Value> results;
  for (auto [value, argument] :
       llvm::zip_equal(terminator.getOperands(),
                       llvm::make_second_range(derivedArguments))) {
    auto [it, inserted] = kept.try_emplace(value, argument);
    if (!inserted) {
      argument.replaceAllUsesWith(it->second);
      merged.set(argument.getArgNumber());
      continue;
    }
    func.setArgAttr(argument.getArgNumber(), kParameterResultAttr,
                    builder.getI64IntegerAttr(results.size()));
    results.push_back(value);
  }
  (void)func.eraseArguments(merged);
  terminator->setOperands(results);
  derivedArguments.clear();
  return results;
}

void OnnxGraph::finishParameterFunction() {
  if (!parameterFunc)
    return;
  SmallVector<Value> results = mergeDerivedArguments();
  if (results.empty()) {
    parameterFunc.erase();
    parameterFunc = nullptr;
    return;
  }
  // Derivations `@main` ends up not reading (their weights would otherwise
  // have to be in the file for nothing) go, then the initializers only they
  // read.
  SmallVector<Operation *> ops;
  for (Operation &op : parameterFunc.front().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  BitVector unused(parameterFunc.getNumArguments());
  for (BlockArgument argument : parameterFunc.getArguments())
    if (argument.use_empty())
      unused.set(argument.getArgNumber());
  (void)parameterFunc.eraseArguments(unused);
  parameterFunc.setFunctionType(
      FunctionType::get(getContext(), parameterFunc.getArgumentTypes(),
                        ValueRange(results).getTypes()));
}

Value OnnxGraph::materialize(OnnxValue &value, Location loc) {
  if (value.value)
    return value.value;
  if (value.isParameter()) {
    // Parameters are arguments, not values of one node: no node location.
    value.value = getParameterArgument(value, getFileLoc());
    return value.value;
  }
  OpBuilder builder = OpBuilder::atBlockEnd(&func.getBody().front());
  value.value = arith::ConstantOp::create(builder, loc, value.type,
                                          toDenseAttr(*value.host, value.type));
  return value.value;
}

OnnxNode::OnnxNode(OnnxGraph &graph, const onnx::NodeProto &proto)
    : graph(graph), proto(proto), builder(graph.getContext()),
      loc(NameLoc::get(StringAttr::get(graph.getContext(), getName()),
                       graph.getFileLoc())) {
  builder.setInsertionPointToEnd(&graph.getFunc().getBody().front());
}

std::string OnnxNode::getName() const {
  if (!proto.name().empty())
    return proto.name();
  return proto.output_size() ? proto.output(0) : proto.op_type();
}

bool OnnxNode::hasInput(unsigned i) const {
  return i < static_cast<unsigned>(proto.input_size()) &&
         !proto.input(i).empty();
}

OnnxValue &OnnxNode::getInput(unsigned i) {
  OnnxValue *value = graph.lookup(proto.input(i));
  assert(value && "inputs are checked to be defined before lowering");
  return *value;
}

Value OnnxNode::getInputValue(unsigned i) {
  return graph.materialize(getInput(i), loc);
}

FailureOr<HostTensor> OnnxNode::getConstant(unsigned i, StringRef what) {
  if (!hasInput(i) || !getInput(i).host) {
    (void)fail(what + " must be known at import time");
    return failure();
  }
  return *getInput(i).host;
}

FailureOr<SmallVector<int64_t>> OnnxNode::getConstantInts(unsigned i,
                                                          StringRef what) {
  FailureOr<HostTensor> tensor = getConstant(i, what);
  if (failed(tensor))
    return failure();
  SmallVector<int64_t> result;
  for (int64_t k = 0, e = tensor->numElements(); k < e; ++k)
    result.push_back(tensor->getInt(k));
  return result;
}

bool OnnxNode::allInputsFoldable() {
  for (unsigned i = 0, e = getNumInputs(); i < e; ++i)
    if (hasInput(i) && !getInput(i).isFoldable())
      return false;
  return true;
}

bool OnnxNode::hasOutput(unsigned i) const {
  return i < static_cast<unsigned>(proto.output_size()) &&
         !proto.output(i).empty();
}

void OnnxNode::setOutput(unsigned i, Value value) {
  OnnxValue result;
  result.type = cast<RankedTensorType>(value.getType());
  result.value = value;
  setOutput(i, std::move(result));
}

void OnnxNode::setOutput(unsigned i, OnnxValue value) {
  if (hasOutput(i))
    graph.define(proto.output(i), std::move(value));
}

void OnnxNode::setHostOutput(unsigned i, HostTensor tensor) {
  OnnxValue result;
  result.type = RankedTensorType::get(
      tensor.shape, convertDataType(graph.getContext(), tensor.dataType));
  result.host = std::move(tensor);
  setOutput(i, std::move(result));
}

InFlightDiagnostic OnnxNode::emitError() {
  return mlir::emitError(graph.getFileLoc())
         << getOpType() << " node '" << getName() << "': ";
}

LogicalResult OnnxNode::fail(const Twine &message) {
  emitError() << message;
  return failure();
}

FailureOr<int64_t> OnnxNode::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1)) {
    (void)fail("axis " + Twine(axis) + " is out of range for rank " +
               Twine(rank));
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

} // namespace dispatchlab::onnx_import

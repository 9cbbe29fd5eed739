//===- InferenceGuard.cpp - what libonnx shape inference trusts ----------===//

#include "core/onnx/InferenceGuard.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

namespace dispatchlab::onnx_import {

namespace {
/// The ranks of the values known before shape inference.
class KnownRanks {
public:
  explicit KnownRanks(const onnx::GraphProto &graph);

  std::optional<int64_t> lookup(const std::string &name) const {
    auto it = ranks.find(name);
    if (it == ranks.end())
      return std::nullopt;
    return it->second;
  }
  /// Records the output ranks `node` implies, where they follow from its
  /// inputs' ranks alone.
  void propagate(const onnx::NodeProto &node);

private:
  void declare(const onnx::ValueInfoProto &info);
  void record(const std::string &name, const onnx::TensorProto &tensor);

  llvm::StringMap<int64_t> ranks;
  /// The element counts of the 1-D constants: a Reshape's output has as many
  /// dims as its shape operand has elements.
  llvm::StringMap<int64_t> lengths;
};
} // namespace

KnownRanks::KnownRanks(const onnx::GraphProto &graph) {
  for (const onnx::TensorProto &initializer : graph.initializer())
    record(initializer.name(), initializer);
  for (const onnx::ValueInfoProto &input : graph.input())
    declare(input);
  for (const onnx::ValueInfoProto &info : graph.value_info())
    declare(info);
}

void KnownRanks::record(const std::string &name,
                        const onnx::TensorProto &tensor) {
  ranks[name] = tensor.dims_size();
  if (tensor.dims_size() == 1)
    lengths[name] = tensor.dims(0);
}

void KnownRanks::declare(const onnx::ValueInfoProto &info) {
  const onnx::TypeProto &type = info.type();
  if (type.has_tensor_type() && type.tensor_type().has_shape())
    ranks[info.name()] = type.tensor_type().shape().dim_size();
}

/// Operators whose first output has the rank of their first input.
static bool preservesRank(llvm::StringRef opType) {
  static const llvm::StringSet<> ops = {
      // clang-format off
      "Abs", "BatchNormalization", "Cast", "Clip", "Conv", "ConvTranspose",
      "Dropout", "Erf", "Exp", "Gelu", "HardSigmoid", "HardSwish", "Identity",
      "LayerNormalization", "LeakyRelu", "Log", "LogSoftmax", "Neg",
      "Reciprocal", "Relu", "Sigmoid", "Softmax", "Sqrt", "Tanh",
      "Transpose",
      // clang-format on
  };
  return ops.contains(opType);
}

void KnownRanks::propagate(const onnx::NodeProto &node) {
  if (node.output_size() == 0 || node.output(0).empty() ||
      ranks.contains(node.output(0)))
    return;
  const std::string &output = node.output(0);
  if (node.op_type() == "Constant") {
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == "value" && attribute.has_t())
        record(output, attribute.t());
    return;
  }
  if (node.op_type() == "Flatten") {
    ranks[output] = 2;
    return;
  }
  if (node.op_type() == "Reshape" && node.input_size() == 2) {
    auto length = lengths.find(node.input(1));
    if (length != lengths.end())
      ranks[output] = length->second;
    return;
  }
  if (node.input_size() == 0)
    return;
  std::optional<int64_t> rank = lookup(node.input(0));
  if (rank && preservesRank(node.op_type()))
    ranks[output] = *rank;
}

/// The node as error messages name it: by name, else by its first output.
static std::string describe(const onnx::NodeProto &node) {
  const std::string &name = !node.name().empty() ? node.name()
                            : node.output_size() ? node.output(0)
                                                 : node.op_type();
  return node.op_type() + " node '" + name + "': ";
}

/// Window attributes libonnx's convPoolShapeInference divides by (a zero
/// stride is SIGFPE inside it): each must be positive.
static llvm::Error checkWindowAttributes(const onnx::NodeProto &node) {
  static const llvm::StringSet<> windowed = {"Conv", "ConvTranspose", "MaxPool",
                                             "AveragePool", "LpPool"};
  if (!windowed.contains(node.op_type()))
    return llvm::Error::success();
  for (const onnx::AttributeProto &attribute : node.attribute()) {
    llvm::StringRef name = attribute.name();
    if (name != "strides" && name != "dilations" && name != "kernel_shape")
      continue;
    for (int64_t value : attribute.ints())
      if (value < 1)
        return llvm::createStringError(describe(node) + "attribute '" + name +
                                       "' has a non-positive value " +
                                       llvm::Twine(value));
  }
  return llvm::Error::success();
}

static llvm::Error checkNode(const onnx::NodeProto &node,
                             const KnownRanks &known) {
  if (llvm::Error error = checkWindowAttributes(node))
    return error;
  auto rankOf = [&](int i) -> std::optional<int64_t> {
    if (i >= node.input_size() || node.input(i).empty())
      return std::nullopt;
    return known.lookup(node.input(i));
  };
  llvm::StringRef opType = node.op_type();
  if (opType == "Conv" || opType == "ConvTranspose") {
    std::optional<int64_t> input = rankOf(0), weight = rankOf(1);
    if (input && weight && *input != *weight)
      return llvm::createStringError(
          describe(node) + "the weight has rank " + llvm::Twine(*weight) +
          " but the input has rank " + llvm::Twine(*input));
  }
  if (opType == "MatMul")
    for (int i = 0; i < 2; ++i)
      if (rankOf(i) == 0)
        return llvm::createStringError(describe(node) + "input '" +
                                       node.input(i) +
                                       "' is a scalar; MatMul needs rank >= 1");
  return llvm::Error::success();
}

llvm::Error checkBeforeInference(const onnx::GraphProto &graph) {
  KnownRanks known(graph);
  for (const onnx::NodeProto &node : graph.node()) {
    // Other domains' operators have other semantics, and unknown ranks.
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      continue;
    if (llvm::Error error = checkNode(node, known))
      return error;
    known.propagate(node);
  }
  return llvm::Error::success();
}

} // namespace dispatchlab::onnx_import

//===- ParameterData.cpp - weight values for `dispatchlab run` ------------===//

#include "core/runtime/ParameterData.h"

#include "core/onnx/OnnxAttributes.h"
#include "core/onnx/OnnxModelFile.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>

namespace dispatchlab {

using onnx_import::HostTensor;

struct ParameterData::Model {
  onnx::ModelProto proto;
  /// Initializers and the tensors of `Constant` nodes (which the importer
  /// turns into parameters named by the node's output), by name.
  llvm::StringMap<const onnx::TensorProto *> initializers;
};

namespace {
/// A recipe value: a dense array of doubles, C order.
struct Value {
  std::vector<int64_t> shape;
  std::vector<double> data;
};

std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// `op` (add, sub, mul or div) elementwise, numpy-style broadcasting.
llvm::Expected<Value> broadcast(llvm::StringRef op, const Value &lhs,
                                const Value &rhs) {
  size_t rank = std::max(lhs.shape.size(), rhs.shape.size());
  auto padded = [&](const std::vector<int64_t> &shape) {
    std::vector<int64_t> result(rank - shape.size(), 1);
    result.insert(result.end(), shape.begin(), shape.end());
    return result;
  };
  std::vector<int64_t> a = padded(lhs.shape), b = padded(rhs.shape);
  Value out;
  for (size_t i = 0; i < rank; ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
      return llvm::createStringError("cannot broadcast operands of " + op);
    out.shape.push_back(std::max(a[i], b[i]));
  }
  std::vector<int64_t> as = stridesOf(a), bs = stridesOf(b);
  std::vector<int64_t> os = stridesOf(out.shape);
  int64_t count = mlir::ShapedType::getNumElements(out.shape);
  out.data.resize(count);
  for (int64_t n = 0; n < count; ++n) {
    int64_t ai = 0, bi = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t index = n / os[d] % out.shape[d];
      ai += (a[d] == 1 ? 0 : index) * as[d];
      bi += (b[d] == 1 ? 0 : index) * bs[d];
    }
    double x = lhs.data[ai], y = rhs.data[bi];
    out.data[n] = op == "add"   ? x + y
                  : op == "sub" ? x - y
                  : op == "mul" ? x * y
                                : x / y;
  }
  return out;
}

llvm::Expected<Value> transpose(const Value &input,
                                const std::vector<int64_t> &perm) {
  if (perm.size() != input.shape.size())
    return llvm::createStringError("transpose permutation rank mismatch");
  Value out;
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(perm.size()))
      return llvm::createStringError("bad transpose permutation");
    out.shape.push_back(input.shape[p]);
  }
  std::vector<int64_t> is = stridesOf(input.shape), os = stridesOf(out.shape);
  int64_t count = mlir::ShapedType::getNumElements(out.shape);
  out.data.resize(count);
  for (int64_t n = 0; n < count; ++n) {
    int64_t source = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      source += (n / os[d] % out.shape[d]) * is[perm[d]];
    out.data[n] = input.data[source];
  }
  return out;
}

llvm::Expected<Value> reshape(Value input, const std::vector<int64_t> &shape) {
  if (mlir::ShapedType::getNumElements(shape) != int64_t(input.data.size()))
    return llvm::createStringError("reshape changes the element count");
  input.shape = shape;
  return input;
}

llvm::Expected<Value> reverse(const Value &input,
                              const std::vector<int64_t> &axes) {
  int64_t rank = input.shape.size();
  std::vector<bool> reversed(rank, false);
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= rank)
      return llvm::createStringError("reverse axis " + llvm::Twine(axis) +
                                     " out of range for rank " +
                                     llvm::Twine(rank));
    reversed[axis] = true;
  }
  std::vector<int64_t> strides = stridesOf(input.shape);
  Value out;
  out.shape = input.shape;
  out.data.resize(input.data.size());
  for (int64_t n = 0, e = out.data.size(); n < e; ++n) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t index = n / strides[d] % input.shape[d];
      if (reversed[d])
        index = input.shape[d] - 1 - index;
      source += index * strides[d];
    }
    out.data[n] = input.data[source];
  }
  return out;
}

llvm::Expected<Value> slice(const Value &input,
                            const std::vector<int64_t> &starts,
                            const std::vector<int64_t> &sizes,
                            const std::vector<int64_t> &steps) {
  size_t rank = input.shape.size();
  if (starts.size() != rank || sizes.size() != rank || steps.size() != rank)
    return llvm::createStringError("slice rank mismatch");
  Value out;
  out.shape = sizes;
  std::vector<int64_t> is = stridesOf(input.shape), os = stridesOf(sizes);
  int64_t count = mlir::ShapedType::getNumElements(sizes);
  out.data.resize(count);
  for (int64_t n = 0; n < count; ++n) {
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t index = starts[d] + (n / os[d] % sizes[d]) * steps[d];
      if (index < 0 || index >= input.shape[d])
        return llvm::createStringError("slice out of bounds");
      source += index * is[d];
    }
    out.data[n] = input.data[source];
  }
  return out;
}

/// Recursive-descent evaluator over the recipe text. The first error ends
/// the evaluation.
class Evaluator {
public:
  Evaluator(llvm::StringRef text, const ParameterData::Model &model)
      : text(text), model(model) {}

  /// The whole text as one expression.
  llvm::Expected<Value> parse();
  /// The initializer or Constant node `name`.
  llvm::Expected<Value> lookup(llvm::StringRef name);

private:
  void skipSpace() { text = text.ltrim(); }
  bool consume(char c);
  llvm::Error expect(char c);
  llvm::StringRef parseToken();
  llvm::Expected<std::vector<int64_t>> parseList();
  llvm::Expected<Value> parseExpr();
  /// The arguments of a call of `function` (after its opening parenthesis,
  /// before the closing one).
  llvm::Expected<Value> parseCall(llvm::StringRef function);
  /// An expression and the comma after it: a call's first argument.
  llvm::Expected<Value> parseFirstArgument();
  llvm::Expected<Value> parseSlice();

  llvm::StringRef text;
  const ParameterData::Model &model;
};

llvm::Expected<Value> Evaluator::parse() {
  llvm::Expected<Value> value = parseExpr();
  if (!value)
    return value.takeError();
  skipSpace();
  if (!text.empty())
    return llvm::createStringError("trailing text '" + text + "'");
  return value;
}

llvm::Expected<Value> Evaluator::lookup(llvm::StringRef name) {
  const onnx::TensorProto *tensor = model.initializers.lookup(name);
  if (!tensor)
    return llvm::createStringError("no initializer or Constant node '" + name +
                                   "' in the model");
  if (!onnx_import::hasInlineData(*tensor))
    return llvm::createStringError("initializer '" + name +
                                   "' carries no data (stripped weights)");
  llvm::Expected<HostTensor> host = onnx_import::decodeTensor(*tensor);
  if (!host)
    return host.takeError();
  Value value;
  value.shape.assign(host->shape.begin(), host->shape.end());
  for (int64_t i = 0, e = host->numElements(); i < e; ++i)
    value.data.push_back(host->getDouble(i));
  return value;
}

bool Evaluator::consume(char c) {
  skipSpace();
  if (!text.starts_with(std::string(1, c)))
    return false;
  text = text.drop_front();
  return true;
}

llvm::Error Evaluator::expect(char c) {
  if (consume(c))
    return llvm::Error::success();
  return llvm::createStringError(std::string("expected '") + c + "' at '" +
                                 text.str() + "'");
}

llvm::StringRef Evaluator::parseToken() {
  skipSpace();
  size_t end = text.find_first_of("(),[] ");
  llvm::StringRef token = text.take_front(end);
  text = text.drop_front(token.size());
  return token;
}

llvm::Expected<std::vector<int64_t>> Evaluator::parseList() {
  if (llvm::Error error = expect('['))
    return std::move(error);
  std::vector<int64_t> values;
  while (!consume(']')) {
    int64_t value;
    if (parseToken().getAsInteger(10, value))
      return llvm::createStringError("bad integer list at '" + text + "'");
    values.push_back(value);
    consume(',');
  }
  return values;
}

llvm::Expected<Value> Evaluator::parseExpr() {
  llvm::StringRef token = parseToken();
  if (token.empty())
    return llvm::createStringError("expected an operand at '" + text + "'");
  skipSpace();
  if (!text.starts_with("(")) {
    if (model.initializers.count(token))
      return lookup(token);
    double number;
    if (!token.getAsDouble(number))
      return Value{{}, {number}};
    return lookup(token);
  }
  consume('(');
  llvm::Expected<Value> result = parseCall(token);
  if (!result)
    return result.takeError();
  if (llvm::Error error = expect(')'))
    return std::move(error);
  return result;
}

llvm::Expected<Value> Evaluator::parseFirstArgument() {
  llvm::Expected<Value> value = parseExpr();
  if (!value)
    return value.takeError();
  if (llvm::Error error = expect(','))
    return std::move(error);
  return value;
}

llvm::Expected<Value> Evaluator::parseCall(llvm::StringRef function) {
  if (function == "add" || function == "sub" || function == "mul" ||
      function == "div") {
    llvm::Expected<Value> lhs = parseFirstArgument();
    if (!lhs)
      return lhs.takeError();
    llvm::Expected<Value> rhs = parseExpr();
    if (!rhs)
      return rhs.takeError();
    return broadcast(function, *lhs, *rhs);
  }
  if (function == "sqrt") {
    llvm::Expected<Value> result = parseExpr();
    if (result)
      for (double &x : result->data)
        x = std::sqrt(x);
    return result;
  }
  if (function == "transpose" || function == "reshape" ||
      function == "reverse") {
    llvm::Expected<Value> input = parseFirstArgument();
    if (!input)
      return input.takeError();
    llvm::Expected<std::vector<int64_t>> list = parseList();
    if (!list)
      return list.takeError();
    return function == "transpose" ? transpose(*input, *list)
           : function == "reshape" ? reshape(std::move(*input), *list)
                                   : reverse(*input, *list);
  }
  if (function == "slice")
    return parseSlice();
  if (function == "cast") {
    // Values are doubles here; the final store rounds to the argument's
    // element type.
    llvm::Expected<Value> result = parseFirstArgument();
    if (result && parseToken().empty())
      return llvm::createStringError("cast needs a target type");
    return result;
  }
  return llvm::createStringError("unknown recipe function '" + function + "'");
}

llvm::Expected<Value> Evaluator::parseSlice() {
  llvm::Expected<Value> input = parseFirstArgument();
  if (!input)
    return input.takeError();
  llvm::Expected<std::vector<int64_t>> starts = parseList();
  if (!starts)
    return starts.takeError();
  if (llvm::Error error = expect(','))
    return std::move(error);
  llvm::Expected<std::vector<int64_t>> sizes = parseList();
  if (!sizes)
    return sizes.takeError();
  std::vector<int64_t> steps(sizes->size(), 1);
  if (consume(',')) {
    llvm::Expected<std::vector<int64_t>> given = parseList();
    if (!given)
      return given.takeError();
    steps = std::move(*given);
  }
  return slice(*input, *starts, *sizes, steps);
}
} // namespace

ParameterData::ParameterData(std::unique_ptr<Model> model)
    : model(std::move(model)) {}
ParameterData::ParameterData(ParameterData &&) = default;
ParameterData &ParameterData::operator=(ParameterData &&) = default;
ParameterData::~ParameterData() = default;

llvm::Expected<ParameterData> ParameterData::open(llvm::StringRef path) {
  llvm::Expected<onnx::ModelProto> proto = onnx_import::readOnnxModel(path);
  if (!proto)
    return proto.takeError();
  auto model = std::make_unique<Model>();
  model->proto = std::move(*proto);
  for (const onnx::TensorProto &tensor : model->proto.graph().initializer())
    model->initializers[tensor.name()] = &tensor;
  for (const onnx::NodeProto &node : model->proto.graph().node()) {
    bool onnxDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (!onnxDomain || node.op_type() != "Constant" || node.output_size() != 1)
      continue;
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == "value" && attribute.has_t())
        model->initializers[node.output(0)] = &attribute.t();
  }
  return ParameterData(std::move(model));
}

std::optional<std::string> ParameterData::findStrippedInitializer() const {
  for (const onnx::TensorProto &tensor : model->proto.graph().initializer())
    if (!onnx_import::hasInlineData(tensor))
      return tensor.name();
  return std::nullopt;
}

llvm::Expected<HostArray>
ParameterData::evaluate(llvm::StringRef name, llvm::StringRef recipe,
                        ElementType type,
                        const std::vector<int64_t> &shape) const {
  Evaluator evaluator(recipe, *model);
  llvm::Expected<Value> value =
      recipe.empty() ? evaluator.lookup(name) : evaluator.parse();
  if (!value)
    return value.takeError();
  if (mlir::ShapedType::getNumElements(value->shape) !=
          mlir::ShapedType::getNumElements(shape) ||
      (value->shape != shape && !recipe.empty()))
    return llvm::createStringError(
        "parameter '" + (recipe.empty() ? name : recipe) + "' has " +
        llvm::Twine(value->data.size()) +
        " elements in another shape than the argument's");
  HostArray array(type, shape);
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    array.setDouble(i, value->data[i]);
  return array;
}

} // namespace dispatchlab

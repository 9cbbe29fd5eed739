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

/// Recursive-descent evaluator over the recipe text. Errors set `error` and
/// return nullopt.
class Evaluator {
public:
  Evaluator(llvm::StringRef text, const ParameterData::Model &model,
            std::string &error)
      : text(text), model(model), error(error) {}

  std::optional<Value> parse() {
    std::optional<Value> value = parseExpr();
    skipSpace();
    if (value && !text.empty())
      return fail("trailing text '" + text.str() + "'");
    return value;
  }

  std::optional<Value> lookup(llvm::StringRef name) {
    const onnx::TensorProto *tensor = model.initializers.lookup(name);
    if (!tensor)
      return fail("no initializer or Constant node '" + name.str() +
                  "' in the model");
    if (!onnx_import::hasInlineData(*tensor))
      return fail("initializer '" + name.str() +
                  "' carries no data (stripped weights)");
    llvm::Expected<HostTensor> host = onnx_import::decodeTensor(*tensor);
    if (!host) {
      error = llvm::toString(host.takeError());
      return std::nullopt;
    }
    Value value;
    value.shape.assign(host->shape.begin(), host->shape.end());
    for (int64_t i = 0, e = host->numElements(); i < e; ++i)
      value.data.push_back(host->getDouble(i));
    return value;
  }

private:
  std::optional<Value> fail(const std::string &message) {
    if (error.empty())
      error = message;
    return std::nullopt;
  }

  void skipSpace() { text = text.ltrim(); }
  bool consume(char c) {
    skipSpace();
    if (!text.starts_with(std::string(1, c)))
      return false;
    text = text.drop_front();
    return true;
  }
  bool expect(char c) {
    if (consume(c))
      return true;
    fail(std::string("expected '") + c + "' at '" + text.str() + "'");
    return false;
  }
  llvm::StringRef parseToken() {
    skipSpace();
    size_t end = text.find_first_of("(),[] ");
    llvm::StringRef token = text.take_front(end);
    text = text.drop_front(token.size());
    return token;
  }

  std::optional<std::vector<int64_t>> parseList() {
    if (!expect('['))
      return std::nullopt;
    std::vector<int64_t> values;
    while (!consume(']')) {
      int64_t value;
      if (parseToken().getAsInteger(10, value)) {
        fail("bad integer list at '" + text.str() + "'");
        return std::nullopt;
      }
      values.push_back(value);
      consume(',');
    }
    return values;
  }

  std::optional<Value> parseExpr() {
    llvm::StringRef token = parseToken();
    if (token.empty())
      return fail("expected an operand at '" + text.str() + "'");
    skipSpace();
    if (!text.starts_with("(")) {
      if (model.initializers.count(token))
        return lookup(token);
      double number;
      if (!token.getAsDouble(number))
        return Value{{}, {number}};
      return lookup(token);
    }
    expect('(');
    std::optional<Value> result;
    if (token == "add" || token == "sub" || token == "mul" || token == "div") {
      std::optional<Value> lhs = parseExpr();
      if (!lhs || !expect(','))
        return std::nullopt;
      std::optional<Value> rhs = parseExpr();
      if (!rhs)
        return std::nullopt;
      result = broadcast(token, *lhs, *rhs);
    } else if (token == "sqrt") {
      result = parseExpr();
      if (result)
        for (double &x : result->data)
          x = std::sqrt(x);
    } else if (token == "transpose" || token == "reshape" ||
               token == "reverse") {
      std::optional<Value> input = parseExpr();
      if (!input || !expect(','))
        return std::nullopt;
      std::optional<std::vector<int64_t>> list = parseList();
      if (!list)
        return std::nullopt;
      result = token == "transpose" ? transpose(*input, *list)
               : token == "reshape" ? reshape(*input, *list)
                                    : reverse(*input, *list);
    } else if (token == "slice") {
      std::optional<Value> input = parseExpr();
      if (!input || !expect(','))
        return std::nullopt;
      std::optional<std::vector<int64_t>> starts = parseList();
      if (!starts || !expect(','))
        return std::nullopt;
      std::optional<std::vector<int64_t>> sizes = parseList();
      if (!sizes)
        return std::nullopt;
      std::vector<int64_t> steps(sizes->size(), 1);
      if (consume(',')) {
        std::optional<std::vector<int64_t>> given = parseList();
        if (!given)
          return std::nullopt;
        steps = *given;
      }
      result = slice(*input, *starts, *sizes, steps);
    } else if (token == "cast") {
      // Values are doubles here; the final store rounds to the argument's
      // element type.
      result = parseExpr();
      if (result && (!expect(',') || parseToken().empty()))
        return fail("cast needs a target type");
    } else {
      return fail("unknown recipe function '" + token.str() + "'");
    }
    if (!result || !expect(')'))
      return std::nullopt;
    return result;
  }

  std::optional<Value> broadcast(llvm::StringRef op, const Value &lhs,
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
        return fail("cannot broadcast operands of " + op.str());
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

  std::optional<Value> transpose(const Value &input,
                                 const std::vector<int64_t> &perm) {
    if (perm.size() != input.shape.size())
      return fail("transpose permutation rank mismatch");
    Value out;
    for (int64_t p : perm) {
      if (p < 0 || p >= int64_t(perm.size()))
        return fail("bad transpose permutation");
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

  std::optional<Value> reshape(Value input, const std::vector<int64_t> &shape) {
    if (mlir::ShapedType::getNumElements(shape) != int64_t(input.data.size()))
      return fail("reshape changes the element count");
    input.shape = shape;
    return input;
  }

  std::optional<Value> reverse(const Value &input,
                               const std::vector<int64_t> &axes) {
    int64_t rank = input.shape.size();
    std::vector<bool> reversed(rank, false);
    for (int64_t axis : axes) {
      if (axis < 0 || axis >= rank)
        return fail("reverse axis " + std::to_string(axis) +
                    " out of range for rank " + std::to_string(rank));
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

  std::optional<Value> slice(const Value &input,
                             const std::vector<int64_t> &starts,
                             const std::vector<int64_t> &sizes,
                             const std::vector<int64_t> &steps) {
    size_t rank = input.shape.size();
    if (starts.size() != rank || sizes.size() != rank || steps.size() != rank)
      return fail("slice rank mismatch");
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
          return fail("slice out of bounds");
        source += index * is[d];
      }
      out.data[n] = input.data[source];
    }
    return out;
  }

  llvm::StringRef text;
  const ParameterData::Model &model;
  std::string &error;
};
} // namespace

ParameterData::ParameterData(std::unique_ptr<Model> model)
    : model(std::move(model)) {}
ParameterData::ParameterData(ParameterData &&) = default;
ParameterData &ParameterData::operator=(ParameterData &&) = default;
ParameterData::~ParameterData() = default;

std::optional<ParameterData> ParameterData::open(llvm::StringRef path,
                                                 std::string &error) {
  auto model = std::make_unique<Model>();
  llvm::Expected<onnx::ModelProto> proto = onnx_import::readOnnxModel(path);
  if (!proto) {
    error = llvm::toString(proto.takeError());
    return std::nullopt;
  }
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

std::optional<HostArray>
ParameterData::evaluate(llvm::StringRef name, llvm::StringRef recipe,
                        ElementType type, const std::vector<int64_t> &shape,
                        std::string &error) const {
  Evaluator evaluator(recipe, *model, error);
  std::optional<Value> value =
      recipe.empty() ? evaluator.lookup(name) : evaluator.parse();
  if (!value)
    return std::nullopt;
  if (mlir::ShapedType::getNumElements(value->shape) !=
          mlir::ShapedType::getNumElements(shape) ||
      (value->shape != shape && !recipe.empty())) {
    error = "parameter '" + (recipe.empty() ? name : recipe).str() + "' has " +
            std::to_string(value->data.size()) +
            " elements in another shape than the argument's";
    return std::nullopt;
  }
  HostArray array(type, shape);
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    array.setDouble(i, value->data[i]);
  return array;
}

} // namespace dispatchlab

//===- ElementwiseOps.cpp - arithmetic, activations, casts, selects -------===//
//
// TOSA has most of these (add, sub, mul, pow, exp, log, erf, tanh, sigmoid,
// reciprocal, negate, clamp, cast, select, equal); Div, Sqrt and LeakyRelu
// become linalg.generic directly. Activations TOSA lacks (HardSigmoid,
// HardSwish, Gelu) are composed from TOSA ops. Operands known at import time
// (shape arithmetic) are folded on the host.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace mlir;
using onnx::TensorProto;

namespace dispatchlab::onnx_import {

/// Index into a tensor of `shape` broadcast to `outIndex`'s rank.
static int64_t broadcastSource(ArrayRef<int64_t> outIndex,
                               ArrayRef<int64_t> shape) {
  int64_t index = 0;
  size_t offset = outIndex.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    index = index * shape[d] + (shape[d] == 1 ? 0 : outIndex[d + offset]);
  return index;
}

/// Evaluates an elementwise op over host tensors with numpy broadcasting.
/// `evaluate` gets the element values as doubles (integers are exact up to
/// 2^53, ample for shape arithmetic) and returns the result element.
static std::optional<HostTensor>
foldElementwise(ArrayRef<const HostTensor *> inputs, int32_t resultType,
                llvm::function_ref<double(ArrayRef<double>)> evaluate) {
  SmallVector<int64_t> shape;
  for (const HostTensor *input : inputs) {
    std::optional<SmallVector<int64_t>> merged =
        broadcastShapes(shape, input->shape);
    if (!merged)
      return std::nullopt;
    shape = *merged;
  }
  HostTensor result;
  result.dataType = resultType;
  result.shape = shape;
  SmallVector<int64_t> index(shape.size(), 0);
  SmallVector<double> operands(inputs.size());
  for (int64_t n = 0, e = result.numElements(); n < e; ++n) {
    for (size_t i = 0; i < inputs.size(); ++i)
      operands[i] =
          inputs[i]->getDouble(broadcastSource(index, inputs[i]->shape));
    double value = evaluate(operands);
    if (result.isFloat())
      result.floats.push_back(value);
    else
      result.ints.push_back(static_cast<int64_t>(value));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

/// Folds the node on the host when every input is known at import time.
/// Returns true when folded (or failed: check `failed`).
static bool tryFold(OnnxNode &node, int32_t resultType,
                    llvm::function_ref<double(ArrayRef<double>)> evaluate,
                    LogicalResult &result) {
  if (!node.allInputsFoldable())
    return false;
  SmallVector<const HostTensor *> inputs;
  for (unsigned i = 0; i < node.getNumInputs(); ++i)
    inputs.push_back(&*node.getInput(i).host);
  std::optional<HostTensor> folded =
      foldElementwise(inputs, resultType, evaluate);
  if (!folded) {
    result = node.fail("operand shapes do not broadcast");
    return true;
  }
  node.setHostOutput(0, std::move(*folded));
  result = success();
  return true;
}

/// The broadcast result shape of the node's inputs; fails naming the node.
static FailureOr<SmallVector<int64_t>> resultShape(OnnxNode &node) {
  SmallVector<int64_t> shape;
  for (unsigned i = 0; i < node.getNumInputs(); ++i) {
    std::optional<SmallVector<int64_t>> merged =
        broadcastShapes(shape, node.getInputShape(i));
    if (!merged) {
      (void)node.fail("operand shapes do not broadcast");
      return failure();
    }
    shape = *merged;
  }
  return shape;
}

static bool isFloatTensor(Value value) {
  return isa<FloatType>(getElementTypeOrSelf(value.getType()));
}

template <typename TosaOp>
static LogicalResult lowerBinary(OnnxNode &node,
                                 double (*evaluate)(double, double)) {
  int32_t dataType = toDataType(node.getInputType(0).getElementType());
  LogicalResult folded = success();
  if (tryFold(
          node, dataType,
          [&](ArrayRef<double> v) { return evaluate(v[0], v[1]); }, folded))
    return folded;
  if (failed(resultShape(node)))
    return failure();
  node.setOutput(0, createTosaBinary<TosaOp>(node, node.getInputValue(0),
                                             node.getInputValue(1)));
  return success();
}

static LogicalResult lowerAdd(OnnxNode &node) {
  return lowerBinary<tosa::AddOp>(node,
                                  [](double a, double b) { return a + b; });
}

static LogicalResult lowerSub(OnnxNode &node) {
  return lowerBinary<tosa::SubOp>(node,
                                  [](double a, double b) { return a - b; });
}

static LogicalResult lowerMul(OnnxNode &node) {
  LogicalResult folded = success();
  int32_t dataType = toDataType(node.getInputType(0).getElementType());
  if (tryFold(
          node, dataType, [](ArrayRef<double> v) { return v[0] * v[1]; },
          folded))
    return folded;
  if (failed(resultShape(node)))
    return failure();
  node.setOutput(
      0, createTosaMul(node, node.getInputValue(0), node.getInputValue(1)));
  return success();
}

static LogicalResult lowerDiv(OnnxNode &node) {
  Type elementType = node.getInputType(0).getElementType();
  bool isFloat = isa<FloatType>(elementType);
  LogicalResult folded = success();
  if (tryFold(
          node, toDataType(elementType),
          [&](ArrayRef<double> v) {
            return isFloat ? v[0] / v[1] : std::trunc(v[0] / v[1]);
          },
          folded))
    return folded;
  FailureOr<SmallVector<int64_t>> shape = resultShape(node);
  if (failed(shape))
    return failure();
  // TOSA divides integers only; float division is direct.
  node.setOutput(
      0,
      createElementwise(
          node, {node.getInputValue(0), node.getInputValue(1)}, *shape,
          elementType, [&](OpBuilder &b, Location loc, ValueRange args) {
            if (isFloat)
              return arith::DivFOp::create(b, loc, args[0], args[1])
                  .getResult();
            return arith::DivSIOp::create(b, loc, args[0], args[1]).getResult();
          }));
  return success();
}

static LogicalResult lowerPow(OnnxNode &node) {
  Value base = node.getInputValue(0);
  Value exponent = node.getInputValue(1);
  if (!isFloatTensor(base))
    return node.fail("integer Pow is not supported");
  if (failed(resultShape(node)))
    return failure();
  auto exponentType = cast<RankedTensorType>(exponent.getType());
  Type elementType = node.getInputType(0).getElementType();
  if (exponentType.getElementType() != elementType)
    exponent = tosa::CastOp::create(
        node.builder, node.loc,
        getTensorType(exponentType.getShape(), elementType), exponent);
  node.setOutput(0, createTosaBinary<tosa::PowOp>(node, base, exponent));
  return success();
}

// Equal, Greater and Less to i1. TOSA has no less-than: Less is Greater with
// its operands swapped.
template <typename TosaComparison, bool SwapOperands, typename FoldFn>
static LogicalResult lowerComparison(OnnxNode &node, FoldFn fold) {
  LogicalResult folded = success();
  if (tryFold(node, TensorProto::BOOL, fold, folded))
    return folded;
  if (failed(resultShape(node)))
    return failure();
  Value lhs = node.getInputValue(SwapOperands ? 1 : 0);
  Value rhs = node.getInputValue(SwapOperands ? 0 : 1);
  node.setOutput(0, createTosaBinary<TosaComparison>(node, lhs, rhs,
                                                     node.builder.getI1Type()));
  return success();
}

static LogicalResult lowerEqual(OnnxNode &node) {
  return lowerComparison<tosa::EqualOp, false>(
      node, [](ArrayRef<double> v) { return double(v[0] == v[1]); });
}

static LogicalResult lowerGreater(OnnxNode &node) {
  return lowerComparison<tosa::GreaterOp, false>(
      node, [](ArrayRef<double> v) { return double(v[0] > v[1]); });
}

static LogicalResult lowerLess(OnnxNode &node) {
  return lowerComparison<tosa::GreaterOp, true>(
      node, [](ArrayRef<double> v) { return double(v[0] < v[1]); });
}

static LogicalResult lowerWhere(OnnxNode &node) {
  LogicalResult folded = success();
  int32_t dataType = toDataType(node.getInputType(1).getElementType());
  if (tryFold(
          node, dataType,
          [](ArrayRef<double> v) { return v[0] != 0 ? v[1] : v[2]; }, folded))
    return folded;
  FailureOr<SmallVector<int64_t>> shape = resultShape(node);
  if (failed(shape))
    return failure();
  unsigned rank = shape->size();
  Value condition = expandToRank(node, node.getInputValue(0), rank);
  Value onTrue = expandToRank(node, node.getInputValue(1), rank);
  Value onFalse = expandToRank(node, node.getInputValue(2), rank);
  node.setOutput(
      0, tosa::SelectOp::create(
             node.builder, node.loc,
             getTensorType(*shape, node.getInputType(1).getElementType()),
             condition, onTrue, onFalse));
  return success();
}

template <typename TosaOp> static LogicalResult lowerUnary(OnnxNode &node) {
  if (!isFloatTensor(node.getInputValue(0)))
    return node.fail("only floating-point operands are supported");
  node.setOutput(0, createTosaUnary<TosaOp>(node, node.getInputValue(0)));
  return success();
}

static LogicalResult lowerNeg(OnnxNode &node) {
  if (node.allInputsFoldable()) {
    LogicalResult folded = success();
    tryFold(
        node, node.getInput(0).host->dataType,
        [](ArrayRef<double> v) { return -v[0]; }, folded);
    return folded;
  }
  Value input = node.getInputValue(0);
  node.setOutput(0, tosa::NegateOp::create(node.builder, node.loc,
                                           input.getType(), input));
  return success();
}

/// A float elementwise op TOSA lacks, as a linalg.generic.
static LogicalResult
lowerDirectUnary(OnnxNode &node,
                 llvm::function_ref<Value(OpBuilder &, Location, Value)> fn) {
  Value input = node.getInputValue(0);
  if (!isFloatTensor(input))
    return node.fail("only floating-point operands are supported");
  RankedTensorType type = node.getInputType(0);
  node.setOutput(
      0, createElementwise(node, input, type.getShape(), type.getElementType(),
                           [&](OpBuilder &b, Location loc, ValueRange args) {
                             return fn(b, loc, args[0]);
                           }));
  return success();
}

static LogicalResult lowerSqrt(OnnxNode &node) {
  return lowerDirectUnary(node, [](OpBuilder &b, Location loc, Value x) {
    return math::SqrtOp::create(b, loc, x).getResult();
  });
}

static LogicalResult lowerLeakyRelu(OnnxNode &node) {
  double alpha = node.getFloat("alpha", 0.01f);
  return lowerDirectUnary(node, [&](OpBuilder &b, Location loc, Value x) {
    Value zero =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), 0.0));
    Value slope =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), alpha));
    Value positive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    Value scaled = arith::MulFOp::create(b, loc, x, slope);
    return arith::SelectOp::create(b, loc, positive, x, scaled).getResult();
  });
}

static LogicalResult lowerRelu(OnnxNode &node) {
  Value input = node.getInputValue(0);
  if (!isFloatTensor(input))
    return node.fail("only floating-point operands are supported");
  node.setOutput(0, createTosaClamp(node, input, 0.0,
                                    std::numeric_limits<double>::infinity()));
  return success();
}

/// max(0, min(1, alpha * x + beta)) from TOSA ops.
static Value createHardSigmoid(OnnxNode &node, Value input, double alpha,
                               double beta) {
  auto type = cast<RankedTensorType>(input.getType());
  unsigned rank = type.getRank();
  Type elementType = type.getElementType();
  Value scaled =
      createTosaMul(node, input, createSplat(node, elementType, alpha, rank));
  Value shifted = createTosaBinary<tosa::AddOp>(
      node, scaled, createSplat(node, elementType, beta, rank));
  return createTosaClamp(node, shifted, 0.0, 1.0);
}

static LogicalResult lowerHardSigmoid(OnnxNode &node) {
  Value input = node.getInputValue(0);
  if (!isFloatTensor(input))
    return node.fail("only floating-point operands are supported");
  node.setOutput(0, createHardSigmoid(node, input, node.getFloat("alpha", 0.2f),
                                      node.getFloat("beta", 0.5f)));
  return success();
}

static LogicalResult lowerHardSwish(OnnxNode &node) {
  Value input = node.getInputValue(0);
  if (!isFloatTensor(input))
    return node.fail("only floating-point operands are supported");
  node.setOutput(
      0,
      createTosaMul(node, input, createHardSigmoid(node, input, 1.0 / 6, 0.5)));
  return success();
}

static LogicalResult lowerClip(OnnxNode &node) {
  Value input = node.getInputValue(0);
  if (!isFloatTensor(input))
    return node.fail("only floating-point operands are supported");
  double minValue = -std::numeric_limits<double>::infinity();
  double maxValue = std::numeric_limits<double>::infinity();
  // Opset < 11 has min/max attributes; later opsets optional inputs, which
  // when computed at run time become maximum/minimum ops.
  if (node.getOpset() < 11) {
    minValue = node.getFloat("min", -std::numeric_limits<float>::max());
    maxValue = node.getFloat("max", std::numeric_limits<float>::max());
  }
  Value result = input;
  Value runtimeMin, runtimeMax;
  if (node.hasInput(1)) {
    if (node.getInput(1).host)
      minValue = node.getInput(1).host->getDouble(0);
    else
      runtimeMin = node.getInputValue(1);
  }
  if (node.hasInput(2)) {
    if (node.getInput(2).host)
      maxValue = node.getInput(2).host->getDouble(0);
    else
      runtimeMax = node.getInputValue(2);
  }
  // ONNX defines Clip as Min(max, Max(input, min)): with min > max every
  // value becomes max (and tosa.clamp rejects min > max).
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (!runtimeMin && !runtimeMax) {
    node.setOutput(0, createTosaClamp(node, result,
                                      std::min(minValue, maxValue), maxValue));
    return success();
  }
  result = runtimeMin
               ? createTosaBinary<tosa::MaximumOp>(node, result, runtimeMin)
               : createTosaClamp(node, result, minValue, kInf);
  result = runtimeMax
               ? createTosaBinary<tosa::MinimumOp>(node, result, runtimeMax)
               : createTosaClamp(node, result, -kInf, maxValue);
  node.setOutput(0, result);
  return success();
}

static LogicalResult lowerGelu(OnnxNode &node) {
  Value x = node.getInputValue(0);
  if (!isFloatTensor(x))
    return node.fail("only floating-point operands are supported");
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  Type elementType = type.getElementType();
  auto splat = [&](double value) {
    return createSplat(node, elementType, value, rank);
  };
  std::string approximate = node.getString("approximate", "none");
  Value inner;
  if (approximate == "tanh") {
    // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
    Value cube = createTosaMul(node, createTosaMul(node, x, x), x);
    Value sum = createTosaBinary<tosa::AddOp>(
        node, x, createTosaMul(node, cube, splat(0.044715)));
    inner = createTosaUnary<tosa::TanhOp>(
        node, createTosaMul(node, sum, splat(std::sqrt(2.0 / M_PI))));
  } else if (approximate == "none") {
    inner = createTosaUnary<tosa::ErfOp>(
        node, createTosaMul(node, x, splat(M_SQRT1_2)));
  } else {
    return node.fail("unknown approximate '" + approximate + "'");
  }
  // 0.5 * x * (1 + inner)
  Value onePlus = createTosaBinary<tosa::AddOp>(node, inner, splat(1.0));
  node.setOutput(
      0, createTosaMul(node, createTosaMul(node, x, splat(0.5)), onePlus));
  return success();
}

static LogicalResult lowerCast(OnnxNode &node) {
  int32_t to = node.getInt("to", TensorProto::FLOAT);
  Type elementType = convertDataType(node.graph.getContext(), to);
  if (!elementType)
    return node.fail("unsupported target type " + Twine(to));
  OnnxValue &input = node.getInput(0);
  if (input.isFoldable()) {
    HostTensor result;
    result.dataType = to;
    result.shape = input.host->shape;
    for (int64_t i = 0, e = input.host->numElements(); i < e; ++i) {
      double value = input.host->getDouble(i);
      if (isFloatDataType(to))
        result.floats.push_back(value);
      else if (to == TensorProto::BOOL)
        result.ints.push_back(value != 0);
      else
        result.ints.push_back(input.host->getInt(i));
    }
    node.setHostOutput(0, std::move(result));
    return success();
  }
  if (input.type.getElementType() == elementType) {
    node.setOutput(0, input);
    return success();
  }
  auto type = getTensorType(input.type.getShape(), elementType);
  if (input.isParameter()) {
    node.setOutput(0, deriveParameter(node, input, [&](ArrayRef<Value> weight) {
                     return tosa::CastOp::create(node.builder, node.loc, type,
                                                 weight[0]);
                   }));
    return success();
  }
  node.setOutput(0, tosa::CastOp::create(node.builder, node.loc, type,
                                         node.getInputValue(0)));
  return success();
}

void registerElementwiseOps(OnnxOpTable &table) {
  table["Add"] = lowerAdd;
  table["Sub"] = lowerSub;
  table["Mul"] = lowerMul;
  table["Div"] = lowerDiv;
  table["Pow"] = lowerPow;
  table["Equal"] = lowerEqual;
  table["Greater"] = lowerGreater;
  table["Less"] = lowerLess;
  table["Where"] = lowerWhere;
  table["Sqrt"] = lowerSqrt;
  table["Reciprocal"] = lowerUnary<tosa::ReciprocalOp>;
  table["Neg"] = lowerNeg;
  table["Exp"] = lowerUnary<tosa::ExpOp>;
  table["Log"] = lowerUnary<tosa::LogOp>;
  table["Erf"] = lowerUnary<tosa::ErfOp>;
  table["Tanh"] = lowerUnary<tosa::TanhOp>;
  table["Sigmoid"] = lowerUnary<tosa::SigmoidOp>;
  table["Abs"] = lowerUnary<tosa::AbsOp>;
  table["Relu"] = lowerRelu;
  table["LeakyRelu"] = lowerLeakyRelu;
  table["HardSigmoid"] = lowerHardSigmoid;
  table["HardSwish"] = lowerHardSwish;
  table["Clip"] = lowerClip;
  table["Gelu"] = lowerGelu;
  // onnxruntime's fused Gelu, common in exported transformers.
  table["com.microsoft.Gelu"] = lowerGelu;
  table["Cast"] = lowerCast;
}

} // namespace dispatchlab::onnx_import

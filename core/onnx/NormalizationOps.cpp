//===- NormalizationOps.cpp - BatchNormalization, LayerNorm, Softmax ------===//
//
// TOSA has no normalization ops; they are composed from TOSA reductions and
// elementwise ops. BatchNormalization's per-channel scale and shift depend
// only on weights, so they are derived in the parameter function (or fold
// into the preceding conv, see ConvOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace dispatchlab::onnx_import {

OnnxValue deriveBatchNormScale(OnnxNode &node, const OnnxValue &gamma,
                               const OnnxValue &variance, double epsilon) {
  return deriveParameter(node, {gamma, variance}, [&](ArrayRef<Value> weights) {
    // One op per step, each rounded once: not rsqrt, whose lowering
    // may approximate.
    return createElementwise(
        node, weights, gamma.type.getShape(), gamma.type.getElementType(),
        [&](OpBuilder &builder, Location loc, ValueRange scalars) {
          Value shifted = arith::AddFOp::create(
              builder, loc, scalars[1],
              arith::ConstantOp::create(
                  builder, loc,
                  builder.getFloatAttr(scalars[1].getType(), epsilon)));
          return arith::DivFOp::create(
              builder, loc, scalars[0],
              math::SqrtOp::create(builder, loc, shifted));
        });
  });
}

static LogicalResult lowerBatchNormalization(OnnxNode &node) {
  if (node.getInt("training_mode", 0) || node.getNumOutputs() > 1)
    return node.fail("training mode is not supported");
  RankedTensorType type = node.getInputType(0);
  int64_t rank = type.getRank();
  if (rank < 2)
    return node.fail("input must have a channel dim");
  int64_t channels = type.getDimSize(1);
  Type elementType = type.getElementType();
  double epsilon = node.getFloat("epsilon", 1e-5f);
  SmallVector<int64_t> channelShape(rank, 1);
  channelShape[1] = channels;
  // y = x * scale + shift with scale = gamma / sqrt(var + eps) and
  // shift = beta - mean * scale, both per channel.
  Value scale, shift;
  bool allParameters = true;
  for (unsigned i = 1; i < 5; ++i)
    allParameters &= node.getInput(i).isParameter();
  if (allParameters) {
    OnnxValue gamma = node.getInput(1), beta = node.getInput(2),
              mean = node.getInput(3);
    OnnxValue scaleParam =
        deriveBatchNormScale(node, gamma, node.getInput(4), epsilon);
    OnnxValue shiftParam = deriveParameter(
        node, {beta, mean, scaleParam}, [&](ArrayRef<Value> weights) {
          return createTosaBinary<tosa::SubOp>(
              node, weights[0], createTosaMul(node, weights[1], weights[2]));
        });
    scaleParam = reshapeValue(node, scaleParam, channelShape);
    shiftParam = reshapeValue(node, shiftParam, channelShape);
    scale = node.graph.materialize(scaleParam, node.loc);
    shift = node.graph.materialize(shiftParam, node.loc);
  } else {
    auto channelValue = [&](unsigned i) {
      OnnxValue reshaped = reshapeValue(node, node.getInput(i), channelShape);
      return node.graph.materialize(reshaped, node.loc);
    };
    Value variance = createTosaBinary<tosa::AddOp>(
        node, channelValue(4), createSplat(node, elementType, epsilon, rank));
    scale = createTosaMul(node, channelValue(1),
                          createTosaUnary<tosa::RsqrtOp>(node, variance));
    shift = createTosaBinary<tosa::SubOp>(
        node, channelValue(2), createTosaMul(node, channelValue(3), scale));
  }
  Value scaled = createTosaMul(node, node.getInputValue(0), scale);
  node.setOutput(0, createTosaBinary<tosa::AddOp>(node, scaled, shift));
  return success();
}

/// Sum of `input` over `axes`, divided by their element count; dims kept.
static Value createMean(OnnxNode &node, Value input, ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t count = 1;
  for (int64_t axis : axes) {
    count *= type.getDimSize(axis);
    input = createTosaReduce<tosa::ReduceSumOp>(node, input, axis);
  }
  return createTosaMul(
      node, input,
      createSplat(node, type.getElementType(), 1.0 / count, type.getRank()));
}

static LogicalResult lowerLayerNormalization(OnnxNode &node) {
  RankedTensorType type = node.getInputType(0);
  int64_t rank = type.getRank();
  FailureOr<int64_t> axis = node.normalizeAxis(node.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  Type elementType = type.getElementType();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(*axis, rank));
  Value x = node.getInputValue(0);
  Value mean = createMean(node, x, axes);
  Value centered = createTosaBinary<tosa::SubOp>(node, x, mean);
  Value variance =
      createMean(node, createTosaMul(node, centered, centered), axes);
  Value invStdDev = createTosaUnary<tosa::RsqrtOp>(
      node, createTosaBinary<tosa::AddOp>(
                node, variance,
                createSplat(node, elementType, node.getFloat("epsilon", 1e-5f),
                            rank)));
  Value result = createTosaMul(node, centered, invStdDev);
  result = createTosaMul(node, result, node.getInputValue(1));
  if (node.hasInput(2))
    result = createTosaBinary<tosa::AddOp>(node, result, node.getInputValue(2));
  node.setOutput(0, result);
  node.setOutput(1, mean);
  node.setOutput(2, invStdDev);
  return success();
}

static LogicalResult lowerSoftmaxLike(OnnxNode &node, bool logarithm) {
  RankedTensorType type = node.getInputType(0);
  int64_t rank = type.getRank();
  bool coerced = node.getOpset() < 13;
  FailureOr<int64_t> axis =
      node.normalizeAxis(node.getInt("axis", coerced ? 1 : -1), rank);
  if (failed(axis))
    return failure();
  Value x = node.getInputValue(0);
  // Before opset 13 the input is flattened to 2-D at `axis` and the softmax
  // runs over the second dim.
  int64_t reduceAxis = *axis;
  if (coerced && *axis != rank - 1) {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d)
      (d < *axis ? outer : inner) *= type.getDimSize(d);
    x = createTosaReshape(node, x, {outer, inner});
    reduceAxis = 1;
  }
  Value max = createTosaReduce<tosa::ReduceMaxOp>(node, x, reduceAxis);
  Value shifted = createTosaBinary<tosa::SubOp>(node, x, max);
  Value exp = createTosaUnary<tosa::ExpOp>(node, shifted);
  Value sum = createTosaReduce<tosa::ReduceSumOp>(node, exp, reduceAxis);
  Value result =
      logarithm ? createTosaBinary<tosa::SubOp>(
                      node, shifted, createTosaUnary<tosa::LogOp>(node, sum))
                : createTosaMul(node, exp,
                                createTosaUnary<tosa::ReciprocalOp>(node, sum));
  node.setOutput(0, createTosaReshape(node, result, type.getShape()));
  return success();
}

static LogicalResult lowerSoftmax(OnnxNode &node) {
  return lowerSoftmaxLike(node, /*logarithm=*/false);
}

static LogicalResult lowerLogSoftmax(OnnxNode &node) {
  return lowerSoftmaxLike(node, /*logarithm=*/true);
}

void registerNormalizationOps(OnnxOpTable &table) {
  table["BatchNormalization"] = lowerBatchNormalization;
  table["LayerNormalization"] = lowerLayerNormalization;
  table["Softmax"] = lowerSoftmax;
  table["LogSoftmax"] = lowerLogSoftmax;
}

} // namespace dispatchlab::onnx_import

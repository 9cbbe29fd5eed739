//===- ConvOps.cpp - convolutions, matrix products and pooling ------------===//
//
// TOSA computes in NHWC with OHWI weights: activations are transposed around
// each conv/pool (tosa-reduce-transposes later cancels the pairs between
// consecutive layers), weights are relaid out in the parameter function
// (OnnxImporter.h). Grouped convolutions that are neither plain nor
// depthwise, which TOSA lacks, become linalg.conv_2d_ngchw_gfchw directly. A
// BatchNormalization whose only input is the conv is folded into the conv's
// weight and bias there.
// ConvTranspose is the matching stride-1 convolution of the input with zeros
// inserted between its elements.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;

namespace dispatchlab::onnx_import {

namespace {
/// Sliding-window geometry of the two spatial dims, in TOSA's terms: ends
/// are adjusted so (in + padBegin + padEnd - span) divides by the stride, as
/// TOSA requires; `crop` input rows/cols are dropped at the end when even a
/// zero end pad leaves a remainder.
struct Window {
  SmallVector<int64_t> kernel, stride, dilation, padBegin, padEnd, crop, out;

  /// TOSA's pad attribute: top, bottom, left, right.
  SmallVector<int64_t> tosaPad() const {
    return {padBegin[0], padEnd[0], padBegin[1], padEnd[1]};
  }
};
} // namespace

/// Fails naming `attribute` when one of its `values` is negative.
static LogicalResult checkNonNegative(OnnxNode &node, StringRef attribute,
                                      ArrayRef<int64_t> values) {
  for (int64_t value : values)
    if (value < 0)
      return node.fail("attribute '" + attribute + "' has a negative value " +
                       Twine(value));
  return success();
}

/// TOSA convolutions and average pools accumulate in f32 or f16 only.
static LogicalResult checkTosaFloatType(OnnxNode &node, Type elementType) {
  if (elementType.isF32() || elementType.isF16())
    return success();
  std::string name;
  llvm::raw_string_ostream(name) << elementType;
  return node.fail("element type " + name +
                   " is not supported (only f32 and f16)");
}

static FailureOr<Window> computeWindow(OnnxNode &node,
                                       ArrayRef<int64_t> inputSpatial,
                                       ArrayRef<int64_t> kernel,
                                       bool ceilMode) {
  size_t n = inputSpatial.size();
  Window window;
  window.kernel.assign(kernel.begin(), kernel.end());
  window.stride = node.getInts("strides").value_or(SmallVector<int64_t>(n, 1));
  window.dilation =
      node.getInts("dilations").value_or(SmallVector<int64_t>(n, 1));
  SmallVector<int64_t> pads =
      node.getInts("pads").value_or(SmallVector<int64_t>(2 * n, 0));
  if (window.stride.size() != n || window.dilation.size() != n ||
      pads.size() != 2 * n) {
    (void)node.fail("strides, dilations or pads do not match " + Twine(n) +
                    " spatial dims");
    return failure();
  }
  // Strides and dilations are positive: checkBeforeInference refused others.
  if (failed(checkNonNegative(node, "pads", pads)))
    return failure();
  std::string autoPad = node.getString("auto_pad", "NOTSET");
  for (size_t i = 0; i < n; ++i) {
    int64_t in = inputSpatial[i], stride = window.stride[i];
    int64_t span = (kernel[i] - 1) * window.dilation[i] + 1;
    int64_t begin = pads[i], end = pads[i + n], out;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      out = (in + stride - 1) / stride;
      int64_t total = std::max<int64_t>(0, (out - 1) * stride + span - in);
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (autoPad == "VALID") {
      begin = end = 0;
      out = (in - span) / stride + 1;
    } else if (autoPad == "NOTSET") {
      int64_t extent = in + begin + end - span;
      out = (ceilMode ? (extent + stride - 1) / stride : extent / stride) + 1;
      // ONNX drops a last window that would start in the end padding.
      if (ceilMode && (out - 1) * stride >= in + begin)
        --out;
    } else {
      (void)node.fail("unknown auto_pad '" + autoPad + "'");
      return failure();
    }
    if (out <= 0) {
      (void)node.fail("the window is larger than the padded input");
      return failure();
    }
    int64_t neededEnd = (out - 1) * stride + span - in - begin;
    window.padBegin.push_back(begin);
    window.padEnd.push_back(std::max<int64_t>(neededEnd, 0));
    window.crop.push_back(std::max<int64_t>(-neededEnd, 0));
    window.out.push_back(out);
  }
  return window;
}

/// Drops `window.crop` trailing rows/cols of an NCHW tensor.
static Value cropNchw(OnnxNode &node, Value input, const Window &window) {
  if (window.crop[0] == 0 && window.crop[1] == 0)
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> size(type.getShape());
  size[2] -= window.crop[0];
  size[3] -= window.crop[1];
  return createTosaSlice(node, input, {0, 0, 0, 0}, size);
}

/// The BatchNormalization reading only `conv`'s output, when it can be folded
/// into the conv's parameters.
static const onnx::NodeProto *findFoldableBatchNorm(OnnxNode &conv) {
  const std::string &output = conv.proto.output(0);
  ArrayRef<const onnx::NodeProto *> users = conv.graph.getUsers(output);
  if (users.size() != 1 || conv.graph.isGraphOutput(output))
    return nullptr;
  const onnx::NodeProto *bn = users.front();
  if (bn->op_type() != "BatchNormalization" || !bn->domain().empty() ||
      bn->input(0) != output || bn->input_size() != 5 ||
      bn->output_size() != 1 || getIntAttribute(*bn, "training_mode", 0))
    return nullptr;
  for (int i = 1; i < 5; ++i) {
    OnnxValue *value = conv.graph.lookup(bn->input(i));
    if (!value || !value->isParameter())
      return nullptr;
  }
  if (!conv.getInput(1).isParameter() ||
      (conv.hasInput(2) && !conv.getInput(2).isParameter()))
    return nullptr;
  return bn;
}

/// A tensor of `shape` filled with zeros: the init of a Linalg contraction,
/// or a canvas to insert into.
static Value createZeros(OnnxNode &node, ArrayRef<int64_t> shape,
                         Type elementType) {
  Value zero = arith::ConstantOp::create(node.builder, node.loc,
                                         node.builder.getZeroAttr(elementType));
  Value init =
      tensor::EmptyOp::create(node.builder, node.loc, shape, elementType);
  return linalg::FillOp::create(node.builder, node.loc, zero, init).result();
}

/// The NCHW `x` zero-padded by `padBegin`/`padEnd` on the spatial dims.
static Value padSpatialWithZeros(OnnxNode &node, Value x,
                                 ArrayRef<int64_t> padBegin,
                                 ArrayRef<int64_t> padEnd) {
  SmallVector<int64_t> low = {0, 0, padBegin[0], padBegin[1]};
  SmallVector<int64_t> high = {0, 0, padEnd[0], padEnd[1]};
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return x;
  auto xType = cast<RankedTensorType>(x.getType());
  Type elementType = xType.getElementType();
  SmallVector<int64_t> padded(xType.getShape());
  for (int d = 0; d < 4; ++d)
    padded[d] += low[d] + high[d];
  Value zero = arith::ConstantOp::create(node.builder, node.loc,
                                         node.builder.getZeroAttr(elementType));
  MLIRContext *context = node.graph.getContext();
  return tensor::PadOp::create(node.builder, node.loc,
                               getTensorType(padded, elementType), x,
                               getAsIndexOpFoldResult(context, low),
                               getAsIndexOpFoldResult(context, high), zero);
}

/// A grouped convolution, which TOSA lacks: linalg's NGCHW/GFCHW
/// convolution of the NCHW `x` zero-padded by `padBegin`/`padEnd` on the
/// spatial dims, with `weight` [groups, out channels / groups, in channels /
/// groups, KH, KW] and an optional bias; the NCHW result.
static Value createGroupedConv(OnnxNode &node, Value x, OnnxValue &weight,
                               int64_t groups, ArrayRef<int64_t> padBegin,
                               ArrayRef<int64_t> padEnd,
                               ArrayRef<int64_t> stride,
                               ArrayRef<int64_t> dilation,
                               std::optional<OnnxValue> &bias) {
  x = padSpatialWithZeros(node, x, padBegin, padEnd);
  auto xType = cast<RankedTensorType>(x.getType());
  Type elementType = xType.getElementType();
  ArrayRef<int64_t> wShape = weight.type.getShape();
  int64_t batch = xType.getDimSize(0), perGroupOut = wShape[1],
          perGroupIn = wShape[2], outChannels = groups * perGroupOut;
  SmallVector<int64_t> out;
  for (int i = 0; i < 2; ++i)
    out.push_back(
        (xType.getDimSize(2 + i) - (wShape[3 + i] - 1) * dilation[i] - 1) /
            stride[i] +
        1);
  Value xg = tensor::ExpandShapeOp::create(
      node.builder, node.loc,
      getTensorType(
          {batch, groups, perGroupIn, xType.getDimSize(2), xType.getDimSize(3)},
          elementType),
      x, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  auto outType =
      getTensorType({batch, groups, perGroupOut, out[0], out[1]}, elementType);
  Value filled = createZeros(node, outType.getShape(), elementType);
  auto conv = linalg::Conv2DNgchwGfchwOp::create(
      node.builder, node.loc, TypeRange{outType},
      ValueRange{xg, node.graph.materialize(weight, node.loc)},
      ValueRange{filled},
      {node.builder.getNamedAttr("strides",
                                 node.builder.getI64TensorAttr(stride)),
       node.builder.getNamedAttr("dilations",
                                 node.builder.getI64TensorAttr(dilation))});
  Value result = tensor::CollapseShapeOp::create(
      node.builder, node.loc,
      getTensorType({batch, outChannels, out[0], out[1]}, elementType),
      conv.getResult(0),
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  if (bias) {
    OnnxValue biasNchw = reshapeValue(node, *bias, {1, outChannels, 1, 1});
    result = createTosaBinary<tosa::AddOp>(
        node, result, node.graph.materialize(biasNchw, node.loc));
  }
  return result;
}

/// The all-zero bias TOSA's convolutions take when the node has none.
static Value createZeroBias(OnnxNode &node, int64_t outChannels,
                            Type elementType) {
  auto biasType = getTensorType({outChannels}, elementType);
  return tosa::ConstOp::create(
      node.builder, node.loc, biasType,
      DenseElementsAttr::get(biasType, node.builder.getZeroAttr(elementType)));
}

/// The window of a 1-D convolution, computed on its one spatial dim, as that
/// of the equivalent 2-D convolution with a unit height.
static Window liftWindowTo2d(const Window &w1) {
  Window w;
  w.kernel = {1, w1.kernel[0]};
  w.stride = {1, w1.stride[0]};
  w.dilation = {1, w1.dilation[0]};
  w.padBegin = {0, w1.padBegin[0]};
  w.padEnd = {0, w1.padEnd[0]};
  w.crop = {0, w1.crop[0]};
  w.out = {1, w1.out[0]};
  return w;
}

/// The window of a convolution whose NCHW `inShape` and OIHW `wShape` are
/// already lifted to 2-D; a 1-D one's attributes cover only the width.
static FailureOr<Window> computeConvWindow(OnnxNode &node,
                                           ArrayRef<int64_t> inShape,
                                           ArrayRef<int64_t> wShape,
                                           bool is1d) {
  if (!is1d)
    return computeWindow(node, inShape.drop_front(2), wShape.drop_front(2),
                         false);
  FailureOr<Window> w1 =
      computeWindow(node, inShape.drop_front(3), wShape.drop_front(3), false);
  if (failed(w1))
    return failure();
  return liftWindowTo2d(*w1);
}

/// Folds `bn` into the conv's weight and bias: the weight scaled per output
/// channel, the bias shifted by the mean, scaled and offset by beta.
static void foldBatchNorm(OnnxNode &node, const onnx::NodeProto &bn,
                          OnnxValue &weight, std::optional<OnnxValue> &bias) {
  OnnxGraph &graph = node.graph;
  OnnxValue scale = deriveBatchNormScale(
      node, *graph.lookup(bn.input(1)), *graph.lookup(bn.input(4)),
      getFloatAttribute(bn, "epsilon", 1e-5f));
  SmallVector<int64_t> scaleShape(weight.type.getRank(), 1);
  scaleShape[0] = weight.type.getDimSize(0);
  OnnxValue channelScale = reshapeValue(node, scale, scaleShape);
  weight = deriveParameter(node, {weight, channelScale},
                           [&](ArrayRef<Value> weights) {
                             return createTosaMul(node, weights[0], weights[1]);
                           });
  SmallVector<OnnxValue> inputs = {*graph.lookup(bn.input(3)), scale,
                                   *graph.lookup(bn.input(2))};
  if (bias)
    inputs.push_back(*bias);
  bias = deriveParameter(node, inputs, [&](ArrayRef<Value> weights) {
    // (bias - mean) * scale + beta; -mean * scale + beta without a bias.
    auto meanType = cast<RankedTensorType>(weights[0].getType());
    Value minuend = bias ? weights[3]
                         : createSplat(node, meanType.getElementType(), 0.0,
                                       meanType.getRank());
    Value shifted = createTosaBinary<tosa::SubOp>(node, minuend, weights[0]);
    return createTosaBinary<tosa::AddOp>(
        node, createTosaMul(node, shifted, weights[1]), weights[2]);
  });
}

/// A plain (groups == 1) or depthwise convolution of the NCHW `x` with the
/// OIHW `weight` through TOSA's NHWC ops; the NCHW result.
static Value createTosaConv(OnnxNode &node, Value x, OnnxValue &weight,
                            std::optional<OnnxValue> &bias,
                            const Window &window, int64_t groups) {
  auto xType = cast<RankedTensorType>(x.getType());
  Type elementType = xType.getElementType();
  ArrayRef<int64_t> wShape = weight.type.getShape();
  int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1),
          outChannels = wShape[0];
  Value biasValue = bias ? node.graph.materialize(*bias, node.loc)
                         : createZeroBias(node, outChannels, elementType);
  Value nhwc = createTosaTranspose(node, x, {0, 2, 3, 1});
  auto resultType = getTensorType(
      {batch, window.out[0], window.out[1], outChannels}, elementType);
  auto pad = node.builder.getDenseI64ArrayAttr(window.tosaPad());
  auto stride = node.builder.getDenseI64ArrayAttr(window.stride);
  auto dilation = node.builder.getDenseI64ArrayAttr(window.dilation);
  auto accType = TypeAttr::get(elementType);
  Value result;
  if (groups == 1) {
    OnnxValue ohwi = transposeValue(node, weight, {0, 2, 3, 1});
    result = tosa::Conv2DOp::create(node.builder, node.loc, resultType, nhwc,
                                    node.graph.materialize(ohwi, node.loc),
                                    biasValue, pad, stride, dilation, accType);
  } else {
    // Depthwise: TOSA wants [KH, KW, C, M] with output channel c * M + m,
    // ONNX's order too.
    int64_t multiplier = outChannels / channels;
    OnnxValue grouped = reshapeValue(
        node, weight, {channels, multiplier, wShape[2], wShape[3]});
    OnnxValue hwcm = transposeValue(node, grouped, {2, 3, 0, 1});
    result = tosa::DepthwiseConv2DOp::create(
        node.builder, node.loc, resultType, nhwc,
        node.graph.materialize(hwcm, node.loc), biasValue, pad, stride,
        dilation, accType);
  }
  return createTosaTranspose(node, result, {0, 3, 1, 2});
}

/// Defines the conv's output, or that of the BatchNormalization folded in.
static void defineConvOutput(OnnxNode &node, const onnx::NodeProto *bn,
                             Value result) {
  if (!bn) {
    node.setOutput(0, result);
    return;
  }
  node.graph.markAbsorbed(bn);
  OnnxValue folded;
  folded.type = cast<RankedTensorType>(result.getType());
  folded.value = result;
  node.graph.define(bn->output(0), std::move(folded));
}

/// A weight whose rank is not the input's is refused here as well as before
/// shape inference (InferenceGuard.h), which knows an input's rank only where
/// it follows from the graph's inputs: the weight's relayouts, in the
/// parameter function, would not verify.
static LogicalResult checkWeightRank(OnnxNode &node) {
  int64_t input = node.getInputType(0).getRank(),
          weight = node.getInputType(1).getRank();
  if (input == weight)
    return success();
  return node.fail("the weight has rank " + Twine(weight) +
                   " but the input has rank " + Twine(input));
}

static LogicalResult lowerConv(OnnxNode &node) {
  RankedTensorType inputType = node.getInputType(0);
  int64_t rank = inputType.getRank();
  if (rank != 3 && rank != 4)
    return node.fail("only 1-D and 2-D convolutions are supported");
  if (failed(checkWeightRank(node)))
    return failure();
  OnnxValue weight = node.getInput(1);
  OnnxValue input = node.getInput(0);
  // 1-D convolutions are 2-D ones with a unit height.
  bool is1d = rank == 3;
  if (is1d) {
    ArrayRef<int64_t> s = inputType.getShape(), w = weight.type.getShape();
    input = reshapeValue(node, input, {s[0], s[1], 1, s[2]});
    weight = reshapeValue(node, weight, {w[0], w[1], 1, w[2]});
  }
  ArrayRef<int64_t> inShape = input.type.getShape();
  ArrayRef<int64_t> wShape = weight.type.getShape();
  int64_t batch = inShape[0], channels = inShape[1], outChannels = wShape[0];
  int64_t groups = node.getInt("group", 1);
  if (groups <= 0 || channels % groups || outChannels % groups ||
      wShape[1] * groups != channels)
    return node.fail("weight shape " + formatList(wShape) + " does not match " +
                     Twine(channels) + " input channels in " + Twine(groups) +
                     " groups");
  FailureOr<Window> window = computeConvWindow(node, inShape, wShape, is1d);
  if (failed(window))
    return failure();

  std::optional<OnnxValue> bias;
  if (node.hasInput(2))
    bias = node.getInput(2);
  if (bias && bias->type.getShape() != ArrayRef<int64_t>{outChannels})
    return node.fail("bias shape " + formatList(bias->type.getShape()) +
                     " does not match " + Twine(outChannels) +
                     " output channels");
  const onnx::NodeProto *bn = findFoldableBatchNorm(node);
  if (bn)
    foldBatchNorm(node, *bn, weight, bias);

  Value x = cropNchw(node, node.graph.materialize(input, node.loc), *window);
  Value result;
  if (groups == 1 || (groups == channels && wShape[1] == 1)) {
    if (failed(checkTosaFloatType(node, inputType.getElementType())))
      return failure();
    result = createTosaConv(node, x, weight, bias, *window, groups);
  } else {
    OnnxValue gfchw = reshapeValue(
        node, weight,
        {groups, outChannels / groups, wShape[1], wShape[2], wShape[3]});
    result = createGroupedConv(node, x, gfchw, groups, window->padBegin,
                               window->padEnd, window->stride, window->dilation,
                               bias);
  }
  if (is1d)
    result =
        createTosaReshape(node, result, {batch, outChannels, window->out[1]});
  defineConvOutput(node, bn, result);
  return success();
}

namespace {
/// ConvTranspose's attributes, checked to cover 2 spatial dims.
struct ConvTransposeAttributes {
  SmallVector<int64_t> stride, dilation, outputPadding, pads;
  std::optional<SmallVector<int64_t>> outputShape;
  std::string autoPad;
};

/// Per spatial dim, the equivalent stride-1 convolution of the
/// zero-inserted input: its zero pads, the rows/cols cropped from the start
/// of its result (where a pad is negative), and the output size.
struct TransposedWindow {
  SmallVector<int64_t> padLow, padHigh, cropStart, out;
};
} // namespace

static FailureOr<ConvTransposeAttributes>
readConvTransposeAttributes(OnnxNode &node) {
  ConvTransposeAttributes a;
  a.stride = node.getInts("strides").value_or(SmallVector<int64_t>{1, 1});
  a.dilation = node.getInts("dilations").value_or(SmallVector<int64_t>{1, 1});
  a.outputPadding =
      node.getInts("output_padding").value_or(SmallVector<int64_t>{0, 0});
  a.pads = node.getInts("pads").value_or(SmallVector<int64_t>{0, 0, 0, 0});
  a.outputShape = node.getInts("output_shape");
  if (a.stride.size() != 2 || a.dilation.size() != 2 ||
      a.outputPadding.size() != 2 || a.pads.size() != 4 ||
      (a.outputShape && a.outputShape->size() < 2)) {
    (void)node.fail("strides, dilations, output_padding, pads or "
                    "output_shape do not match 2 spatial dims");
    return failure();
  }
  // Strides and dilations are positive: checkBeforeInference refused others.
  if (failed(checkNonNegative(node, "output_padding", a.outputPadding)))
    return failure();
  a.autoPad = node.getString("auto_pad", "NOTSET");
  if (a.autoPad != "NOTSET" && a.autoPad != "VALID" &&
      a.autoPad != "SAME_UPPER" && a.autoPad != "SAME_LOWER") {
    (void)node.fail("unknown auto_pad '" + a.autoPad + "'");
    return failure();
  }
  return a;
}

/// The window for the NCHW input shape `in` and IOHW weight shape `w`.
static FailureOr<TransposedWindow>
computeTransposedWindow(OnnxNode &node, const ConvTransposeAttributes &a,
                        ArrayRef<int64_t> in, ArrayRef<int64_t> w) {
  TransposedWindow window;
  for (int i = 0; i < 2; ++i) {
    int64_t span = (w[2 + i] - 1) * a.dilation[i] + 1;
    int64_t full = a.stride[i] * (in[2 + i] - 1) + a.outputPadding[i] + span;
    int64_t begin = a.pads[i], end = a.pads[2 + i];
    if (a.autoPad == "VALID") {
      begin = end = 0;
    } else if (a.outputShape || a.autoPad != "NOTSET") {
      int64_t target = a.outputShape
                           ? (*a.outputShape)[a.outputShape->size() - 2 + i]
                           : in[2 + i] * a.stride[i];
      int64_t total = full - target;
      begin = a.autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    }
    window.out.push_back(full - begin - end);
    if (window.out.back() <= 0) {
      (void)node.fail("the output would be empty");
      return failure();
    }
    int64_t low = span - 1 - begin, high = span - 1 - end + a.outputPadding[i];
    window.padLow.push_back(std::max<int64_t>(low, 0));
    window.padHigh.push_back(std::max<int64_t>(high, 0));
    window.cropStart.push_back(std::max<int64_t>(-low, 0));
  }
  return window;
}

/// `x` with stride - 1 zeros between the elements of its two spatial dims,
/// which start at `hDim`.
static Value insertZerosBetween(OnnxNode &node, Value x,
                                ArrayRef<int64_t> stride, int64_t hDim) {
  if (stride[0] == 1 && stride[1] == 1)
    return x;
  auto xType = cast<RankedTensorType>(x.getType());
  Type elementType = xType.getElementType();
  SmallVector<int64_t> dilated(xType.getShape());
  SmallVector<int64_t> strides(4, 1);
  for (int i = 0; i < 2; ++i) {
    dilated[hDim + i] = (dilated[hDim + i] - 1) * stride[i] + 1;
    strides[hDim + i] = stride[i];
  }
  Value zeros = createZeros(node, dilated, elementType);
  return tensor::InsertSliceOp::create(
      node.builder, node.loc, x, zeros, ValueRange(), ValueRange(),
      ValueRange(), node.builder.getDenseI64ArrayAttr({0, 0, 0, 0}),
      node.builder.getDenseI64ArrayAttr(xType.getShape()),
      node.builder.getDenseI64ArrayAttr(strides));
}

/// The grouped transposed convolution of the zero-inserted NCHW `x`; the
/// NCHW result.
static Value createGroupedConvTranspose(OnnxNode &node, Value x,
                                        OnnxValue &weight, int64_t groups,
                                        ArrayRef<int64_t> dilation,
                                        const TransposedWindow &window) {
  auto xType = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> w = weight.type.getShape();
  int64_t batch = xType.getDimSize(0), outChannels = w[1] * groups;
  // Per group, [C/g, M/g] channels swap to [M/g, C/g].
  int64_t perGroupIn = xType.getDimSize(1) / groups;
  OnnxValue byGroup =
      reshapeValue(node, weight, {groups, perGroupIn, w[1], w[2], w[3]});
  OnnxValue swapped = transposeValue(node, byGroup, {0, 2, 1, 3, 4});
  OnnxValue flipped = reverseValue(node, swapped, {3, 4});
  std::optional<OnnxValue> bias;
  if (node.hasInput(2))
    bias = node.getInput(2);
  Value result = createGroupedConv(node, x, flipped, groups, window.padLow,
                                   window.padHigh, {1, 1}, dilation, bias);
  return createTosaSlice(node, result,
                         {0, 0, window.cropStart[0], window.cropStart[1]},
                         {batch, outChannels, window.out[0], window.out[1]});
}

/// The ungrouped transposed convolution of the zero-inserted NHWC `x`
/// through tosa.conv2d; the NCHW result.
static Value createTosaConvTranspose(OnnxNode &node, Value x, OnnxValue &weight,
                                     ArrayRef<int64_t> dilation,
                                     const TransposedWindow &window) {
  auto xType = cast<RankedTensorType>(x.getType());
  Type elementType = xType.getElementType();
  ArrayRef<int64_t> w = weight.type.getShape();
  int64_t batch = xType.getDimSize(0), outChannels = w[1];
  SmallVector<int64_t> convOut = {batch, 0, 0, outChannels};
  for (int i = 0; i < 2; ++i)
    convOut[1 + i] = xType.getDimSize(1 + i) + window.padLow[i] +
                     window.padHigh[i] - (w[2 + i] - 1) * dilation[i];
  OnnxValue flipped = reverseValue(node, weight, {2, 3});
  OnnxValue ohwi = transposeValue(node, flipped, {1, 2, 3, 0});
  Value bias = node.hasInput(2)
                   ? node.getInputValue(2)
                   : createZeroBias(node, outChannels, elementType);
  Value result = tosa::Conv2DOp::create(
      node.builder, node.loc, getTensorType(convOut, elementType), x,
      node.graph.materialize(ohwi, node.loc), bias,
      node.builder.getDenseI64ArrayAttr({window.padLow[0], window.padHigh[0],
                                         window.padLow[1], window.padHigh[1]}),
      node.builder.getDenseI64ArrayAttr({1, 1}),
      node.builder.getDenseI64ArrayAttr(dilation), TypeAttr::get(elementType));
  result = createTosaSlice(node, result,
                           {0, window.cropStart[0], window.cropStart[1], 0},
                           {batch, window.out[0], window.out[1], outChannels});
  return createTosaTranspose(node, result, {0, 3, 1, 2});
}

/// ConvTranspose as the convolution whose input gradient it is: the input
/// with stride - 1 zeros between elements, padded by the kernel span - 1
/// minus the ONNX pads (plus output_padding at the end), convolved at stride
/// 1 with the spatially flipped kernel, in and out channels swapped (per
/// group). Flip and swap are derived weights; negative pads crop the result.
static LogicalResult lowerConvTranspose(OnnxNode &node) {
  RankedTensorType inputType = node.getInputType(0);
  if (inputType.getRank() != 4)
    return node.fail("only 2-D transposed convolutions are supported");
  if (failed(checkWeightRank(node)))
    return failure();
  OnnxValue weight = node.getInput(1);
  ArrayRef<int64_t> in = inputType.getShape(), w = weight.type.getShape();
  int64_t groups = node.getInt("group", 1);
  if (groups <= 0 || in[1] % groups || w[0] != in[1])
    return node.fail("weight shape " + formatList(w) + " does not match " +
                     Twine(in[1]) + " input channels in " + Twine(groups) +
                     " groups");
  FailureOr<ConvTransposeAttributes> attributes =
      readConvTransposeAttributes(node);
  if (failed(attributes))
    return failure();
  FailureOr<TransposedWindow> window =
      computeTransposedWindow(node, *attributes, in, w);
  if (failed(window))
    return failure();

  // TOSA's convolution is NHWC; grouped ones (linalg's) stay NCHW.
  bool grouped = groups != 1;
  if (!grouped && failed(checkTosaFloatType(node, inputType.getElementType())))
    return failure();
  int64_t outChannels = w[1] * groups;
  if (node.hasInput(2) &&
      node.getInputShape(2) != ArrayRef<int64_t>{outChannels})
    return node.fail("bias shape " + formatList(node.getInputShape(2)) +
                     " does not match " + Twine(outChannels) +
                     " output channels");
  Value x = node.getInputValue(0);
  if (!grouped)
    x = createTosaTranspose(node, x, {0, 2, 3, 1});
  x = insertZerosBetween(node, x, attributes->stride, grouped ? 2 : 1);
  node.setOutput(
      0, grouped ? createGroupedConvTranspose(node, x, weight, groups,
                                              attributes->dilation, *window)
                 : createTosaConvTranspose(node, x, weight,
                                           attributes->dilation, *window));
  return success();
}

/// [M, K] x [K, N] through tosa.matmul's [B, M, K] x [B, K, N] form.
static Value createMatmul3d(OnnxNode &node, OnnxValue &a, OnnxValue &b,
                            int64_t batch, int64_t m, int64_t k, int64_t n) {
  OnnxValue a3 = reshapeValue(node, a, {batch, m, k});
  OnnxValue b3 = reshapeValue(node, b, {batch, k, n});
  Type elementType = a.type.getElementType();
  return tosa::MatMulOp::create(node.builder, node.loc,
                                getTensorType({batch, m, n}, elementType),
                                node.graph.materialize(a3, node.loc),
                                node.graph.materialize(b3, node.loc));
}

/// [M, K] x [K, N] as linalg.matmul. tosa.matmul would add a unit batch dim
/// that neither IREE's own ONNX import (whose unit-batch matmuls
/// ConvertBatchMatmulToMatmul makes 2-D) nor the TF imports of seed 003's
/// tables have, and that unit dim puts reshapes between the product and its
/// elementwise consumers.
static Value createMatmul2d(OnnxNode &node, OnnxValue &a, OnnxValue &b,
                            int64_t m, int64_t k, int64_t n) {
  OnnxValue a2 = reshapeValue(node, a, {m, k});
  OnnxValue b2 = reshapeValue(node, b, {k, n});
  Value init = createZeros(node, {m, n}, a.type.getElementType());
  return linalg::MatmulOp::create(
             node.builder, node.loc, TypeRange{init.getType()},
             ValueRange{node.graph.materialize(a2, node.loc),
                        node.graph.materialize(b2, node.loc)},
             ValueRange{init})
      .getResult(0);
}

/// tosa.matmul of integers takes zero points and widens its accumulator:
/// not what an ONNX MatMul or Gemm of i32 or i64 means.
static LogicalResult checkFloatOperands(OnnxNode &node, const OnnxValue &a) {
  Type elementType = a.type.getElementType();
  if (isa<FloatType>(elementType))
    return success();
  std::string name;
  llvm::raw_string_ostream(name) << elementType;
  return node.fail("integer matrix products are not supported (element type " +
                   name + ")");
}

static LogicalResult lowerGemm(OnnxNode &node) {
  OnnxValue a = node.getInput(0), b = node.getInput(1);
  if (failed(checkFloatOperands(node, a)))
    return failure();
  if (a.type.getRank() != 2 || b.type.getRank() != 2)
    return node.fail("operands must be matrices");
  if (node.getInt("transA", 0))
    a = transposeValue(node, a, {1, 0});
  if (node.getInt("transB", 0))
    b = transposeValue(node, b, {1, 0});
  int64_t m = a.type.getDimSize(0), k = a.type.getDimSize(1),
          n = b.type.getDimSize(1);
  if (b.type.getDimSize(0) != k)
    return node.fail("inner dims differ: " + formatList(a.type.getShape()) +
                     " x " + formatList(b.type.getShape()));
  Type elementType = a.type.getElementType();
  Value result = createMatmul2d(node, a, b, m, k, n);
  double alpha = node.getFloat("alpha", 1.0f),
         beta = node.getFloat("beta", 1.0f);
  if (alpha != 1.0)
    result =
        createTosaMul(node, result, createSplat(node, elementType, alpha, 2));
  if (node.hasInput(2) && beta != 0.0) {
    OnnxValue c = node.getInput(2);
    if (!broadcastShapes(c.type.getShape(), {m, n}))
      return node.fail("C does not broadcast to " + formatList({m, n}));
    if (beta != 1.0 && c.isParameter())
      c = deriveParameter(node, c, [&](ArrayRef<Value> weight) {
        return createTosaMul(
            node, weight[0],
            createSplat(node, elementType, beta, c.type.getRank()));
      });
    Value cValue = node.graph.materialize(c, node.loc);
    if (beta != 1.0 && !c.isParameter())
      cValue = createTosaMul(
          node, cValue, createSplat(node, elementType, beta, c.type.getRank()));
    result = createTosaBinary<tosa::AddOp>(node, result, cValue);
  }
  node.setOutput(0, result);
  return success();
}

static LogicalResult lowerMatMul(OnnxNode &node) {
  OnnxValue a = node.getInput(0), b = node.getInput(1);
  if (failed(checkFloatOperands(node, a)))
    return failure();
  bool vectorA = a.type.getRank() == 1, vectorB = b.type.getRank() == 1;
  if (vectorA)
    a = reshapeValue(node, a, {1, a.type.getDimSize(0)});
  if (vectorB)
    b = reshapeValue(node, b, {b.type.getDimSize(0), 1});
  ArrayRef<int64_t> aShape = a.type.getShape(), bShape = b.type.getShape();
  int64_t m = aShape[aShape.size() - 2], k = aShape.back(), n = bShape.back();
  if (bShape[bShape.size() - 2] != k)
    return node.fail("inner dims differ: " + formatList(aShape) + " x " +
                     formatList(bShape));
  std::optional<SmallVector<int64_t>> batchShape =
      broadcastShapes(aShape.drop_back(2), bShape.drop_back(2));
  if (!batchShape)
    return node.fail("batch dims do not broadcast: " + formatList(aShape) +
                     " x " + formatList(bShape));
  int64_t batch = 1;
  for (int64_t dim : *batchShape)
    batch *= dim;

  Value result;
  if (bShape.size() == 2) {
    // A matrix rhs (a weight, typically) is shared by every batch: fold the
    // batch into M rather than broadcasting the rhs.
    result = createMatmul2d(node, a, b, batch * m, k, n);
  } else {
    auto broadcastTo = [&](OnnxValue &value, int64_t rows, int64_t cols) {
      SmallVector<int64_t> full(*batchShape);
      full.append({rows, cols});
      if (value.type.getShape() == ArrayRef<int64_t>(full))
        return;
      Value expanded = createElementwise(
          node, node.graph.materialize(value, node.loc), full,
          value.type.getElementType(),
          [](OpBuilder &, Location, ValueRange args) { return args[0]; });
      value = OnnxValue();
      value.type = cast<RankedTensorType>(expanded.getType());
      value.value = expanded;
    };
    broadcastTo(a, m, k);
    broadcastTo(b, k, n);
    result = createMatmul3d(node, a, b, batch, m, k, n);
  }
  SmallVector<int64_t> shape(*batchShape);
  if (!vectorA)
    shape.push_back(m);
  if (!vectorB)
    shape.push_back(n);
  node.setOutput(0, createTosaReshape(node, result, shape));
  return success();
}

static FailureOr<SmallVector<int64_t>> readPoolKernel(OnnxNode &node) {
  std::optional<SmallVector<int64_t>> kernel = node.getInts("kernel_shape");
  if (!kernel || kernel->size() != 2) {
    (void)node.fail("kernel_shape must have two dims");
    return failure();
  }
  // Positive: checkBeforeInference refused others.
  return *kernel;
}

static LogicalResult lowerPool(OnnxNode &node, bool isMax) {
  RankedTensorType type = node.getInputType(0);
  if (type.getRank() != 4)
    return node.fail("only 2-D pooling is supported");
  if (node.hasOutput(1))
    return node.fail("the Indices output is not supported");
  FailureOr<SmallVector<int64_t>> kernel = readPoolKernel(node);
  if (failed(kernel) ||
      (!isMax && failed(checkTosaFloatType(node, type.getElementType()))))
    return failure();
  FailureOr<Window> window =
      computeWindow(node, type.getShape().drop_front(2), *kernel,
                    node.getInt("ceil_mode", 0));
  if (failed(window))
    return failure();
  if (llvm::any_of(window->dilation, [](int64_t d) { return d != 1; }))
    return node.fail("dilated pooling is not supported");
  Type elementType = type.getElementType();
  Value x = cropNchw(node, node.getInputValue(0), *window);
  SmallVector<int64_t> pad = window->tosaPad();
  if (!isMax && node.getInt("count_include_pad", 0)) {
    // TOSA's average excludes padding; padding explicitly counts it.
    OnnxValue padded;
    auto xType = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(xType.getShape());
    shape[2] += pad[0] + pad[1];
    shape[3] += pad[2] + pad[3];
    auto constType = getTensorType({1}, elementType);
    Value zero = tosa::ConstOp::create(
        node.builder, node.loc, constType,
        DenseElementsAttr::get(constType,
                               node.builder.getZeroAttr(elementType)));
    ImplicitLocOpBuilder builder(node.loc, node.builder);
    x = tosa::PadOp::create(
        node.builder, node.loc, getTensorType(shape, elementType), x,
        tosa::getTosaConstShape(builder,
                                {0, 0, 0, 0, pad[0], pad[1], pad[2], pad[3]}),
        zero);
    pad.assign(4, 0);
  }
  Value nhwc = createTosaTranspose(node, x, {0, 2, 3, 1});
  auto resultType = getTensorType(
      {type.getDimSize(0), window->out[0], window->out[1], type.getDimSize(1)},
      elementType);
  Value result;
  if (isMax)
    result = tosa::MaxPool2dOp::create(
        node.builder, node.loc, resultType, nhwc,
        node.builder.getDenseI64ArrayAttr(window->kernel),
        node.builder.getDenseI64ArrayAttr(window->stride),
        node.builder.getDenseI64ArrayAttr(pad));
  else
    result = tosa::AvgPool2dOp::create(
        node.builder, node.loc, resultType, nhwc,
        node.builder.getDenseI64ArrayAttr(window->kernel),
        node.builder.getDenseI64ArrayAttr(window->stride),
        node.builder.getDenseI64ArrayAttr(pad), TypeAttr::get(elementType));
  node.setOutput(0, createTosaTranspose(node, result, {0, 3, 1, 2}));
  return success();
}

static LogicalResult lowerMaxPool(OnnxNode &node) {
  return lowerPool(node, /*isMax=*/true);
}

static LogicalResult lowerAveragePool(OnnxNode &node) {
  return lowerPool(node, /*isMax=*/false);
}

/// Global pools reduce every spatial dim channels-last, as the other pools
/// do: the transpose to NHWC then cancels against the one the importer sinks
/// below the producing layer, and each reduction reads whole rows of channels
/// (IREE's CPU backend vectorizes such a reduction along its inner parallel
/// dim). An NCHW reduction of channels-last activations would transpose them
/// first, which took 0.7 ms of EfficientNet-B0's 18 for one 112x112x32 pool.
static LogicalResult lowerGlobalPool(OnnxNode &node, bool isMax) {
  RankedTensorType type = node.getInputType(0);
  int64_t rank = type.getRank();
  SmallVector<int64_t> toChannelsLast = {0};
  for (int64_t axis = 2; axis < rank; ++axis)
    toChannelsLast.push_back(axis);
  toChannelsLast.push_back(1);
  Value result =
      createTosaTranspose(node, node.getInputValue(0), toChannelsLast);
  int64_t count = 1;
  for (int64_t axis = 1; axis < rank - 1; ++axis) {
    count *= type.getDimSize(axis + 1);
    result = isMax ? createTosaReduce<tosa::ReduceMaxOp>(node, result, axis)
                   : createTosaReduce<tosa::ReduceSumOp>(node, result, axis);
  }
  if (!isMax)
    result = createTosaMul(
        node, result,
        createSplat(node, type.getElementType(), 1.0 / count, rank));
  // [N, 1.., C] to [N, C, 1..]: a reshape, as only unit dims move.
  SmallVector<int64_t> shape(rank, 1);
  shape[0] = type.getDimSize(0);
  shape[1] = type.getDimSize(1);
  node.setOutput(0, createTosaReshape(node, result, shape));
  return success();
}

static LogicalResult lowerGlobalAveragePool(OnnxNode &node) {
  return lowerGlobalPool(node, /*isMax=*/false);
}

static LogicalResult lowerGlobalMaxPool(OnnxNode &node) {
  return lowerGlobalPool(node, /*isMax=*/true);
}

void registerConvOps(OnnxOpTable &table) {
  table["Conv"] = lowerConv;
  table["ConvTranspose"] = lowerConvTranspose;
  table["Gemm"] = lowerGemm;
  table["MatMul"] = lowerMatMul;
  table["MaxPool"] = lowerMaxPool;
  table["AveragePool"] = lowerAveragePool;
  table["GlobalAveragePool"] = lowerGlobalAveragePool;
  table["GlobalMaxPool"] = lowerGlobalMaxPool;
}

} // namespace dispatchlab::onnx_import

//===- ResizeOps.cpp - Resize (nearest and linear interpolation) ----------===//
//
// TOSA's resize is NHWC-only with rational scales and no half_pixel rounding
// modes, so Resize becomes one linalg.generic over the output that computes
// each resized dim's source coordinate from linalg.index and gathers with
// tensor.extract: one element for nearest, 2^k corners blended for linear
// over k resized dims (what IREE's own ONNX importer emits, too). Scales and
// sizes must be known at import time, which the static shapes guarantee for
// exported models.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace dispatchlab::onnx_import {

namespace {
/// The source coordinate of output index x along one dim is
/// (x * multiplier + offset) / divisor + bias, which covers every supported
/// coordinate_transformation_mode with exact integer factors when the output
/// size was given (scale = out / in).
struct Coordinate {
  int64_t inSize = 1;
  double multiplier = 1, offset = 0, divisor = 1, bias = 0;
  bool resized = false;
};
} // namespace

static FailureOr<Coordinate> computeCoordinate(OnnxNode &node,
                                               StringRef transform,
                                               int64_t inSize, int64_t outSize,
                                               std::optional<double> scale) {
  Coordinate c;
  c.inSize = inSize;
  c.resized = scale ? *scale != 1.0 : inSize != outSize;
  // With sizes, scale = out / in, kept as the exact ratio in / out.
  double m = scale ? 1.0 : static_cast<double>(inSize);
  double s = scale ? *scale : static_cast<double>(outSize);
  if (transform == "half_pixel" ||
      (transform == "pytorch_half_pixel" && outSize > 1)) {
    c = {inSize, m, 0.5 * m, s, -0.5, c.resized};
  } else if (transform == "pytorch_half_pixel" ||
             (transform == "align_corners" && outSize == 1)) {
    // A one-element output reads source index 0, the output index itself.
    c.resized = false;
  } else if (transform == "align_corners") {
    c = {inSize, static_cast<double>(inSize - 1),
         0,      static_cast<double>(outSize - 1),
         0,      c.resized};
  } else if (transform == "asymmetric") {
    c = {inSize, m, 0, s, 0, c.resized};
  } else if (transform == "tf_half_pixel_for_nearest") {
    c = {inSize, m, 0.5 * m, s, 0, c.resized};
  } else {
    (void)node.fail("coordinate_transformation_mode '" + transform +
                    "' is not supported");
    return failure();
  }
  return c;
}

namespace {
/// Resize's interpolation: nearest (rounded by `nearestMode`) or linear.
struct ResizeMode {
  bool linear = false;
  std::string nearestMode;
};

/// The output shape and, where `scales` rather than `sizes` gave it, each
/// dim's scale.
struct ResizeTarget {
  SmallVector<int64_t> shape;
  SmallVector<std::optional<double>> scales;
};
} // namespace

static FailureOr<ResizeMode> readResizeMode(OnnxNode &node) {
  std::string mode = node.getString("mode", "nearest");
  if (mode != "nearest" && mode != "linear") {
    (void)node.fail("mode '" + mode + "' is not supported");
    return failure();
  }
  std::string nearestMode =
      node.getString("nearest_mode", "round_prefer_floor");
  if (nearestMode != "round_prefer_floor" &&
      nearestMode != "round_prefer_ceil" && nearestMode != "floor" &&
      nearestMode != "ceil") {
    (void)node.fail("nearest_mode '" + nearestMode + "' is not supported");
    return failure();
  }
  if (node.getInt("antialias", 0) || node.getInts("axes") ||
      node.getString("keep_aspect_ratio_policy", "stretch") != "stretch") {
    (void)node.fail("antialias, axes and keep_aspect_ratio_policy are not "
                    "supported");
    return failure();
  }
  return ResizeMode{mode == "linear", nearestMode};
}

static FailureOr<ResizeTarget> readResizeTarget(OnnxNode &node,
                                                ArrayRef<int64_t> inShape) {
  // Opset 10 has (X, scales); later opsets (X, roi, scales, sizes), with
  // unused ones empty names or empty tensors.
  bool opset10 = node.getOpset() < 11;
  auto given = [&](unsigned i) {
    return node.hasInput(i) && node.getInputType(i).getNumElements() > 0;
  };
  int64_t rank = inShape.size();
  ResizeTarget target;
  target.scales.resize(rank);
  if (!opset10 && given(3)) {
    FailureOr<SmallVector<int64_t>> sizes = node.getConstantInts(3, "sizes");
    if (failed(sizes))
      return failure();
    target.shape = *sizes;
  } else if (given(opset10 ? 1 : 2)) {
    FailureOr<HostTensor> values = node.getConstant(opset10 ? 1 : 2, "scales");
    if (failed(values))
      return failure();
    for (int64_t d = 0; d < values->numElements() && d < rank; ++d) {
      target.scales[d] = values->getDouble(d);
      target.shape.push_back(
          static_cast<int64_t>(std::floor(inShape[d] * *target.scales[d])));
    }
  } else {
    (void)node.fail("needs scales or sizes");
    return failure();
  }
  if (static_cast<int64_t>(target.shape.size()) != rank ||
      llvm::any_of(target.shape, [](int64_t d) { return d <= 0; })) {
    (void)node.fail("output shape " + formatList(target.shape) +
                    " does not match the input's rank " + Twine(rank));
    return failure();
  }
  return target;
}

static FailureOr<SmallVector<Coordinate>>
computeCoordinates(OnnxNode &node, ArrayRef<int64_t> inShape,
                   const ResizeTarget &target) {
  std::string transform =
      node.getString("coordinate_transformation_mode", "half_pixel");
  SmallVector<Coordinate> coordinates;
  for (size_t d = 0; d < inShape.size(); ++d) {
    FailureOr<Coordinate> c = computeCoordinate(
        node, transform, inShape[d], target.shape[d], target.scales[d]);
    if (failed(c))
      return failure();
    coordinates.push_back(*c);
  }
  return coordinates;
}

namespace {
/// Where one output dim reads the input: the lower (or only) index and, for
/// a dim that linear interpolation blends, the upper index and its weight.
struct SourceIndex {
  Value low, high, weight;
};

/// Builds the body of Resize's linalg.generic, which computes one output
/// element.
class ResizeBodyBuilder {
public:
  ResizeBodyBuilder(OpBuilder &b, Location loc, const ResizeMode &mode,
                    FloatType elementType)
      : b(b), loc(loc), mode(mode), elementType(elementType) {}

  void build(Value input, ArrayRef<Coordinate> coordinates);

private:
  Value f32Constant(double v);
  Value i64Constant(int64_t v);
  /// An i64 source index clamped to the input, as an index.
  Value clampIndex(Value i, int64_t size);
  /// The f32 source coordinate of output index `index` (see Coordinate).
  Value sourceCoordinate(Value index, const Coordinate &c);
  Value roundNearest(Value x);
  SourceIndex mapIndex(int64_t d, const Coordinate &c);
  /// Corner k takes the high index on blended dim j when bit j is set.
  SmallVector<Value> gatherCorners(Value input, ArrayRef<SourceIndex> sources,
                                   ArrayRef<int64_t> blended);
  /// Lerps the corners pairwise, one blended dim at a time.
  Value blendCorners(SmallVector<Value> corners, ArrayRef<SourceIndex> sources,
                     ArrayRef<int64_t> blended);

  OpBuilder &b;
  Location loc;
  const ResizeMode &mode;
  FloatType elementType;
};
} // namespace

void ResizeBodyBuilder::build(Value input, ArrayRef<Coordinate> coordinates) {
  SmallVector<SourceIndex> sources;
  for (auto [d, c] : llvm::enumerate(coordinates))
    sources.push_back(mapIndex(d, c));
  SmallVector<int64_t> blended;
  for (auto [d, source] : llvm::enumerate(sources))
    if (source.weight)
      blended.push_back(d);
  SmallVector<Value> corners = gatherCorners(input, sources, blended);
  linalg::YieldOp::create(b, loc, blendCorners(corners, sources, blended));
}

Value ResizeBodyBuilder::f32Constant(double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value ResizeBodyBuilder::i64Constant(int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

Value ResizeBodyBuilder::clampIndex(Value i, int64_t size) {
  i = arith::MaxSIOp::create(b, loc, i, i64Constant(0));
  i = arith::MinSIOp::create(b, loc, i, i64Constant(size - 1));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
}

Value ResizeBodyBuilder::sourceCoordinate(Value index, const Coordinate &c) {
  Value x = arith::SIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
  if (c.multiplier != 1)
    x = arith::MulFOp::create(b, loc, x, f32Constant(c.multiplier));
  if (c.offset != 0)
    x = arith::AddFOp::create(b, loc, x, f32Constant(c.offset));
  if (c.divisor != 1)
    x = arith::DivFOp::create(b, loc, x, f32Constant(c.divisor));
  if (c.bias != 0)
    x = arith::AddFOp::create(b, loc, x, f32Constant(c.bias));
  return x;
}

Value ResizeBodyBuilder::roundNearest(Value x) {
  // round_prefer_floor rounds halves down: ceil(x - 0.5).
  if (mode.nearestMode == "round_prefer_floor")
    return math::CeilOp::create(
        b, loc, arith::SubFOp::create(b, loc, x, f32Constant(0.5)));
  if (mode.nearestMode == "round_prefer_ceil")
    return math::FloorOp::create(
        b, loc, arith::AddFOp::create(b, loc, x, f32Constant(0.5)));
  if (mode.nearestMode == "floor")
    return math::FloorOp::create(b, loc, x);
  return math::CeilOp::create(b, loc, x);
}

SourceIndex ResizeBodyBuilder::mapIndex(int64_t d, const Coordinate &c) {
  Value index = linalg::IndexOp::create(b, loc, d);
  if (!c.resized)
    return {index, index, Value()};
  Type i64 = b.getI64Type();
  Value x = sourceCoordinate(index, c);
  if (!mode.linear)
    return {clampIndex(arith::FPToSIOp::create(b, loc, i64, roundNearest(x)),
                       c.inSize),
            Value(), Value()};
  // Out-of-range neighbours repeat the edge, as ONNX's reference.
  Value floor = math::FloorOp::create(b, loc, x);
  Value i0 = arith::FPToSIOp::create(b, loc, i64, floor);
  Value i1 = arith::AddIOp::create(b, loc, i0, i64Constant(1));
  SourceIndex source;
  source.low = clampIndex(i0, c.inSize);
  source.high = clampIndex(i1, c.inSize);
  Value t = arith::SubFOp::create(b, loc, x, floor);
  if (elementType.getWidth() < 32)
    t = arith::TruncFOp::create(b, loc, elementType, t);
  else if (elementType.getWidth() > 32)
    t = arith::ExtFOp::create(b, loc, elementType, t);
  source.weight = t;
  return source;
}

SmallVector<Value>
ResizeBodyBuilder::gatherCorners(Value input, ArrayRef<SourceIndex> sources,
                                 ArrayRef<int64_t> blended) {
  SmallVector<Value> low;
  for (const SourceIndex &source : sources)
    low.push_back(source.low);
  SmallVector<Value> corners;
  for (int64_t k = 0; k < (int64_t(1) << blended.size()); ++k) {
    SmallVector<Value> position(low);
    for (size_t j = 0; j < blended.size(); ++j)
      if (k & (int64_t(1) << j))
        position[blended[j]] = sources[blended[j]].high;
    corners.push_back(tensor::ExtractOp::create(b, loc, input, position));
  }
  return corners;
}

Value ResizeBodyBuilder::blendCorners(SmallVector<Value> corners,
                                      ArrayRef<SourceIndex> sources,
                                      ArrayRef<int64_t> blended) {
  for (int64_t d : blended) {
    Value t = sources[d].weight;
    SmallVector<Value> next;
    for (size_t k = 0; k < corners.size(); k += 2) {
      Value diff = arith::SubFOp::create(b, loc, corners[k + 1], corners[k]);
      next.push_back(arith::AddFOp::create(
          b, loc, corners[k], arith::MulFOp::create(b, loc, t, diff)));
    }
    corners = std::move(next);
  }
  return corners.front();
}

static LogicalResult lowerResize(OnnxNode &node) {
  RankedTensorType type = node.getInputType(0);
  auto elementType = dyn_cast<FloatType>(type.getElementType());
  if (!elementType)
    return node.fail("only floating-point inputs are supported");
  FailureOr<ResizeMode> mode = readResizeMode(node);
  if (failed(mode))
    return failure();
  FailureOr<ResizeTarget> target = readResizeTarget(node, type.getShape());
  if (failed(target))
    return failure();
  FailureOr<SmallVector<Coordinate>> coordinates =
      computeCoordinates(node, type.getShape(), *target);
  if (failed(coordinates))
    return failure();

  Value input = node.getInputValue(0);
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(node.builder, node.loc, target->shape,
                                       elementType);
  auto generic = linalg::GenericOp::create(
      node.builder, node.loc, init.getType(), ValueRange(), init,
      AffineMap::getMultiDimIdentityMap(rank, node.graph.getContext()),
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange) {
        ResizeBodyBuilder(b, loc, *mode, elementType)
            .build(input, *coordinates);
      });
  node.setOutput(0, generic.getResult(0));
  return success();
}

void registerResizeOps(OnnxOpTable &table) { table["Resize"] = lowerResize; }

} // namespace dispatchlab::onnx_import

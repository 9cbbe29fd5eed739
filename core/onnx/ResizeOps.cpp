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

static LogicalResult lowerResize(OnnxNode &node) {
  RankedTensorType type = node.getInputType(0);
  auto elementType = dyn_cast<FloatType>(type.getElementType());
  if (!elementType)
    return node.fail("only floating-point inputs are supported");
  std::string mode = node.getString("mode", "nearest");
  if (mode != "nearest" && mode != "linear")
    return node.fail("mode '" + mode + "' is not supported");
  std::string nearestMode =
      node.getString("nearest_mode", "round_prefer_floor");
  if (nearestMode != "round_prefer_floor" &&
      nearestMode != "round_prefer_ceil" && nearestMode != "floor" &&
      nearestMode != "ceil")
    return node.fail("nearest_mode '" + nearestMode + "' is not supported");
  if (node.getInt("antialias", 0) || node.getInts("axes") ||
      node.getString("keep_aspect_ratio_policy", "stretch") != "stretch")
    return node.fail("antialias, axes and keep_aspect_ratio_policy are not "
                     "supported");
  // Opset 10 has (X, scales); later opsets (X, roi, scales, sizes), with
  // unused ones empty names or empty tensors.
  bool opset10 = node.getOpset() < 11;
  auto given = [&](unsigned i) {
    return node.hasInput(i) && node.getInputType(i).getNumElements() > 0;
  };
  ArrayRef<int64_t> inShape = type.getShape();
  int64_t rank = inShape.size();
  SmallVector<int64_t> outShape;
  SmallVector<std::optional<double>> scales(rank);
  if (!opset10 && given(3)) {
    FailureOr<SmallVector<int64_t>> sizes = node.getConstantInts(3, "sizes");
    if (failed(sizes))
      return failure();
    outShape = *sizes;
  } else if (given(opset10 ? 1 : 2)) {
    FailureOr<HostTensor> values = node.getConstant(opset10 ? 1 : 2, "scales");
    if (failed(values))
      return failure();
    for (int64_t d = 0; d < values->numElements() && d < rank; ++d) {
      scales[d] = values->getDouble(d);
      outShape.push_back(
          static_cast<int64_t>(std::floor(inShape[d] * *scales[d])));
    }
  } else {
    return node.fail("needs scales or sizes");
  }
  if (static_cast<int64_t>(outShape.size()) != rank ||
      llvm::any_of(outShape, [](int64_t d) { return d <= 0; }))
    return node.fail("output shape " + formatList(outShape) +
                     " does not match the input's rank " + Twine(rank));

  std::string transform =
      node.getString("coordinate_transformation_mode", "half_pixel");
  SmallVector<Coordinate> coordinates;
  for (int64_t d = 0; d < rank; ++d) {
    FailureOr<Coordinate> c =
        computeCoordinate(node, transform, inShape[d], outShape[d], scales[d]);
    if (failed(c))
      return failure();
    coordinates.push_back(*c);
  }

  Value input = node.getInputValue(0);
  bool linear = mode == "linear";
  MLIRContext *context = node.graph.getContext();
  Value init =
      tensor::EmptyOp::create(node.builder, node.loc, outShape, elementType);
  auto generic = linalg::GenericOp::create(
      node.builder, node.loc, init.getType(), ValueRange(), init,
      AffineMap::getMultiDimIdentityMap(rank, context),
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange) {
        Type f32 = b.getF32Type(), i64 = b.getI64Type();
        auto f32Constant = [&](double v) -> Value {
          return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
        };
        auto i64Constant = [&](int64_t v) -> Value {
          return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
        };
        // An i64 source index clamped to the input, as an index.
        auto clampIndex = [&](Value i, int64_t size) -> Value {
          i = arith::MaxSIOp::create(b, loc, i, i64Constant(0));
          i = arith::MinSIOp::create(b, loc, i, i64Constant(size - 1));
          return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
        };
        // Per dim: the lower (or only) source index, for linear also the
        // upper one and the upper one's weight.
        SmallVector<Value> low, high, weight;
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(b, loc, d);
          const Coordinate &c = coordinates[d];
          if (!c.resized) {
            low.push_back(index);
            high.push_back(index);
            weight.push_back(Value());
            continue;
          }
          Value x = arith::SIToFPOp::create(
              b, loc, f32, arith::IndexCastOp::create(b, loc, i64, index));
          if (c.multiplier != 1)
            x = arith::MulFOp::create(b, loc, x, f32Constant(c.multiplier));
          if (c.offset != 0)
            x = arith::AddFOp::create(b, loc, x, f32Constant(c.offset));
          if (c.divisor != 1)
            x = arith::DivFOp::create(b, loc, x, f32Constant(c.divisor));
          if (c.bias != 0)
            x = arith::AddFOp::create(b, loc, x, f32Constant(c.bias));
          if (!linear) {
            // round_prefer_floor rounds halves down: ceil(x - 0.5).
            if (nearestMode == "round_prefer_floor")
              x = math::CeilOp::create(
                  b, loc, arith::SubFOp::create(b, loc, x, f32Constant(0.5)));
            else if (nearestMode == "round_prefer_ceil")
              x = math::FloorOp::create(
                  b, loc, arith::AddFOp::create(b, loc, x, f32Constant(0.5)));
            else if (nearestMode == "floor")
              x = math::FloorOp::create(b, loc, x);
            else
              x = math::CeilOp::create(b, loc, x);
            low.push_back(
                clampIndex(arith::FPToSIOp::create(b, loc, i64, x), c.inSize));
            high.push_back(Value());
            weight.push_back(Value());
            continue;
          }
          // Out-of-range neighbours repeat the edge, as ONNX's reference.
          Value floor = math::FloorOp::create(b, loc, x);
          Value i0 = arith::FPToSIOp::create(b, loc, i64, floor);
          Value i1 = arith::AddIOp::create(b, loc, i0, i64Constant(1));
          low.push_back(clampIndex(i0, c.inSize));
          high.push_back(clampIndex(i1, c.inSize));
          Value t = arith::SubFOp::create(b, loc, x, floor);
          if (elementType.getWidth() < 32)
            t = arith::TruncFOp::create(b, loc, elementType, t);
          else if (elementType.getWidth() > 32)
            t = arith::ExtFOp::create(b, loc, elementType, t);
          weight.push_back(t);
        }
        SmallVector<int64_t> blended;
        for (int64_t d = 0; d < rank; ++d)
          if (weight[d])
            blended.push_back(d);
        // Corner k takes the high index on blended dim j when bit j is set.
        SmallVector<Value> corners;
        for (int64_t k = 0; k < (int64_t(1) << blended.size()); ++k) {
          SmallVector<Value> position(low);
          for (size_t j = 0; j < blended.size(); ++j)
            if (k & (int64_t(1) << j))
              position[blended[j]] = high[blended[j]];
          corners.push_back(tensor::ExtractOp::create(b, loc, input, position));
        }
        // Lerp the corners pairwise, one blended dim at a time.
        for (size_t j = 0; j < blended.size(); ++j) {
          Value t = weight[blended[j]];
          SmallVector<Value> next;
          for (size_t k = 0; k < corners.size(); k += 2) {
            Value diff =
                arith::SubFOp::create(b, loc, corners[k + 1], corners[k]);
            next.push_back(arith::AddFOp::create(
                b, loc, corners[k], arith::MulFOp::create(b, loc, t, diff)));
          }
          corners = std::move(next);
        }
        linalg::YieldOp::create(b, loc, corners.front());
      });
  node.setOutput(0, generic.getResult(0));
  return success();
}

void registerResizeOps(OnnxOpTable &table) { table["Resize"] = lowerResize; }

} // namespace dispatchlab::onnx_import

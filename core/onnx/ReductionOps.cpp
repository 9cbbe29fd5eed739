//===- ReductionOps.cpp - ReduceSum, ReduceMean, ReduceMax, ReduceMin -----===//
//
// One TOSA reduction per axis (TOSA reduces a single axis, keeping it as a
// unit dim), then a reshape when keepdims=0.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

using namespace mlir;

namespace dispatchlab::onnx_import {

namespace {
enum class Reduction { Sum, Mean, Max, Min };
} // namespace

static LogicalResult lowerReduce(OnnxNode &node, Reduction kind) {
  RankedTensorType type = node.getInputType(0);
  int64_t rank = type.getRank();
  // Axes moved from attribute to input in opset 13 (ReduceSum) and 18 (the
  // others).
  int64_t inputOpset = kind == Reduction::Sum ? 13 : 18;
  SmallVector<int64_t> axes;
  if (node.getOpset() < inputOpset) {
    axes = node.getInts("axes").value_or(SmallVector<int64_t>());
  } else if (node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> given = node.getConstantInts(1, "axes");
    if (failed(given))
      return failure();
    axes = *given;
  }
  if (axes.empty()) {
    if (node.getInt("noop_with_empty_axes", 0)) {
      node.setOutput(0, node.getInput(0));
      return success();
    }
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  SmallVector<int64_t> reduced;
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    reduced.push_back(*normalized);
  }
  llvm::sort(reduced);
  reduced.erase(llvm::unique(reduced), reduced.end());
  Value result = node.getInputValue(0);
  int64_t count = 1;
  for (int64_t axis : reduced) {
    count *= type.getDimSize(axis);
    switch (kind) {
    case Reduction::Sum:
    case Reduction::Mean:
      result = createTosaReduce<tosa::ReduceSumOp>(node, result, axis);
      break;
    case Reduction::Max:
      result = createTosaReduce<tosa::ReduceMaxOp>(node, result, axis);
      break;
    case Reduction::Min:
      result = createTosaReduce<tosa::ReduceMinOp>(node, result, axis);
      break;
    }
  }
  if (kind == Reduction::Mean) {
    if (!isa<FloatType>(type.getElementType()))
      return node.fail("integer ReduceMean is not supported");
    result = createTosaMul(
        node, result,
        createSplat(node, type.getElementType(), 1.0 / count, rank));
  }
  if (!node.getInt("keepdims", 1)) {
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(reduced, d))
        shape.push_back(type.getDimSize(d));
    result = createTosaReshape(node, result, shape);
  }
  node.setOutput(0, result);
  return success();
}

static LogicalResult lowerReduceSum(OnnxNode &node) {
  return lowerReduce(node, Reduction::Sum);
}
static LogicalResult lowerReduceMean(OnnxNode &node) {
  return lowerReduce(node, Reduction::Mean);
}
static LogicalResult lowerReduceMax(OnnxNode &node) {
  return lowerReduce(node, Reduction::Max);
}
static LogicalResult lowerReduceMin(OnnxNode &node) {
  return lowerReduce(node, Reduction::Min);
}

void registerReductionOps(OnnxOpTable &table) {
  table["ReduceSum"] = lowerReduceSum;
  table["ReduceMean"] = lowerReduceMean;
  table["ReduceMax"] = lowerReduceMax;
  table["ReduceMin"] = lowerReduceMin;
}

} // namespace dispatchlab::onnx_import

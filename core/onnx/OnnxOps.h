//===- OnnxOps.h - lowerings of ONNX operators ------------------*- C++ -*-===//
//
// Each ONNX operator is lowered by one function registered under its op type.
// Lowerings emit TOSA where TOSA has the operator (the importer then runs the
// upstream TOSA-to-linalg passes) and linalg/tensor/arith directly where it
// has not. Families live in their own files; the helpers they share (building
// TOSA ops with static types, broadcasting, layout changes of weights) are
// declared here.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_ONNXOPS_H
#define DISPATCHLAB_CORE_ONNX_ONNXOPS_H

#include "core/onnx/OnnxGraph.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace dispatchlab::onnx_import {

using OnnxLowering = mlir::LogicalResult (*)(OnnxNode &node);
using OnnxOpTable = llvm::StringMap<OnnxLowering>;

/// Every operator the importer lowers, keyed by op type.
const OnnxOpTable &getOnnxOpTable();

void registerConvOps(OnnxOpTable &table);
void registerElementwiseOps(OnnxOpTable &table);
void registerNormalizationOps(OnnxOpTable &table);
void registerRecurrentOps(OnnxOpTable &table);
void registerReductionOps(OnnxOpTable &table);
void registerResizeOps(OnnxOpTable &table);
void registerShapeOps(OnnxOpTable &table);

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

mlir::RankedTensorType getTensorType(llvm::ArrayRef<int64_t> shape,
                                     mlir::Type elementType);
/// numpy-style broadcast of two shapes; nullopt when incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);
/// A constant of `elementType` (float or integer) shaped 1x..x1 of `rank`.
mlir::Value createSplat(OnnxNode &node, mlir::Type elementType, double value,
                        unsigned rank);

mlir::Value createTosaReshape(OnnxNode &node, mlir::Value input,
                              llvm::ArrayRef<int64_t> shape);
mlir::Value createTosaTranspose(OnnxNode &node, mlir::Value input,
                                llvm::ArrayRef<int64_t> perm);
mlir::Value createTosaSlice(OnnxNode &node, mlir::Value input,
                            llvm::ArrayRef<int64_t> start,
                            llvm::ArrayRef<int64_t> size);
/// Prepends unit dims so `input` has `rank` dims (TOSA elementwise ops need
/// equal ranks, then broadcast unit dims).
mlir::Value expandToRank(OnnxNode &node, mlir::Value input, unsigned rank);

/// An elementwise TOSA binary op with numpy broadcasting; the result element
/// type is `resultElementType` or else the lhs's.
template <typename TosaOp>
mlir::Value createTosaBinary(OnnxNode &node, mlir::Value lhs, mlir::Value rhs,
                             mlir::Type resultElementType = {}) {
  auto lhsType = mlir::cast<mlir::RankedTensorType>(lhs.getType());
  auto rhsType = mlir::cast<mlir::RankedTensorType>(rhs.getType());
  unsigned rank = std::max(lhsType.getRank(), rhsType.getRank());
  // Callers check broadcastability when they compute their result shape.
  llvm::SmallVector<int64_t> shape =
      *broadcastShapes(lhsType.getShape(), rhsType.getShape());
  return TosaOp::create(
      node.builder, node.loc,
      getTensorType(shape, resultElementType ? resultElementType
                                             : lhsType.getElementType()),
      expandToRank(node, lhs, rank), expandToRank(node, rhs, rank));
}
/// tosa.mul (its shift operand is zero for floats).
mlir::Value createTosaMul(OnnxNode &node, mlir::Value lhs, mlir::Value rhs);
template <typename TosaOp>
mlir::Value createTosaUnary(OnnxNode &node, mlir::Value input) {
  return TosaOp::create(node.builder, node.loc, input.getType(), input);
}
/// tosa.clamp to [minValue, maxValue] (float tensors).
mlir::Value createTosaClamp(OnnxNode &node, mlir::Value input, double minValue,
                            double maxValue);
/// A TOSA reduction over `axis`, keeping it as a unit dim.
template <typename TosaOp>
mlir::Value createTosaReduce(OnnxNode &node, mlir::Value input, int64_t axis) {
  auto type = mlir::cast<mlir::RankedTensorType>(input.getType());
  llvm::SmallVector<int64_t> shape(type.getShape());
  shape[axis] = 1;
  return TosaOp::create(node.builder, node.loc,
                        getTensorType(shape, type.getElementType()), input,
                        node.builder.getI32IntegerAttr(axis));
}

/// An elementwise linalg.generic over `inputs` broadcast (numpy rules) to
/// `resultShape`; `body` maps the scalar inputs to the scalar result.
using ScalarBody = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;
mlir::Value createElementwise(OnnxNode &node, mlir::ValueRange inputs,
                              llvm::ArrayRef<int64_t> resultShape,
                              mlir::Type resultElementType, ScalarBody body);

/// A weight computed from the weights `inputs` by `build`, which is given
/// their values inside the parameter function (OnnxImporter.h) and builds
/// there through `node`'s builder.
OnnxValue deriveParameter(
    OnnxNode &node, llvm::ArrayRef<OnnxValue> inputs,
    llvm::function_ref<mlir::Value(llvm::ArrayRef<mlir::Value>)> build);

/// `value` reshaped or transposed. Weights stay parameters: the result is
/// derived in the parameter function, so no dispatch exists only to relayout
/// a weight. Import-time data is changed on the host; run-time values get a
/// TOSA op.
OnnxValue reshapeValue(OnnxNode &node, OnnxValue &value,
                       llvm::ArrayRef<int64_t> shape);
OnnxValue transposeValue(OnnxNode &node, OnnxValue &value,
                         llvm::ArrayRef<int64_t> perm);
/// `value[starts : starts + sizes * steps : steps]` on every dim, and
/// `value` reversed along `axes`; derived for weights, like the above.
OnnxValue sliceValue(OnnxNode &node, OnnxValue &value,
                     llvm::ArrayRef<int64_t> starts,
                     llvm::ArrayRef<int64_t> sizes,
                     llvm::ArrayRef<int64_t> steps);
OnnxValue reverseValue(OnnxNode &node, OnnxValue &value,
                       llvm::ArrayRef<int64_t> axes);
/// BatchNormalization's per-channel scale gamma / sqrt(var + epsilon), for
/// weights `gamma` and `variance`.
OnnxValue deriveBatchNormScale(OnnxNode &node, const OnnxValue &gamma,
                               const OnnxValue &variance, double epsilon);
/// `values` as a list: `[1, 2, 3]`.
std::string formatList(llvm::ArrayRef<int64_t> values);

} // namespace dispatchlab::onnx_import

#endif // DISPATCHLAB_CORE_ONNX_ONNXOPS_H

//===- OnnxOps.cpp - the operator table and shared lowering helpers -------===//

#include "core/onnx/OnnxOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace dispatchlab::onnx_import {

const OnnxOpTable &getOnnxOpTable() {
  static const OnnxOpTable table = [] {
    OnnxOpTable result;
    registerConvOps(result);
    registerElementwiseOps(result);
    registerNormalizationOps(result);
    registerRecurrentOps(result);
    registerReductionOps(result);
    registerResizeOps(result);
    registerShapeOps(result);
    return result;
  }();
  return table;
}

RankedTensorType getTensorType(ArrayRef<int64_t> shape, Type elementType) {
  return RankedTensorType::get(shape, elementType);
}

std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

Value createSplat(OnnxNode &node, Type elementType, double value,
                  unsigned rank) {
  auto type = getTensorType(SmallVector<int64_t>(rank, 1), elementType);
  Attribute scalar;
  if (auto floatType = dyn_cast<FloatType>(elementType))
    scalar = FloatAttr::get(floatType, value);
  else
    scalar = IntegerAttr::get(elementType, static_cast<int64_t>(value));
  return tosa::ConstOp::create(node.builder, node.loc, type,
                               DenseElementsAttr::get(type, scalar));
}

Value createTosaReshape(OnnxNode &node, Value input, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getShape() == shape)
    return input;
  ImplicitLocOpBuilder builder(node.loc, node.builder);
  return tosa::ReshapeOp::create(
      node.builder, node.loc, getTensorType(shape, type.getElementType()),
      input, tosa::getTosaConstShape(builder, shape));
}

Value createTosaTranspose(OnnxNode &node, Value input, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  SmallVector<int32_t> perms;
  for (int64_t axis : perm) {
    shape.push_back(type.getDimSize(axis));
    perms.push_back(static_cast<int32_t>(axis));
  }
  return tosa::TransposeOp::create(node.builder, node.loc,
                                   getTensorType(shape, type.getElementType()),
                                   input, perms);
}

Value createTosaSlice(OnnxNode &node, Value input, ArrayRef<int64_t> start,
                      ArrayRef<int64_t> size) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getShape() == size)
    return input;
  ImplicitLocOpBuilder builder(node.loc, node.builder);
  return tosa::SliceOp::create(node.builder, node.loc,
                               getTensorType(size, type.getElementType()),
                               input, tosa::getTosaConstShape(builder, start),
                               tosa::getTosaConstShape(builder, size));
}

Value expandToRank(OnnxNode &node, Value input, unsigned rank) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getRank() >= rank)
    return input;
  SmallVector<int64_t> shape(rank - type.getRank(), 1);
  llvm::append_range(shape, type.getShape());
  return createTosaReshape(node, input, shape);
}

Value createTosaMul(OnnxNode &node, Value lhs, Value rhs) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  unsigned rank = std::max(lhsType.getRank(), rhsType.getRank());
  SmallVector<int64_t> shape =
      *broadcastShapes(lhsType.getShape(), rhsType.getShape());
  auto shiftType = getTensorType({1}, node.builder.getI8Type());
  Value shift = tosa::ConstOp::create(
      node.builder, node.loc, shiftType,
      DenseElementsAttr::get(shiftType, node.builder.getI8IntegerAttr(0)));
  return tosa::MulOp::create(
      node.builder, node.loc, getTensorType(shape, lhsType.getElementType()),
      expandToRank(node, lhs, rank), expandToRank(node, rhs, rank), shift);
}

Value createTosaClamp(OnnxNode &node, Value input, double minValue,
                      double maxValue) {
  auto type = cast<RankedTensorType>(input.getType());
  auto floatType = cast<FloatType>(type.getElementType());
  // The attributes must be representable in the element type: +-inf are.
  return tosa::ClampOp::create(node.builder, node.loc, type, input,
                               FloatAttr::get(floatType, minValue),
                               FloatAttr::get(floatType, maxValue));
}

Value createElementwise(OnnxNode &node, ValueRange inputs,
                        ArrayRef<int64_t> resultShape, Type resultElementType,
                        ScalarBody body) {
  MLIRContext *context = node.graph.getContext();
  unsigned rank = resultShape.size();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(input.getType()).getShape();
    SmallVector<AffineExpr> exprs;
    unsigned offset = rank - shape.size();
    for (unsigned i = 0; i < shape.size(); ++i)
      exprs.push_back(shape[i] == 1 && resultShape[i + offset] != 1
                          ? getAffineConstantExpr(0, context)
                          : getAffineDimExpr(i + offset, context));
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  Value init = tensor::EmptyOp::create(node.builder, node.loc, resultShape,
                                       resultElementType);
  auto generic = linalg::GenericOp::create(
      node.builder, node.loc, init.getType(), inputs, init, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &builder, Location loc, ValueRange args) {
        Value result = body(builder, loc, args.drop_back());
        linalg::YieldOp::create(builder, loc, result);
      });
  return generic.getResult(0);
}

std::string formatList(ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

OnnxValue deriveParameter(OnnxNode &node, ArrayRef<OnnxValue> inputs,
                          function_ref<Value(ArrayRef<Value>)> build) {
  SmallVector<Value> weights;
  for (const OnnxValue &input : inputs)
    weights.push_back(node.graph.getParameterValue(input));
  OpBuilder::InsertionGuard guard(node.builder);
  node.builder.setInsertionPointToEnd(
      &node.graph.getParameterFunction().front());
  OnnxValue result;
  result.derived = build(weights);
  result.type = cast<RankedTensorType>(result.derived.getType());
  return result;
}

OnnxValue reshapeValue(OnnxNode &node, OnnxValue &value,
                       ArrayRef<int64_t> shape) {
  auto type = getTensorType(shape, value.type.getElementType());
  if (value.type == type)
    return value;
  if (value.isParameter())
    return deriveParameter(node, value, [&](ArrayRef<Value> weight) {
      return createTosaReshape(node, weight[0], shape);
    });
  OnnxValue result;
  result.type = type;
  if (value.host) {
    result.host = value.host;
    result.host->shape.assign(shape.begin(), shape.end());
    return result;
  }
  result.value =
      createTosaReshape(node, node.graph.materialize(value, node.loc), shape);
  return result;
}

/// `tensor` with its dims permuted by `perm`, computed on the host.
static HostTensor transposeHost(const HostTensor &tensor,
                                ArrayRef<int64_t> perm) {
  HostTensor result;
  result.dataType = tensor.dataType;
  for (int64_t axis : perm)
    result.shape.push_back(tensor.shape[axis]);
  SmallVector<int64_t> inputStrides(tensor.shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(tensor.shape.size()) - 2; i >= 0; --i)
    inputStrides[i] = inputStrides[i + 1] * tensor.shape[i + 1];
  SmallVector<int64_t> index(perm.size(), 0);
  for (int64_t n = 0, e = result.numElements(); n < e; ++n) {
    int64_t source = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      source += index[d] * inputStrides[perm[d]];
    result.append(tensor, source);
    for (int64_t d = static_cast<int64_t>(perm.size()) - 1; d >= 0; --d) {
      if (++index[d] < result.shape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

OnnxValue transposeValue(OnnxNode &node, OnnxValue &value,
                         ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return value;
  SmallVector<int64_t> shape;
  for (int64_t axis : perm)
    shape.push_back(value.type.getDimSize(axis));
  auto type = getTensorType(shape, value.type.getElementType());
  if (value.isParameter())
    return deriveParameter(node, value, [&](ArrayRef<Value> weight) {
      return createTosaTranspose(node, weight[0], perm);
    });
  OnnxValue result;
  result.type = type;
  if (value.host) {
    result.host = transposeHost(*value.host, perm);
    return result;
  }
  result.value =
      createTosaTranspose(node, node.graph.materialize(value, node.loc), perm);
  return result;
}

/// `tensor[starts : starts + sizes * steps : steps]` computed on the host.
static HostTensor sliceHost(const HostTensor &tensor, ArrayRef<int64_t> starts,
                            ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
  HostTensor sliced;
  sliced.dataType = tensor.dataType;
  sliced.shape.assign(sizes.begin(), sizes.end());
  ArrayRef<int64_t> shape = tensor.shape;
  SmallVector<int64_t> index(sizes.size(), 0);
  for (int64_t n = 0, e = sliced.numElements(); n < e; ++n) {
    int64_t source = 0;
    for (size_t d = 0; d < sizes.size(); ++d)
      source = source * shape[d] + starts[d] + index[d] * steps[d];
    sliced.append(tensor, source);
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  return sliced;
}

/// The slice of a value computed at run time (or of a weight, in the
/// parameter function).
static Value createSlice(OnnxNode &node, Value input, ArrayRef<int64_t> starts,
                         ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
  if (llvm::all_of(steps, [](int64_t s) { return s == 1; }))
    return createTosaSlice(node, input, starts, sizes);
  // TOSA slices are contiguous; strided slices go to tensor directly.
  auto type = cast<RankedTensorType>(input.getType());
  return tensor::ExtractSliceOp::create(
      node.builder, node.loc, getTensorType(sizes, type.getElementType()),
      input, ValueRange(), ValueRange(), ValueRange(),
      node.builder.getDenseI64ArrayAttr(starts),
      node.builder.getDenseI64ArrayAttr(sizes),
      node.builder.getDenseI64ArrayAttr(steps));
}

OnnxValue sliceValue(OnnxNode &node, OnnxValue &value, ArrayRef<int64_t> starts,
                     ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
  auto type = getTensorType(sizes, value.type.getElementType());
  if (value.type == type)
    return value;
  if (value.isParameter())
    return deriveParameter(node, value, [&](ArrayRef<Value> weight) {
      return createSlice(node, weight[0], starts, sizes, steps);
    });
  OnnxValue result;
  result.type = type;
  if (value.host) {
    result.host = sliceHost(*value.host, starts, sizes, steps);
    return result;
  }
  result.value = createSlice(node, node.graph.materialize(value, node.loc),
                             starts, sizes, steps);
  return result;
}

/// `input` reversed along each of `axes`.
static Value createReverse(OnnxNode &node, Value input,
                           ArrayRef<int64_t> axes) {
  for (int64_t axis : axes)
    input =
        tosa::ReverseOp::create(node.builder, node.loc, input.getType(), input,
                                node.builder.getI32IntegerAttr(axis));
  return input;
}

OnnxValue reverseValue(OnnxNode &node, OnnxValue &value,
                       ArrayRef<int64_t> axes) {
  if (value.isParameter())
    return deriveParameter(node, value, [&](ArrayRef<Value> weight) {
      return createReverse(node, weight[0], axes);
    });
  OnnxValue result;
  result.type = value.type;
  result.value =
      createReverse(node, node.graph.materialize(value, node.loc), axes);
  return result;
}

} // namespace dispatchlab::onnx_import

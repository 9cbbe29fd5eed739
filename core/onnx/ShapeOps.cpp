//===- ShapeOps.cpp - shape, layout and data-movement operators -----------===//
//
// Reshape-like ops and slices become TOSA (reshape, transpose, slice, concat,
// pad); Gather and Expand, which TOSA does not express for ONNX's semantics,
// become linalg.generic directly. Shape computations (Shape, Constant,
// ConstantOfShape, Range, and any of these ops on import-time data) fold on
// the host; on weights they are derived in the parameter function.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using onnx::TensorProto;

namespace dispatchlab::onnx_import {

/// Host tensors beyond this many elements are not built at import time.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 22;

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t result = 1;
  for (int64_t dim : dims)
    result *= dim;
  return result;
}

static LogicalResult lowerReshape(OnnxNode &node) {
  FailureOr<SmallVector<int64_t>> target =
      node.getConstantInts(1, "the target shape");
  if (failed(target))
    return failure();
  ArrayRef<int64_t> inputShape = node.getInputShape(0);
  bool allowZero = node.getInt("allowzero", 0);
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, dim] : llvm::enumerate(*target)) {
    if (dim == 0 && !allowZero) {
      if (i >= inputShape.size())
        return node.fail("shape copies dim " + Twine(i) + " the input lacks");
      dim = inputShape[i];
    }
    if (dim == -1) {
      if (inferred >= 0)
        return node.fail("shape has more than one -1");
      inferred = i;
    } else if (dim < 0) {
      return node.fail("invalid target dim " + Twine(dim));
    } else {
      known *= dim;
    }
    shape.push_back(dim);
  }
  int64_t total = product(inputShape);
  if (inferred >= 0)
    shape[inferred] = known ? total / known : 0;
  if (product(shape) != total)
    return node.fail("cannot reshape " + Twine(total) + " elements to " +
                     formatList(shape));
  node.setOutput(0, reshapeValue(node, node.getInput(0), shape));
  return success();
}

static LogicalResult lowerFlatten(OnnxNode &node) {
  ArrayRef<int64_t> shape = node.getInputShape(0);
  int64_t rank = shape.size();
  int64_t axis = node.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return node.fail("axis is out of range");
  SmallVector<int64_t> flat = {product(shape.take_front(axis)),
                               product(shape.drop_front(axis))};
  node.setOutput(0, reshapeValue(node, node.getInput(0), flat));
  return success();
}

static LogicalResult lowerTranspose(OnnxNode &node) {
  int64_t rank = node.getInputType(0).getRank();
  SmallVector<int64_t> perm;
  if (std::optional<SmallVector<int64_t>> given = node.getInts("perm"))
    perm = *given;
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  if (!llvm::equal(sorted, llvm::seq<int64_t>(0, rank)))
    return node.fail("perm " + formatList(perm) + " is not a permutation");
  node.setOutput(0, transposeValue(node, node.getInput(0), perm));
  return success();
}

/// Axes from the `axes` attribute (before `inputOpset`) or from input 1.
static FailureOr<std::optional<SmallVector<int64_t>>>
getAxes(OnnxNode &node, int64_t inputOpset, unsigned inputIndex = 1) {
  if (node.getOpset() < inputOpset)
    return node.getInts("axes");
  if (!node.hasInput(inputIndex))
    return std::optional<SmallVector<int64_t>>();
  FailureOr<SmallVector<int64_t>> axes =
      node.getConstantInts(inputIndex, "axes");
  if (failed(axes))
    return failure();
  return std::optional<SmallVector<int64_t>>(*axes);
}

static LogicalResult lowerSqueeze(OnnxNode &node) {
  ArrayRef<int64_t> shape = node.getInputShape(0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes = getAxes(node, 13);
  if (failed(axes))
    return failure();
  llvm::SmallDenseSet<int64_t> squeezed;
  if (*axes) {
    for (int64_t axis : **axes) {
      FailureOr<int64_t> normalized = node.normalizeAxis(axis, shape.size());
      if (failed(normalized))
        return failure();
      if (shape[*normalized] != 1)
        return node.fail("cannot squeeze dim " + Twine(axis) + " of size " +
                         Twine(shape[*normalized]));
      squeezed.insert(*normalized);
    }
  } else {
    for (auto [i, dim] : llvm::enumerate(shape))
      if (dim == 1)
        squeezed.insert(i);
  }
  SmallVector<int64_t> result;
  for (auto [i, dim] : llvm::enumerate(shape))
    if (!squeezed.contains(i))
      result.push_back(dim);
  node.setOutput(0, reshapeValue(node, node.getInput(0), result));
  return success();
}

static LogicalResult lowerUnsqueeze(OnnxNode &node) {
  ArrayRef<int64_t> shape = node.getInputShape(0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes = getAxes(node, 13);
  if (failed(axes))
    return failure();
  if (!*axes)
    return node.fail("axes are required");
  int64_t rank = shape.size() + (*axes)->size();
  llvm::SmallDenseSet<int64_t> inserted;
  for (int64_t axis : **axes) {
    FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    inserted.insert(*normalized);
  }
  SmallVector<int64_t> result;
  const int64_t *next = shape.begin();
  for (int64_t i = 0; i < rank; ++i)
    result.push_back(inserted.contains(i) ? 1 : *next++);
  node.setOutput(0, reshapeValue(node, node.getInput(0), result));
  return success();
}

static LogicalResult lowerConcat(OnnxNode &node) {
  RankedTensorType firstType = node.getInputType(0);
  FailureOr<int64_t> axis =
      node.normalizeAxis(node.getInt("axis", 0), firstType.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(firstType.getShape());
  shape[*axis] = 0;
  for (unsigned i = 0; i < node.getNumInputs(); ++i)
    shape[*axis] += node.getInputShape(i)[*axis];

  if (node.allInputsFoldable()) {
    HostTensor result;
    result.dataType = node.getInput(0).host->dataType;
    result.shape = shape;
    int64_t outer = product(ArrayRef<int64_t>(shape).take_front(*axis));
    for (int64_t o = 0; o < outer; ++o) {
      for (unsigned i = 0; i < node.getNumInputs(); ++i) {
        const HostTensor &input = *node.getInput(i).host;
        int64_t chunk =
            product(ArrayRef<int64_t>(input.shape).drop_front(*axis));
        for (int64_t k = 0; k < chunk; ++k)
          result.append(input, o * chunk + k);
      }
    }
    node.setHostOutput(0, std::move(result));
    return success();
  }
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < node.getNumInputs(); ++i)
    if (node.getInputShape(i)[*axis] != 0)
      inputs.push_back(node.getInputValue(i));
  if (inputs.size() == 1) {
    node.setOutput(0, inputs.front());
    return success();
  }
  node.setOutput(0, tosa::ConcatOp::create(
                        node.builder, node.loc,
                        getTensorType(shape, firstType.getElementType()),
                        inputs, node.builder.getI32IntegerAttr(*axis)));
  return success();
}

static LogicalResult lowerSlice(OnnxNode &node) {
  ArrayRef<int64_t> shape = node.getInputShape(0);
  SmallVector<int64_t> starts, ends, axes, steps;
  if (node.getOpset() < 10) {
    starts = node.getInts("starts").value_or(SmallVector<int64_t>());
    ends = node.getInts("ends").value_or(SmallVector<int64_t>());
    axes = node.getInts("axes").value_or(SmallVector<int64_t>());
  } else {
    FailureOr<SmallVector<int64_t>> s = node.getConstantInts(1, "starts");
    if (failed(s))
      return failure();
    FailureOr<SmallVector<int64_t>> e = node.getConstantInts(2, "ends");
    if (failed(e))
      return failure();
    starts = *s;
    ends = *e;
    if (node.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = node.getConstantInts(3, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
    if (node.hasInput(4)) {
      FailureOr<SmallVector<int64_t>> st = node.getConstantInts(4, "steps");
      if (failed(st))
        return failure();
      steps = *st;
    }
  }
  if (axes.empty())
    axes = llvm::to_vector(llvm::seq<int64_t>(0, starts.size()));
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return node.fail("starts, ends, axes and steps differ in length");

  SmallVector<int64_t> outStarts(shape.size(), 0), sizes(shape),
      outSteps(shape.size(), 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    FailureOr<int64_t> axis = node.normalizeAxis(axes[i], shape.size());
    if (failed(axis))
      return failure();
    int64_t dim = shape[*axis], step = steps[i];
    if (step <= 0)
      return node.fail("non-positive step " + Twine(step) +
                       " is not supported");
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    outStarts[*axis] = start;
    outSteps[*axis] = step;
    sizes[*axis] = end > start ? (end - start + step - 1) / step : 0;
  }
  node.setOutput(
      0, sliceValue(node, node.getInput(0), outStarts, sizes, outSteps));
  return success();
}

static LogicalResult lowerSplit(OnnxNode &node) {
  ArrayRef<int64_t> shape = node.getInputShape(0);
  FailureOr<int64_t> axis =
      node.normalizeAxis(node.getInt("axis", 0), shape.size());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> sizes;
  unsigned outputs = node.getNumOutputs();
  if (node.getOpset() >= 13 && node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> given = node.getConstantInts(1, "split");
    if (failed(given))
      return failure();
    sizes = *given;
  } else if (std::optional<SmallVector<int64_t>> given =
                 node.getInts("split")) {
    sizes = *given;
  } else {
    // Equal parts, the last one smaller when the dim does not divide.
    int64_t part = (shape[*axis] + outputs - 1) / outputs;
    for (unsigned i = 0; i < outputs; ++i)
      sizes.push_back(std::min(part, shape[*axis] - part * i));
  }
  if (sizes.size() != outputs)
    return node.fail("split has " + Twine(sizes.size()) + " sizes for " +
                     Twine(outputs) + " outputs");
  int64_t offset = 0;
  for (unsigned i = 0; i < outputs; ++i) {
    SmallVector<int64_t> starts(shape.size(), 0), size(shape),
        steps(shape.size(), 1);
    starts[*axis] = offset;
    size[*axis] = sizes[i];
    offset += sizes[i];
    node.setOutput(i, sliceValue(node, node.getInput(0), starts, size, steps));
  }
  if (offset != shape[*axis])
    return node.fail("split sizes do not add up to the dim");
  return success();
}

/// Gather of host data and indices, folded at import into a `shape` tensor.
static LogicalResult foldGather(OnnxNode &node, int64_t axis,
                                ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> dataShape = node.getInputShape(0);
  const HostTensor &data = *node.getInput(0).host;
  const HostTensor &indices = *node.getInput(1).host;
  HostTensor result;
  result.dataType = data.dataType;
  result.shape.assign(shape.begin(), shape.end());
  int64_t axisSize = dataShape[axis];
  int64_t outer = product(dataShape.take_front(axis));
  int64_t inner = product(dataShape.drop_front(axis + 1));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0, e = indices.numElements(); k < e; ++k) {
      int64_t index = indices.getInt(k);
      if (index < 0)
        index += axisSize;
      if (index < 0 || index >= axisSize)
        return node.fail("index " + Twine(indices.getInt(k)) +
                         " is out of range");
      for (int64_t i = 0; i < inner; ++i)
        result.append(data, (o * axisSize + index) * inner + i);
    }
  }
  node.setHostOutput(0, std::move(result));
  return success();
}

/// out[pre, idx, post] = data[pre, indices[idx], post] as a linalg.generic
/// over the output, negative indices counted from the end.
static Value createGather(OnnxNode &node, int64_t axis,
                          ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> dataShape = node.getInputShape(0);
  ArrayRef<int64_t> indexShape = node.getInputShape(1);
  int64_t axisSize = dataShape[axis];
  Value data = node.getInputValue(0);
  Value indices = node.getInputValue(1);
  MLIRContext *context = node.graph.getContext();
  unsigned rank = shape.size();
  SmallVector<AffineExpr> indexExprs;
  for (unsigned i = 0; i < indexShape.size(); ++i)
    indexExprs.push_back(getAffineDimExpr(axis + i, context));
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, indexExprs, context),
      AffineMap::getMultiDimIdentityMap(rank, context)};
  Type elementType = node.getInputType(0).getElementType();
  Value init =
      tensor::EmptyOp::create(node.builder, node.loc, shape, elementType);
  int64_t indexRank = indexShape.size();
  auto generic = linalg::GenericOp::create(
      node.builder, node.loc, init.getType(), indices, init, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value index =
            arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value size = arith::ConstantIndexOp::create(b, loc, axisSize);
        Value negative = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, index, zero);
        Value wrapped = arith::AddIOp::create(b, loc, index, size);
        index = arith::SelectOp::create(b, loc, negative, wrapped, index);
        SmallVector<Value> position;
        for (int64_t d = 0; d < static_cast<int64_t>(dataShape.size()); ++d) {
          if (d < axis)
            position.push_back(linalg::IndexOp::create(b, loc, d));
          else if (d == axis)
            position.push_back(index);
          else
            position.push_back(
                linalg::IndexOp::create(b, loc, d - 1 + indexRank));
        }
        Value element = tensor::ExtractOp::create(b, loc, data, position);
        linalg::YieldOp::create(b, loc, element);
      });
  return generic.getResult(0);
}

static LogicalResult lowerGather(OnnxNode &node) {
  ArrayRef<int64_t> dataShape = node.getInputShape(0);
  ArrayRef<int64_t> indexShape = node.getInputShape(1);
  FailureOr<int64_t> axis =
      node.normalizeAxis(node.getInt("axis", 0), dataShape.size());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(dataShape.take_front(*axis));
  llvm::append_range(shape, indexShape);
  llvm::append_range(shape, dataShape.drop_front(*axis + 1));
  if (node.allInputsFoldable())
    return foldGather(node, *axis, shape);
  node.setOutput(0, createGather(node, *axis, shape));
  return success();
}

static LogicalResult lowerExpand(OnnxNode &node) {
  FailureOr<SmallVector<int64_t>> target =
      node.getConstantInts(1, "the target shape");
  if (failed(target))
    return failure();
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(node.getInputShape(0), *target);
  if (!shape)
    return node.fail("cannot expand " + formatList(node.getInputShape(0)) +
                     " to " + formatList(*target));
  OnnxValue &input = node.getInput(0);
  if (input.type.getShape() == ArrayRef<int64_t>(*shape)) {
    node.setOutput(0, input);
    return success();
  }
  Type elementType = input.type.getElementType();
  node.setOutput(0, createElementwise(node, node.getInputValue(0), *shape,
                                      elementType,
                                      [](OpBuilder &, Location,
                                         ValueRange args) { return args[0]; }));
  return success();
}

static LogicalResult lowerPad(OnnxNode &node) {
  std::string mode = node.getString("mode", "constant");
  if (mode != "constant")
    return node.fail("pad mode '" + mode + "' is not supported");
  ArrayRef<int64_t> shape = node.getInputShape(0);
  int64_t rank = shape.size();
  SmallVector<int64_t> pads;
  double value = 0;
  if (node.getOpset() < 11) {
    pads = node.getInts("pads").value_or(SmallVector<int64_t>());
    value = node.getFloat("value", 0.0f);
  } else {
    FailureOr<SmallVector<int64_t>> given = node.getConstantInts(1, "pads");
    if (failed(given))
      return failure();
    pads = *given;
    if (node.hasInput(2)) {
      FailureOr<HostTensor> constant =
          node.getConstant(2, "the constant value");
      if (failed(constant))
        return failure();
      value = constant->getDouble(0);
    }
  }
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (node.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> given = node.getConstantInts(3, "axes");
    if (failed(given))
      return failure();
    axes.clear();
    for (int64_t axis : *given) {
      FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank);
      if (failed(normalized))
        return failure();
      axes.push_back(*normalized);
    }
  }
  if (pads.size() != 2 * axes.size())
    return node.fail("pads has " + Twine(pads.size()) + " values for " +
                     Twine(axes.size()) + " axes");
  // TOSA pairs (before, after) per dim; ONNX lists all befores first.
  SmallVector<int64_t> padding(2 * rank, 0), resultShape(shape);
  for (auto [i, axis] : llvm::enumerate(axes)) {
    int64_t before = pads[i], after = pads[i + axes.size()];
    if (before < 0 || after < 0)
      return node.fail("negative pads are not supported");
    padding[2 * axis] = before;
    padding[2 * axis + 1] = after;
    resultShape[axis] += before + after;
  }
  Type elementType = node.getInputType(0).getElementType();
  auto constType = getTensorType({1}, elementType);
  Attribute scalar = isa<FloatType>(elementType)
                         ? Attribute(FloatAttr::get(elementType, value))
                         : Attribute(IntegerAttr::get(
                               elementType, static_cast<int64_t>(value)));
  Value padConst =
      tosa::ConstOp::create(node.builder, node.loc, constType,
                            DenseElementsAttr::get(constType, scalar));
  ImplicitLocOpBuilder builder(node.loc, node.builder);
  node.setOutput(0, tosa::PadOp::create(
                        node.builder, node.loc,
                        getTensorType(resultShape, elementType),
                        node.getInputValue(0),
                        tosa::getTosaConstShape(builder, padding), padConst));
  return success();
}

static LogicalResult lowerShape(OnnxNode &node) {
  ArrayRef<int64_t> shape = node.getInputShape(0);
  int64_t rank = shape.size();
  int64_t start = node.getInt("start", 0), end = node.getInt("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  SmallVector<int64_t> dims(shape.begin() + start,
                            shape.begin() + std::max(start, end));
  node.setHostOutput(0, HostTensor::makeInts(dims, {int64_t(dims.size())}));
  return success();
}

static LogicalResult lowerConstant(OnnxNode &node) {
  const onnx::AttributeProto *value = findAttribute(node.proto, "value");
  if (value && value->has_t()) {
    const onnx::TensorProto &tensor = value->t();
    Type elementType =
        convertDataType(node.graph.getContext(), tensor.data_type());
    if (!elementType)
      return node.fail("unsupported data type");
    SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
    int64_t count = product(shape);
    // Same policy as initializers: weights stored as Constant nodes are
    // parameters named by the output, and are not decoded.
    if (count > 1 && (isFloatDataType(tensor.data_type()) || count > 1024)) {
      OnnxValue result;
      result.type = getTensorType(shape, elementType);
      result.parameter = node.proto.output(0);
      // Small ones keep their data, as initializers do, for operands that
      // must be known at import (Resize scales).
      if (count <= 1024)
        result.host = llvm::expectedToOptional(decodeTensor(tensor));
      node.setOutput(0, std::move(result));
      return success();
    }
    llvm::Expected<HostTensor> data = decodeTensor(value->t());
    if (!data)
      return node.fail(llvm::toString(data.takeError()));
    node.setHostOutput(0, std::move(*data));
    return success();
  }
  HostTensor data;
  if (const onnx::AttributeProto *f =
          findAttribute(node.proto, "value_float")) {
    data.floats = {f->f()};
  } else if (const onnx::AttributeProto *fs =
                 findAttribute(node.proto, "value_floats")) {
    data.floats.assign(fs->floats().begin(), fs->floats().end());
    data.shape = {int64_t(data.floats.size())};
  } else if (const onnx::AttributeProto *i =
                 findAttribute(node.proto, "value_int")) {
    data.dataType = TensorProto::INT64;
    data.ints = {i->i()};
  } else if (const onnx::AttributeProto *is =
                 findAttribute(node.proto, "value_ints")) {
    data.dataType = TensorProto::INT64;
    data.ints.assign(is->ints().begin(), is->ints().end());
    data.shape = {int64_t(data.ints.size())};
  } else {
    return node.fail("only tensor, float(s) and int(s) values are supported");
  }
  node.setHostOutput(0, std::move(data));
  return success();
}

static LogicalResult lowerConstantOfShape(OnnxNode &node) {
  FailureOr<SmallVector<int64_t>> shape = node.getConstantInts(0, "the shape");
  if (failed(shape))
    return failure();
  HostTensor element;
  element.floats = {0.0};
  if (const onnx::AttributeProto *value = findAttribute(node.proto, "value")) {
    std::optional<HostTensor> data =
        llvm::expectedToOptional(decodeTensor(value->t()));
    if (!data || data->numElements() != 1)
      return node.fail("value must be a one-element tensor");
    element = std::move(*data);
  }
  HostTensor result;
  result.dataType = element.dataType;
  result.shape = *shape;
  if (result.numElements() > kMaxFoldedElements)
    return node.fail("shape " + formatList(*shape) +
                     " is too large to fold at import");
  for (int64_t i = 0, e = result.numElements(); i < e; ++i)
    result.append(element, 0);
  node.setHostOutput(0, std::move(result));
  return success();
}

static LogicalResult lowerIdentity(OnnxNode &node) {
  node.setOutput(0, node.getInput(0));
  return success();
}

static LogicalResult lowerDropout(OnnxNode &node) {
  if (node.hasOutput(1))
    return node.fail("the mask output is not supported (inference only)");
  return lowerIdentity(node);
}

static LogicalResult lowerRange(OnnxNode &node) {
  FailureOr<HostTensor> start = node.getConstant(0, "start");
  if (failed(start))
    return failure();
  FailureOr<HostTensor> limit = node.getConstant(1, "limit");
  if (failed(limit))
    return failure();
  FailureOr<HostTensor> delta = node.getConstant(2, "delta");
  if (failed(delta))
    return failure();
  double first = start->getDouble(0), last = limit->getDouble(0),
         step = delta->getDouble(0);
  if (step == 0)
    return node.fail("delta is zero");
  int64_t count = std::max<int64_t>(
      0, static_cast<int64_t>(std::ceil((last - first) / step)));
  if (count > kMaxFoldedElements)
    return node.fail("range is too large to fold at import");
  HostTensor result;
  result.dataType = start->dataType;
  result.shape = {count};
  for (int64_t i = 0; i < count; ++i) {
    if (result.isFloat())
      result.floats.push_back(first + i * step);
    else
      result.ints.push_back(start->getInt(0) + i * delta->getInt(0));
  }
  node.setHostOutput(0, std::move(result));
  return success();
}

void registerShapeOps(OnnxOpTable &table) {
  table["Reshape"] = lowerReshape;
  table["Flatten"] = lowerFlatten;
  table["Transpose"] = lowerTranspose;
  table["Squeeze"] = lowerSqueeze;
  table["Unsqueeze"] = lowerUnsqueeze;
  table["Concat"] = lowerConcat;
  table["Slice"] = lowerSlice;
  table["Split"] = lowerSplit;
  table["Gather"] = lowerGather;
  table["Expand"] = lowerExpand;
  table["Pad"] = lowerPad;
  table["Shape"] = lowerShape;
  table["Constant"] = lowerConstant;
  table["ConstantOfShape"] = lowerConstantOfShape;
  table["Identity"] = lowerIdentity;
  table["Dropout"] = lowerDropout;
  table["Range"] = lowerRange;
}

} // namespace dispatchlab::onnx_import

//===- OnnxAttributes.cpp - ONNX node attributes and tensor data ----------===//

#include "core/onnx/OnnxAttributes.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

using onnx::TensorProto;

namespace dispatchlab::onnx_import {

bool isFloatDataType(int32_t dataType) {
  return dataType == TensorProto::FLOAT || dataType == TensorProto::DOUBLE ||
         dataType == TensorProto::FLOAT16 || dataType == TensorProto::BFLOAT16;
}

bool HostTensor::isFloat() const { return isFloatDataType(dataType); }

int64_t HostTensor::numElements() const {
  return mlir::ShapedType::getNumElements(shape);
}

double HostTensor::getDouble(int64_t i) const {
  return isFloat() ? floats[i] : static_cast<double>(ints[i]);
}

int64_t HostTensor::getInt(int64_t i) const {
  return isFloat() ? static_cast<int64_t>(floats[i]) : ints[i];
}

void HostTensor::append(const HostTensor &other, int64_t i) {
  if (isFloat())
    floats.push_back(other.getDouble(i));
  else
    ints.push_back(other.getInt(i));
}

HostTensor HostTensor::makeInts(llvm::ArrayRef<int64_t> values,
                                llvm::ArrayRef<int64_t> shape,
                                int32_t dataType) {
  HostTensor result;
  result.dataType = dataType;
  result.shape.assign(shape.begin(), shape.end());
  result.ints.assign(values.begin(), values.end());
  return result;
}

bool hasInlineData(const TensorProto &tensor) {
  if (tensor.data_location() == TensorProto::EXTERNAL)
    return false;
  return tensor.has_raw_data() || tensor.float_data_size() ||
         tensor.int32_data_size() || tensor.int64_data_size() ||
         tensor.double_data_size() || tensor.uint64_data_size();
}

/// Half-precision bit patterns (FLOAT16 and BFLOAT16 store them in int32_data
/// or raw_data) to double.
static double halfBitsToDouble(int32_t dataType, uint16_t bits) {
  const llvm::fltSemantics &semantics = dataType == TensorProto::FLOAT16
                                            ? llvm::APFloat::IEEEhalf()
                                            : llvm::APFloat::BFloat();
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

/// Bytes per element in raw_data; 0 for unsupported types.
static size_t rawElementSize(int32_t dataType) {
  switch (dataType) {
  case TensorProto::BOOL:
  case TensorProto::INT8:
  case TensorProto::UINT8:
    return 1;
  case TensorProto::INT16:
  case TensorProto::UINT16:
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
    return 2;
  case TensorProto::INT32:
  case TensorProto::UINT32:
  case TensorProto::FLOAT:
    return 4;
  case TensorProto::INT64:
  case TensorProto::UINT64:
  case TensorProto::DOUBLE:
    return 8;
  default:
    return 0;
  }
}

template <typename T> static T readRaw(const char *data) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  return value;
}

static void decodeRaw(const std::string &raw, HostTensor &result) {
  size_t size = rawElementSize(result.dataType);
  for (size_t offset = 0; offset + size <= raw.size(); offset += size) {
    const char *p = raw.data() + offset;
    switch (result.dataType) {
    case TensorProto::BOOL:
    case TensorProto::UINT8:
      result.ints.push_back(readRaw<uint8_t>(p));
      break;
    case TensorProto::INT8:
      result.ints.push_back(readRaw<int8_t>(p));
      break;
    case TensorProto::INT16:
      result.ints.push_back(readRaw<int16_t>(p));
      break;
    case TensorProto::UINT16:
      result.ints.push_back(readRaw<uint16_t>(p));
      break;
    case TensorProto::INT32:
      result.ints.push_back(readRaw<int32_t>(p));
      break;
    case TensorProto::UINT32:
      result.ints.push_back(readRaw<uint32_t>(p));
      break;
    case TensorProto::INT64:
      result.ints.push_back(readRaw<int64_t>(p));
      break;
    case TensorProto::UINT64:
      result.ints.push_back(static_cast<int64_t>(readRaw<uint64_t>(p)));
      break;
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      result.floats.push_back(
          halfBitsToDouble(result.dataType, readRaw<uint16_t>(p)));
      break;
    case TensorProto::FLOAT:
      result.floats.push_back(readRaw<float>(p));
      break;
    case TensorProto::DOUBLE:
      result.floats.push_back(readRaw<double>(p));
      break;
    }
  }
}

/// Reads the typed repeated field that holds `result.dataType`'s values.
static void decodeTypedFields(const TensorProto &tensor, HostTensor &result) {
  switch (result.dataType) {
  case TensorProto::FLOAT:
    result.floats.assign(tensor.float_data().begin(),
                         tensor.float_data().end());
    break;
  case TensorProto::DOUBLE:
    result.floats.assign(tensor.double_data().begin(),
                         tensor.double_data().end());
    break;
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
    for (int32_t bits : tensor.int32_data())
      result.floats.push_back(
          halfBitsToDouble(result.dataType, static_cast<uint16_t>(bits)));
    break;
  case TensorProto::INT64:
    result.ints.assign(tensor.int64_data().begin(), tensor.int64_data().end());
    break;
  case TensorProto::UINT32:
  case TensorProto::UINT64:
    for (uint64_t value : tensor.uint64_data())
      result.ints.push_back(static_cast<int64_t>(value));
    break;
  default: // BOOL, INT8/16/32, UINT8/16 live in int32_data.
    result.ints.assign(tensor.int32_data().begin(), tensor.int32_data().end());
    break;
  }
}

llvm::Expected<HostTensor> decodeTensor(const TensorProto &tensor) {
  HostTensor result;
  result.dataType = tensor.data_type();
  for (int64_t dim : tensor.dims())
    result.shape.push_back(dim);
  if (rawElementSize(result.dataType) == 0)
    return llvm::createStringError(
        "tensor '" + tensor.name() + "' has unsupported data type " +
        TensorProto::DataType_Name(
            static_cast<TensorProto::DataType>(result.dataType)));
  if (!hasInlineData(tensor))
    return llvm::createStringError("tensor '" + tensor.name() +
                                   "' carries no data");

  if (tensor.has_raw_data())
    decodeRaw(tensor.raw_data(), result);
  else
    decodeTypedFields(tensor, result);

  size_t count = result.isFloat() ? result.floats.size() : result.ints.size();
  if (static_cast<int64_t>(count) != result.numElements())
    return llvm::createStringError(
        "tensor '" + tensor.name() + "' holds " + llvm::Twine(count) +
        " values but its shape needs " + llvm::Twine(result.numElements()));
  return result;
}

const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node,
                                          llvm::StringRef name) {
  for (const onnx::AttributeProto &attribute : node.attribute())
    if (attribute.name() == name)
      return &attribute;
  return nullptr;
}

int64_t getIntAttribute(const onnx::NodeProto &node, llvm::StringRef name,
                        int64_t defaultValue) {
  const onnx::AttributeProto *attribute = findAttribute(node, name);
  return attribute ? attribute->i() : defaultValue;
}

float getFloatAttribute(const onnx::NodeProto &node, llvm::StringRef name,
                        float defaultValue) {
  const onnx::AttributeProto *attribute = findAttribute(node, name);
  return attribute ? attribute->f() : defaultValue;
}

std::string getStringAttribute(const onnx::NodeProto &node,
                               llvm::StringRef name,
                               llvm::StringRef defaultValue) {
  const onnx::AttributeProto *attribute = findAttribute(node, name);
  return attribute ? attribute->s() : defaultValue.str();
}

std::optional<llvm::SmallVector<int64_t>>
getIntsAttribute(const onnx::NodeProto &node, llvm::StringRef name) {
  const onnx::AttributeProto *attribute = findAttribute(node, name);
  if (!attribute)
    return std::nullopt;
  return llvm::SmallVector<int64_t>(attribute->ints().begin(),
                                    attribute->ints().end());
}

} // namespace dispatchlab::onnx_import

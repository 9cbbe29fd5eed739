//===- OnnxAttributes.h - ONNX node attributes and tensor data --*- C++ -*-===//
//
// Reading what an ONNX node carries besides its inputs: attributes, and the
// data of TensorProtos (initializers, Constant values) that the importer needs
// on the host, e.g. the target shape of a Reshape.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_ONNXATTRIBUTES_H
#define DISPATCHLAB_CORE_ONNX_ONNXATTRIBUTES_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace dispatchlab::onnx_import {

/// A tensor whose values are known at import time. Integer and bool data is
/// kept exact in `ints` (Slice bounds like INT64_MAX must survive); floating
/// data in `floats`. Exactly one of the two holds `numElements()` values.
struct HostTensor {
  int32_t dataType = onnx::TensorProto::FLOAT;
  llvm::SmallVector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<double> floats;

  bool isFloat() const;
  int64_t numElements() const;
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  /// Appends element `i` of `other` (same float-ness) to this tensor.
  void append(const HostTensor &other, int64_t i);
  static HostTensor makeInts(llvm::ArrayRef<int64_t> values,
                             llvm::ArrayRef<int64_t> shape,
                             int32_t dataType = onnx::TensorProto::INT64);
};

/// Whether the ONNX data type is a floating-point type.
bool isFloatDataType(int32_t dataType);

/// True when `tensor` carries its values inline (raw_data or a typed field);
/// false for stripped or externally stored weights.
bool hasInlineData(const onnx::TensorProto &tensor);

/// Decodes the values of `tensor`. Fails with a one-line message naming the
/// tensor for unsupported data types and when the value count does not match
/// the dims.
llvm::Expected<HostTensor> decodeTensor(const onnx::TensorProto &tensor);

/// Attribute lookup by name; null when absent.
const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node,
                                          llvm::StringRef name);
int64_t getIntAttribute(const onnx::NodeProto &node, llvm::StringRef name,
                        int64_t defaultValue);
float getFloatAttribute(const onnx::NodeProto &node, llvm::StringRef name,
                        float defaultValue);
std::string getStringAttribute(const onnx::NodeProto &node,
                               llvm::StringRef name,
                               llvm::StringRef defaultValue);
/// The `ints` of an attribute, or nullopt when absent.
std::optional<llvm::SmallVector<int64_t>>
getIntsAttribute(const onnx::NodeProto &node, llvm::StringRef name);

} // namespace dispatchlab::onnx_import

#endif // DISPATCHLAB_CORE_ONNX_ONNXATTRIBUTES_H

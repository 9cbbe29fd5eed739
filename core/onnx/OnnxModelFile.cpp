//===- OnnxModelFile.cpp - read an ONNX model from disk -------------------===//

#include "core/onnx/OnnxModelFile.h"

#include "core/support/InputFile.h"

#include "onnx/defs/parser.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <climits>

namespace dispatchlab::onnx_import {

bool isOnnxPath(llvm::StringRef path) {
  return path.ends_with(".onnx") || path.ends_with(".onnxtxt");
}

std::string toOneLine(llvm::StringRef message) {
  std::string result;
  bool pendingSpace = false;
  for (char c : message) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      pendingSpace = !result.empty();
      continue;
    }
    if (pendingSpace)
      result += ' ';
    pendingSpace = false;
    result += c;
  }
  return result;
}

/// Moves declared-but-unproduced value_info entries of a text model into the
/// initializer list, without data (see the header).
static void declareStrippedInitializers(onnx::GraphProto &graph) {
  llvm::StringSet<> defined;
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const onnx::TensorProto &initializer : graph.initializer())
    defined.insert(initializer.name());
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &output : node.output())
      defined.insert(output);

  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const onnx::ValueInfoProto &info : graph.value_info()) {
    const onnx::TypeProto_Tensor &tensorType = info.type().tensor_type();
    if (defined.contains(info.name()) || !info.type().has_tensor_type()) {
      *kept.Add() = info;
      continue;
    }
    onnx::TensorProto *initializer = graph.add_initializer();
    initializer->set_name(info.name());
    initializer->set_data_type(tensorType.elem_type());
    for (const onnx::TensorShapeProto_Dimension &dim : tensorType.shape().dim())
      initializer->add_dims(dim.dim_value());
  }
  graph.mutable_value_info()->Swap(&kept);
}

std::optional<onnx::ModelProto> readOnnxModel(llvm::StringRef path,
                                              std::string &error) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readInputFile(path, /*isText=*/false);
  if (!file) {
    error = "cannot read model: " + llvm::toString(file.takeError());
    return std::nullopt;
  }
  llvm::StringRef contents = (*file)->getBuffer();
  onnx::ModelProto model;

  if (path.ends_with(".onnxtxt")) {
    // The parser reports most errors by status but throws on some (e.g.
    // out-of-range numbers).
    try {
      onnx::OnnxParser parser(contents.data());
      onnx::Status status = parser.Parse(model);
      if (!status.IsOK()) {
        error = "cannot parse ONNX text: " + toOneLine(status.ErrorMessage());
        return std::nullopt;
      }
    } catch (const std::exception &exception) {
      error = "cannot parse ONNX text: " + toOneLine(exception.what());
      return std::nullopt;
    }
    declareStrippedInitializers(*model.mutable_graph());
    return model;
  }

  if (contents.size() > INT_MAX ||
      !model.ParseFromArray(contents.data(),
                            static_cast<int>(contents.size()))) {
    error = "not a valid ONNX model (protobuf parsing failed: truncated or "
            "not an ONNX file)";
    return std::nullopt;
  }
  return model;
}

} // namespace dispatchlab::onnx_import

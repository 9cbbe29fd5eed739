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

/// Parses ONNX's text syntax, whose parser reports most errors by status but
/// throws on some (e.g. out-of-range numbers).
static llvm::Expected<onnx::ModelProto> parseOnnxText(llvm::StringRef text) {
  onnx::ModelProto model;
  try {
    onnx::OnnxParser parser(text.data());
    onnx::Status status = parser.Parse(model);
    if (!status.IsOK())
      return llvm::createStringError("cannot parse ONNX text: " +
                                     toOneLine(status.ErrorMessage()));
  } catch (const std::exception &exception) {
    // The ONNX library's own exception: the only kind dispatchlab catches.
    return llvm::createStringError("cannot parse ONNX text: " +
                                   toOneLine(exception.what()));
  }
  declareStrippedInitializers(*model.mutable_graph());
  return model;
}

llvm::Expected<onnx::ModelProto> readOnnxModel(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readInputFile(path, /*isText=*/false);
  if (!file)
    return llvm::createStringError("cannot read model: " +
                                   llvm::toString(file.takeError()));
  llvm::StringRef contents = (*file)->getBuffer();
  if (path.ends_with(".onnxtxt"))
    return parseOnnxText(contents);

  onnx::ModelProto model;
  if (contents.size() > INT_MAX ||
      !model.ParseFromArray(contents.data(), static_cast<int>(contents.size())))
    return llvm::createStringError(
        "not a valid ONNX model (protobuf parsing failed: truncated or "
        "not an ONNX file)");
  return model;
}

} // namespace dispatchlab::onnx_import

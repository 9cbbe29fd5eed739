//===- OnnxModelFile.h - read an ONNX model from disk -----------*- C++ -*-===//
//
// Binary `.onnx` (protobuf) and textual `.onnxtxt` (ONNX's own text syntax,
// onnx/defs/parser.h) both read into a ModelProto.
//
// The text syntax cannot spell an initializer without data: `<float[4,3] w>`
// becomes a value_info entry. A value declared that way, which is neither a
// graph input nor produced by a node, is read as an initializer whose data was
// stripped, so hand-written test models need not list every weight value.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_ONNXMODELFILE_H
#define DISPATCHLAB_CORE_ONNX_ONNXMODELFILE_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace dispatchlab::onnx_import {

/// Parses the model at `path`; fails with a one-line message. No validation
/// beyond parsing.
llvm::Expected<onnx::ModelProto> readOnnxModel(llvm::StringRef path);

/// Whether `path` names a model this importer reads (.onnx or .onnxtxt).
bool isOnnxPath(llvm::StringRef path);

/// Joins a multi-line library message (checker, parser) into one line.
std::string toOneLine(llvm::StringRef message);

} // namespace dispatchlab::onnx_import

#endif // DISPATCHLAB_CORE_ONNX_ONNXMODELFILE_H

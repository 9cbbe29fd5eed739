//===- ProtoJson.h - result messages as llvm::json --------------*- C++ -*-===//
//
// Results are protobuf messages (results.proto) shown as JSON whose keys are
// the field names. Printing goes through llvm::json rather than protobuf's
// JSON printer, which quotes 64-bit integers ("dispatches": "12") and would
// change every stored and printed result; parsing is protobuf's own.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_PROTO_PROTOJSON_H
#define DISPATCHLAB_PROTO_PROTOJSON_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <google/protobuf/message.h>

namespace dispatchlab {

/// `message` as a JSON object: every repeated, map and presence-less scalar
/// field, and the singular message and optional fields that are set; the
/// field options of proto/json_options.proto print an unset field as null or
/// leave an empty repeated one out. A non-finite double prints as null, and
/// google.protobuf.Value/Struct/ListValue as the JSON they hold.
llvm::json::Object protoToJson(const google::protobuf::Message &message);

/// Fills `message` from the JSON object `json`, ignoring keys it has no
/// field for (a result holds more than a reader needs).
llvm::Error jsonToProto(llvm::StringRef json,
                        google::protobuf::Message &message);

template <typename T> llvm::Expected<T> parseProtoJson(llvm::StringRef json) {
  T message;
  if (llvm::Error error = jsonToProto(json, message))
    return std::move(error);
  return message;
}

} // namespace dispatchlab

#endif // DISPATCHLAB_PROTO_PROTOJSON_H

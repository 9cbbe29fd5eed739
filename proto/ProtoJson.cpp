//===- ProtoJson.cpp - result messages as llvm::json ----------------------===//

#include "proto/ProtoJson.h"

#include "llvm/Support/FormatVariadic.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace dispatchlab {

/// Element `index` of a repeated field, or the singular field when `index`
/// is negative.
static llvm::json::Value fieldValue(const Message &message,
                                    const FieldDescriptor &field, int index) {
  const Reflection &r = *message.GetReflection();
  bool one = index < 0;
  switch (field.cpp_type()) {
  case FieldDescriptor::CPPTYPE_INT32:
    return one ? r.GetInt32(message, &field)
               : r.GetRepeatedInt32(message, &field, index);
  case FieldDescriptor::CPPTYPE_INT64:
    return one ? r.GetInt64(message, &field)
               : r.GetRepeatedInt64(message, &field, index);
  case FieldDescriptor::CPPTYPE_UINT32:
    return one ? r.GetUInt32(message, &field)
               : r.GetRepeatedUInt32(message, &field, index);
  case FieldDescriptor::CPPTYPE_UINT64:
    return one ? r.GetUInt64(message, &field)
               : r.GetRepeatedUInt64(message, &field, index);
  case FieldDescriptor::CPPTYPE_DOUBLE:
    return one ? r.GetDouble(message, &field)
               : r.GetRepeatedDouble(message, &field, index);
  case FieldDescriptor::CPPTYPE_FLOAT:
    return one ? r.GetFloat(message, &field)
               : r.GetRepeatedFloat(message, &field, index);
  case FieldDescriptor::CPPTYPE_BOOL:
    return one ? r.GetBool(message, &field)
               : r.GetRepeatedBool(message, &field, index);
  case FieldDescriptor::CPPTYPE_ENUM:
    return (one ? r.GetEnum(message, &field)
                : r.GetRepeatedEnum(message, &field, index))
        ->name();
  case FieldDescriptor::CPPTYPE_STRING:
    return one ? r.GetString(message, &field)
               : r.GetRepeatedString(message, &field, index);
  case FieldDescriptor::CPPTYPE_MESSAGE:
    return protoToJson(one ? r.GetMessage(message, &field)
                           : r.GetRepeatedMessage(message, &field, index));
  }
  return nullptr;
}

/// A map field is a repeated field of {key, value} entries.
static llvm::json::Object mapToJson(const Message &message,
                                    const FieldDescriptor &field) {
  const Reflection &r = *message.GetReflection();
  const FieldDescriptor &key = *field.message_type()->map_key();
  const FieldDescriptor &value = *field.message_type()->map_value();
  llvm::json::Object object;
  for (int i = 0, e = r.FieldSize(message, &field); i < e; ++i) {
    const Message &entry = r.GetRepeatedMessage(message, &field, i);
    llvm::json::Value name = fieldValue(entry, key, -1);
    std::string text = name.getAsString() ? name.getAsString()->str()
                                          : llvm::formatv("{0}", name).str();
    object[text] = fieldValue(entry, value, -1);
  }
  return object;
}

llvm::json::Object protoToJson(const Message &message) {
  const Reflection &r = *message.GetReflection();
  const google::protobuf::Descriptor &type = *message.GetDescriptor();
  llvm::json::Object object;
  for (int f = 0; f < type.field_count(); ++f) {
    const FieldDescriptor &field = *type.field(f);
    if (field.is_map()) {
      object[field.name()] = mapToJson(message, field);
    } else if (field.is_repeated()) {
      llvm::json::Array elements;
      for (int i = 0, e = r.FieldSize(message, &field); i < e; ++i)
        elements.push_back(fieldValue(message, field, i));
      object[field.name()] = std::move(elements);
    } else if (!field.has_presence() || r.HasField(message, &field)) {
      object[field.name()] = fieldValue(message, field, -1);
    }
  }
  return object;
}

llvm::Error jsonToProto(llvm::StringRef json, Message &message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &message,
      options);
  if (!status.ok())
    return llvm::createStringError(std::string(status.message()));
  return llvm::Error::success();
}

} // namespace dispatchlab

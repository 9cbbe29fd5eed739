//===- ProtoJson.cpp - result messages as llvm::json ----------------------===//

#include "proto/ProtoJson.h"
#include "proto/json_options.pb.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <optional>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace dispatchlab {

/// google.protobuf.Value, Struct and ListValue hold JSON itself: they print
/// as the JSON they hold, as protobuf's own printer shows them.
static llvm::json::Value wellKnownToJson(const Message &message) {
  std::string text;
  if (!google::protobuf::util::MessageToJsonString(message, &text).ok())
    return nullptr;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return nullptr;
  }
  return std::move(*json);
}

static bool holdsJson(const google::protobuf::Descriptor &type) {
  using google::protobuf::Descriptor;
  switch (type.well_known_type()) {
  case Descriptor::WELLKNOWNTYPE_VALUE:
  case Descriptor::WELLKNOWNTYPE_STRUCT:
  case Descriptor::WELLKNOWNTYPE_LISTVALUE:
    return true;
  default:
    return false;
  }
}

/// JSON has no NaN or infinity: such a double prints as null.
static llvm::json::Value doubleToJson(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

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
    return doubleToJson(one ? r.GetDouble(message, &field)
                            : r.GetRepeatedDouble(message, &field, index));
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
  case FieldDescriptor::CPPTYPE_MESSAGE: {
    const Message &value = one ? r.GetMessage(message, &field)
                               : r.GetRepeatedMessage(message, &field, index);
    if (holdsJson(*value.GetDescriptor()))
      return wellKnownToJson(value);
    return protoToJson(value);
  }
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

/// The field's JSON, or nothing where the field is left out.
static std::optional<llvm::json::Value>
fieldToJson(const Message &message, const FieldDescriptor &field) {
  const Reflection &r = *message.GetReflection();
  if (field.is_map())
    return mapToJson(message, field);
  if (field.is_repeated()) {
    int size = r.FieldSize(message, &field);
    if (size == 0 && field.options().GetExtension(json_options::omit_if_empty))
      return std::nullopt;
    llvm::json::Array elements;
    for (int i = 0; i < size; ++i)
      elements.push_back(fieldValue(message, field, i));
    return std::move(elements);
  }
  if (!field.has_presence() || r.HasField(message, &field))
    return fieldValue(message, field, -1);
  if (field.options().GetExtension(json_options::null_if_unset))
    return nullptr;
  return std::nullopt;
}

llvm::json::Object protoToJson(const Message &message) {
  const google::protobuf::Descriptor &type = *message.GetDescriptor();
  llvm::json::Object object;
  for (int f = 0; f < type.field_count(); ++f) {
    const FieldDescriptor &field = *type.field(f);
    if (std::optional<llvm::json::Value> value = fieldToJson(message, field))
      object[field.name()] = std::move(*value);
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

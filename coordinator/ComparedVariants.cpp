//===- ComparedVariants.cpp - the variants of one COMPARE job -------------===//

#include "coordinator/ComparedVariants.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace dispatchlab {

// JSON rather than lines: axis variants' names hold ',' and '='.
std::string formatComparedVariants(llvm::ArrayRef<ResolvedVariant> variants) {
  llvm::json::Array array;
  for (const ResolvedVariant &variant : variants)
    array.push_back(llvm::json::Object{{"name", variant.name},
                                       {"preset", variant.preset},
                                       {"options", variant.options}});
  return llvm::formatv("{0}", llvm::json::Value(std::move(array))).str();
}

llvm::Expected<std::vector<ResolvedVariant>>
parseComparedVariants(llvm::StringRef text) {
  auto invalid = [] {
    return llvm::createStringError(
        "a COMPARE job's options are not a JSON array of variants");
  };
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return invalid();
  }
  const llvm::json::Array *array = value->getAsArray();
  if (!array || array->empty())
    return invalid();
  std::vector<ResolvedVariant> variants;
  for (const llvm::json::Value &element : *array) {
    const llvm::json::Object *object = element.getAsObject();
    std::optional<llvm::StringRef> name, preset, options;
    if (object) {
      name = object->getString("name");
      preset = object->getString("preset");
      options = object->getString("options");
    }
    if (!name || !preset || !options)
      return invalid();
    variants.push_back(
        {name->str(), sweep::COMPARE, preset->str(), options->str()});
  }
  return variants;
}

} // namespace dispatchlab

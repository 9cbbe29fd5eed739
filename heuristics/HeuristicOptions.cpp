//===- HeuristicOptions.cpp - every knob of dispatch formation ------------===//

#include "heuristics/HeuristicOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <type_traits>

using namespace mlir;
using namespace llvm;

namespace dispatchlab {

KnobNames<TruncateOrdering> getKnobNames(TruncateOrdering) {
  static constexpr std::pair<StringLiteral, TruncateOrdering> names[] = {
      {"deferred", TruncateOrdering::Deferred},
      {"eager", TruncateOrdering::Eager}};
  return names;
}

KnobNames<ElementwiseFusionMode> getKnobNames(ElementwiseFusionMode) {
  static constexpr std::pair<StringLiteral, ElementwiseFusionMode> names[] = {
      {"iree", ElementwiseFusionMode::Iree},
      {"pr8723-base", ElementwiseFusionMode::Pr8723Base},
      {"pr8723-v1", ElementwiseFusionMode::Pr8723V1},
      {"pr8723-v2", ElementwiseFusionMode::Pr8723V2},
      {"upstream", ElementwiseFusionMode::Upstream},
      {"off", ElementwiseFusionMode::Off}};
  return names;
}

KnobNames<DispatchFormation> getKnobNames(DispatchFormation) {
  static constexpr std::pair<StringLiteral, DispatchFormation> names[] = {
      {"iree", DispatchFormation::Iree}, {"pr8723", DispatchFormation::Pr8723}};
  return names;
}

KnobNames<PipelineMode> getKnobNames(PipelineMode) {
  static constexpr std::pair<StringLiteral, PipelineMode> names[] = {
      {"full", PipelineMode::Full},
      {"iree", PipelineMode::Iree},
      {"formation", PipelineMode::Formation}};
  return names;
}

KnobNames<DataTilingMode> getKnobNames(DataTilingMode) {
  static constexpr std::pair<StringLiteral, DataTilingMode> names[] = {
      {"none", DataTilingMode::None},
      {"fusion", DataTilingMode::Fusion},
      {"late", DataTilingMode::Late}};
  return names;
}

KnobNames<DemoteContractionOps> getKnobNames(DemoteContractionOps) {
  static constexpr std::pair<StringLiteral, DemoteContractionOps> names[] = {
      {"none", DemoteContractionOps::None},
      {"all", DemoteContractionOps::All},
      {"conv", DemoteContractionOps::Conv},
      {"matmul", DemoteContractionOps::Matmul}};
  return names;
}

KnobNames<DemoteContractionType> getKnobNames(DemoteContractionType) {
  static constexpr std::pair<StringLiteral, DemoteContractionType> names[] = {
      {"f16", DemoteContractionType::F16},
      {"bf16", DemoteContractionType::BF16}};
  return names;
}

namespace {
template <typename Enum> StringRef getName(Enum value) {
  for (const auto &[name, named] : getKnobNames(value))
    if (named == value)
      return name;
  llvm_unreachable("an enum knob value without a name");
}

/// "a, b or c": how errors list the accepted values.
template <typename Enum> std::string listNames(StringRef separator) {
  SmallVector<StringRef> names;
  for (const auto &entry : getKnobNames(Enum()))
    names.push_back(entry.first);
  if (separator == "|" || names.size() < 2)
    return join(names, separator);
  return join(ArrayRef(names).drop_back(), separator) + " or " +
         names.back().str();
}

// How a knob's TYPE is parsed, printed and described.
Error parseValue(StringRef key, StringRef value, bool &field) {
  if (value.empty() || value == "true" || value == "1" || value == "on")
    field = true;
  else if (value == "false" || value == "0" || value == "off")
    field = false;
  else
    return createStringError(
        formatv("option '{0}' expects true or false, got '{1}'", key, value)
            .str());
  return Error::success();
}

template <typename Int>
std::enable_if_t<std::is_integral_v<Int>, Error>
parseValue(StringRef key, StringRef value, Int &field) {
  // unsigned knobs count things (at least one); int64_t ones are sizes.
  constexpr int64_t min = std::is_unsigned_v<Int> ? 1 : 0;
  int64_t parsed;
  if (value.getAsInteger(10, parsed) || parsed < min)
    return createStringError(
        formatv("option '{0}' expects an integer >= {1}, got '{2}'", key, min,
                value)
            .str());
  field = parsed;
  return Error::success();
}

template <typename Enum>
std::enable_if_t<std::is_enum_v<Enum>, Error>
parseValue(StringRef key, StringRef value, Enum &field) {
  for (const auto &[name, named] : getKnobNames(field))
    if (name == value) {
      field = named;
      return Error::success();
    }
  return createStringError(formatv("option '{0}' expects {1}, got '{2}'", key,
                                   listNames<Enum>(", "), value)
                               .str());
}

std::string printValue(bool value) { return value ? "true" : "false"; }
template <typename Int>
std::enable_if_t<std::is_integral_v<Int>, std::string> printValue(Int value) {
  return std::to_string(value);
}
template <typename Enum>
std::enable_if_t<std::is_enum_v<Enum>, std::string> printValue(Enum value) {
  return getName(value).str();
}

template <typename T> std::string describeValues() {
  if constexpr (std::is_same_v<T, bool>)
    return "true|false";
  else if constexpr (std::is_integral_v<T>)
    return "N";
  else
    return listNames<T>("|");
}
} // namespace

StringRef stringify(TruncateOrdering v) { return getName(v); }
StringRef stringify(ElementwiseFusionMode v) { return getName(v); }
StringRef stringify(DispatchFormation v) { return getName(v); }
StringRef stringify(PipelineMode v) { return getName(v); }
StringRef stringify(DataTilingMode v) { return getName(v); }
StringRef stringify(DemoteContractionOps v) { return getName(v); }
StringRef stringify(DemoteContractionType v) { return getName(v); }

ArrayRef<StringRef> HeuristicOptions::presetNames() {
  static const StringRef names[] = {"iree-O0", "iree-O2", "no-fusion"};
  return names;
}

FailureOr<HeuristicOptions> HeuristicOptions::fromPreset(StringRef name) {
  HeuristicOptions options;
  options.preset = name.str();
  if (name == "iree-O0")
    return options;
  if (name == "iree-O2") {
    // IREE turns aggressive fusion on from --iree-opt-level=O2 upwards.
    options.aggressiveFusion = true;
    return options;
  }
  if (name == "no-fusion") {
    options.dispatchFusion = false;
    options.fuseMultiUse = false;
    options.elementwiseFusion = ElementwiseFusionMode::Off;
    return options;
  }
  return failure();
}

Expected<HeuristicOptions> HeuristicOptions::resolve(
    StringRef preset, ArrayRef<std::pair<std::string, std::string>> overrides) {
  FailureOr<HeuristicOptions> options =
      fromPreset(preset.empty() ? "iree-O0" : preset);
  if (failed(options))
    return createStringError(formatv("unknown preset '{0}'", preset).str());
  for (const auto &[key, value] : overrides)
    if (Error error = options->set(key, value))
      return std::move(error);
  return *options;
}

ArrayRef<KnobDescription> HeuristicOptions::describeKnobs() {
  static const KnobDescription knobs[] = {
#define HEURISTIC_KNOB(FIELD, KEY, TYPE, DEFAULT, HELP)                        \
  {KEY, describeValues<TYPE>(), HELP},
#include "heuristics/HeuristicKnobs.def"
  };
  return knobs;
}

Error HeuristicOptions::set(StringRef key, StringRef value) {
#define HEURISTIC_KNOB(FIELD, KEY, TYPE, DEFAULT, HELP)                        \
  if (key == KEY)                                                              \
    return parseValue(key, value, FIELD);
#include "heuristics/HeuristicKnobs.def"
  return createStringError(
      formatv("unknown heuristic option '{0}'", key).str());
}

Error HeuristicOptions::setAll(StringRef assignments) {
  SmallVector<StringRef> parts;
  assignments.split(parts, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    auto [key, value] = part.split('=');
    if (Error error = set(key, value))
      return error;
  }
  return Error::success();
}

LogicalResult HeuristicOptions::parsePassOptions(
    StringRef text,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (Error error = setAll(text))
    return errorHandler(llvm::toString(std::move(error)));
  return success();
}

std::string HeuristicOptions::toString() const {
  // std::map keeps the keys sorted, which is what makes the form canonical.
  std::map<std::string, std::string> kv = {
#define HEURISTIC_KNOB(FIELD, KEY, TYPE, DEFAULT, HELP)                        \
  {KEY, printValue(FIELD)},
#include "heuristics/HeuristicKnobs.def"
  };
  std::string out;
  for (const auto &[key, value] : kv)
    out += key + "=" + value + "\n";
  return out;
}

} // namespace dispatchlab

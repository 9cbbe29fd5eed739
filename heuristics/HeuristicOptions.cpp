//===- HeuristicOptions.cpp - every knob of dispatch formation ------------===//

#include "heuristics/HeuristicOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace llvm;

namespace dispatchlab {

StringRef stringify(TruncateOrdering v) {
  return v == TruncateOrdering::Deferred ? "deferred" : "eager";
}

StringRef stringify(ElementwiseFusionMode v) {
  switch (v) {
  case ElementwiseFusionMode::Iree:
    return "iree";
  case ElementwiseFusionMode::Upstream:
    return "upstream";
  case ElementwiseFusionMode::Off:
    return "off";
  }
  llvm_unreachable("unknown elementwise fusion mode");
}

StringRef stringify(PipelineMode v) {
  return v == PipelineMode::Full ? "full" : "formation";
}

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

static FailureOr<bool> parseBool(StringRef value) {
  if (value.empty() || value == "true" || value == "1" || value == "on")
    return true;
  if (value == "false" || value == "0" || value == "off")
    return false;
  return failure();
}

LogicalResult HeuristicOptions::set(StringRef key, StringRef value,
                                    std::string &error) {
  auto setBool = [&](bool &field) -> LogicalResult {
    FailureOr<bool> parsed = parseBool(value);
    if (failed(parsed)) {
      error =
          formatv("option '{0}' expects true or false, got '{1}'", key, value);
      return failure();
    }
    field = *parsed;
    return success();
  };
  auto setInt = [&](auto &field, int64_t min) -> LogicalResult {
    int64_t parsed;
    if (value.getAsInteger(10, parsed) || parsed < min) {
      error = formatv("option '{0}' expects an integer >= {1}, got '{2}'", key,
                      min, value);
      return failure();
    }
    field = parsed;
    return success();
  };

  if (key == "aggressive-fusion")
    return setBool(aggressiveFusion);
  if (key == "fuse-multi-use")
    return setBool(fuseMultiUse);
  if (key == "fuse-pad-with-consumers")
    return setBool(fusePadWithConsumers);
  if (key == "fuse-pad-with-producers")
    return setBool(fusePadWithProducers);
  if (key == "dispatch-fusion")
    return setBool(dispatchFusion);
  if (key == "pad-handling")
    return setBool(padHandling);
  if (key == "horizontal-contractions")
    return setBool(horizontalContractions);
  if (key == "early-trunc-fusion")
    return setBool(earlyTruncFusion);
  if (key == "max-operands")
    return setInt(maxOperands, 1);
  if (key == "inline-constant-bytes")
    return setInt(inlineConstantBytes, 0);
  if (key == "truncate-ordering") {
    if (value == "deferred")
      truncateOrdering = TruncateOrdering::Deferred;
    else if (value == "eager")
      truncateOrdering = TruncateOrdering::Eager;
    else {
      error = formatv("option 'truncate-ordering' expects deferred or eager, "
                      "got '{0}'",
                      value);
      return failure();
    }
    return success();
  }
  if (key == "elementwise-fusion") {
    std::optional<ElementwiseFusionMode> mode =
        llvm::StringSwitch<std::optional<ElementwiseFusionMode>>(value)
            .Case("iree", ElementwiseFusionMode::Iree)
            .Case("upstream", ElementwiseFusionMode::Upstream)
            .Case("off", ElementwiseFusionMode::Off)
            .Default(std::nullopt);
    if (!mode) {
      error = formatv("option 'elementwise-fusion' expects iree, upstream or "
                      "off, got '{0}'",
                      value);
      return failure();
    }
    elementwiseFusion = *mode;
    return success();
  }
  if (key == "pipeline") {
    if (value == "full")
      pipeline = PipelineMode::Full;
    else if (value == "formation")
      pipeline = PipelineMode::Formation;
    else {
      error = formatv("option 'pipeline' expects full or formation, got '{0}'",
                      value);
      return failure();
    }
    return success();
  }
  error = formatv("unknown heuristic option '{0}'", key);
  return failure();
}

std::string HeuristicOptions::toString() const {
  // std::map keeps the keys sorted, which is what makes the form canonical.
  std::map<std::string, std::string> kv = {
      {"aggressive-fusion", aggressiveFusion ? "true" : "false"},
      {"dispatch-fusion", dispatchFusion ? "true" : "false"},
      {"early-trunc-fusion", earlyTruncFusion ? "true" : "false"},
      {"elementwise-fusion", stringify(elementwiseFusion).str()},
      {"fuse-multi-use", fuseMultiUse ? "true" : "false"},
      {"fuse-pad-with-consumers", fusePadWithConsumers ? "true" : "false"},
      {"fuse-pad-with-producers", fusePadWithProducers ? "true" : "false"},
      {"horizontal-contractions", horizontalContractions ? "true" : "false"},
      {"inline-constant-bytes", std::to_string(inlineConstantBytes)},
      {"max-operands", std::to_string(maxOperands)},
      {"pad-handling", padHandling ? "true" : "false"},
      {"pipeline", stringify(pipeline).str()},
      {"truncate-ordering", stringify(truncateOrdering).str()},
  };
  std::string out;
  for (const auto &[key, value] : kv)
    out += key + "=" + value + "\n";
  return out;
}

std::string HeuristicOptions::formationPassOptions() const {
  return formatv("aggressive-fusion={0} fuse-multi-use-producers={1} "
                 "fuse-pad-with-consumers={2} fuse-pad-with-producers={3} "
                 "defer-truncates={4} dispatch-fusion={5} max-operands={6} "
                 "inline-constant-bytes={7}",
                 aggressiveFusion, fuseMultiUse, fusePadWithConsumers,
                 fusePadWithProducers,
                 truncateOrdering == TruncateOrdering::Deferred, dispatchFusion,
                 maxOperands, inlineConstantBytes);
}

} // namespace dispatchlab

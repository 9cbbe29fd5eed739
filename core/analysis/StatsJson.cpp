//===- StatsJson.cpp - compile statistics as JSON -------------------------===//

#include "core/analysis/StatsJson.h"

using namespace llvm;

namespace dispatchlab {

/// The canonical option text is one `key=value` per line; a line without
/// `=` is a key with an empty value.
static json::Object optionsToJson(StringRef text) {
  json::Object options;
  SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [key, value] = line.split('=');
    options[key.trim()] = value.trim();
  }
  return options;
}

static json::Value groupToJson(const DispatchGroupStats &group) {
  return json::Object{
      {"name", group.name},
      {"kind", group.kind},
      {"root", group.root},
      {"root_op", group.rootOp},
      {"root_class", group.rootClass},
      {"members", json::Array(group.members)},
      {"cloned", json::Array(group.cloned)},
      {"operands", group.numOperands},
      {"results", group.numResults},
      {"executable", group.executableHash},
  };
}

json::Value toJson(const CompileStats &stats) {
  json::Array groups;
  for (const DispatchGroupStats &group : stats.groups)
    groups.push_back(groupToJson(group));
  return json::Object{
      {"model", stats.model},
      {"options", optionsToJson(stats.options)},
      {"dispatches", stats.dispatches},
      {"executables", stats.executables},
      {"fills", stats.fills},
      {"copies", stats.copies},
      {"generic_before", stats.genericBefore},
      {"generic_after", stats.genericAfter},
      {"transient_bytes", stats.transientBytes},
      {"groups", std::move(groups)},
  };
}

} // namespace dispatchlab

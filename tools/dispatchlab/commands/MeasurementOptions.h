//===- MeasurementOptions.h - flags `run` and `compare` share ---*- C++ -*-===//
//
// Where inputs and weights come from (--seed, --parameters), the threads of
// each dispatch, the warm-up, the caches (--cache-dir, --cache-max-mb) and
// what is printed (--emit): one definition each, registered on both
// subcommands.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_MEASUREMENTOPTIONS_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_MEASUREMENTOPTIONS_H

#include "core/runtime/RunSession.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dispatchlab {

/// Sets the seed, the weights' source, the warm-up, the threads and the
/// caches of `options`; false after saying which flag is wrong.
bool readMeasurementFlags(llvm::StringRef command, RunOptions &options);

/// --emit: "json" or "table", table by default on a terminal and json
/// otherwise; nothing after saying why.
std::optional<std::string> readEmitKind(llvm::StringRef command);

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_MEASUREMENTOPTIONS_H

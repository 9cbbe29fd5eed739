//===- ImportCommand.h - `dispatchlab import` -------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_IMPORTCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_IMPORTCOMMAND_H

#include "core/onnx/OnnxImporter.h"

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

/// The `import` subcommand its options register under.
llvm::cl::SubCommand &getImportSubcommand();

/// The `--batch`/`--dim NAME=VALUE` bindings given to `command` (import and
/// compile share them); fails with an error naming the bad `--dim`.
mlir::FailureOr<OnnxImportOptions> getImportOptions(llvm::StringRef command);

/// Runs `dispatchlab import` with the parsed options; returns the exit code.
int runImportCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_IMPORTCOMMAND_H

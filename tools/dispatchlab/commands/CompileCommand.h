//===- CompileCommand.h - `dispatchlab compile` -----------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COMPILECOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COMPILECOMMAND_H

#include "heuristics/HeuristicOptions.h"

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

/// The `compile` subcommand its options register under.
llvm::cl::SubCommand &getCompileSubcommand();

/// Registers the options created on first use (the knob flags and
/// `--print-options`); call once before parsing the command line.
void registerCompileOptions();

/// The preset with every knob given on the command line applied (compile and
/// run share the flags); errors name `command`.
mlir::FailureOr<HeuristicOptions>
resolveHeuristicOptions(llvm::StringRef command);

/// Runs `dispatchlab compile` with the parsed options; returns the exit code.
int runCompileCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COMPILECOMMAND_H

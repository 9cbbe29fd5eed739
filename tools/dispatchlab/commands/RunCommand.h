//===- RunCommand.h - `dispatchlab run` -------------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_RUNCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_RUNCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

/// The `run` subcommand its options register under.
llvm::cl::SubCommand &getRunSubcommand();

/// Runs `dispatchlab run` with the parsed options; returns the exit code.
int runRunCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_RUNCOMMAND_H

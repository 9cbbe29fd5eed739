//===- DiffCommand.h - `dispatchlab diff` -----------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_DIFFCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_DIFFCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getDiffSubcommand();

/// Runs `dispatchlab diff` with the parsed options; returns the exit code.
int runDiffCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_DIFFCOMMAND_H

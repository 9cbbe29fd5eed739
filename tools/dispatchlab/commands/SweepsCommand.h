//===- SweepsCommand.h - `dispatchlab sweeps` -------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPSCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPSCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getSweepsSubcommand();

/// Runs `dispatchlab sweeps` with the parsed options; returns the exit code.
int runSweepsCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPSCOMMAND_H

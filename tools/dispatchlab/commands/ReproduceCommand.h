//===- ReproduceCommand.h - `dispatchlab reproduce` -------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_REPRODUCECOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_REPRODUCECOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getReproduceSubcommand();

/// Runs `dispatchlab reproduce` with the parsed options; returns the exit code.
int runReproduceCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_REPRODUCECOMMAND_H

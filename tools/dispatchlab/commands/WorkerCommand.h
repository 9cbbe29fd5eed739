//===- WorkerCommand.h - `dispatchlab worker` -------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_WORKERCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_WORKERCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getWorkerSubcommand();

/// Runs `dispatchlab worker` with the parsed options; returns the exit code.
int runWorkerCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_WORKERCOMMAND_H

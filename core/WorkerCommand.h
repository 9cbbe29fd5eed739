//===- WorkerCommand.h - `dispatchlab worker` -------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_WORKERCOMMAND_H
#define DISPATCHLAB_CORE_WORKERCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getWorkerSubcommand();

/// Runs `dispatchlab worker` with the parsed options; returns the exit code.
int runWorkerCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_WORKERCOMMAND_H

//===- DiffCommand.h - `dispatchlab diff` -----------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_DIFFCOMMAND_H
#define DISPATCHLAB_CORE_DIFFCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getDiffSubcommand();

/// Runs `dispatchlab diff` with the parsed options; returns the exit code.
int runDiffCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_DIFFCOMMAND_H

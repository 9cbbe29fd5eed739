//===- ReproduceCommand.h - `dispatchlab reproduce` -------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_REPRODUCECOMMAND_H
#define DISPATCHLAB_CORE_REPRODUCECOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getReproduceSubcommand();

/// Runs `dispatchlab reproduce` with the parsed options; returns the exit code.
int runReproduceCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_REPRODUCECOMMAND_H

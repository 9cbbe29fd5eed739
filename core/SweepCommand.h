//===- SweepCommand.h - `dispatchlab sweep` ---------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_SWEEPCOMMAND_H
#define DISPATCHLAB_CORE_SWEEPCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getSweepSubcommand();

/// Runs `dispatchlab sweep` with the parsed options; returns the exit code.
int runSweepCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SWEEPCOMMAND_H

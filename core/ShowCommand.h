//===- ShowCommand.h - `dispatchlab show` -----------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_SHOWCOMMAND_H
#define DISPATCHLAB_CORE_SHOWCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getShowSubcommand();

/// Runs `dispatchlab show` with the parsed options; returns the exit code.
int runShowCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SHOWCOMMAND_H

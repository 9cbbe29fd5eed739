//===- ShowCommand.h - `dispatchlab show` -----------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SHOWCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SHOWCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getShowSubcommand();

/// Runs `dispatchlab show` with the parsed options; returns the exit code.
int runShowCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SHOWCOMMAND_H

//===- CoordinatorCommand.h - `dispatchlab coordinator` ---------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COORDINATORCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COORDINATORCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getCoordinatorSubcommand();

/// Runs `dispatchlab coordinator` with the parsed options; returns the exit
/// code.
int runCoordinatorCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_COORDINATORCOMMAND_H

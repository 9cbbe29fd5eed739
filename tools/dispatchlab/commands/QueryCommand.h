//===- QueryCommand.h - `dispatchlab query` ---------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_QUERYCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_QUERYCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getQuerySubcommand();

/// Runs `dispatchlab query` with the parsed options; returns the exit code.
int runQueryCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_QUERYCOMMAND_H

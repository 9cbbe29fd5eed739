//===- QueryCommand.h - `dispatchlab query` ---------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_QUERYCOMMAND_H
#define DISPATCHLAB_CORE_QUERYCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getQuerySubcommand();

/// Runs `dispatchlab query` with the parsed options; returns the exit code.
int runQueryCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_QUERYCOMMAND_H

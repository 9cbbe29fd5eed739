//===- JobsCommand.h - `dispatchlab jobs` -----------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_JOBSCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_JOBSCOMMAND_H

#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace dispatchlab {

llvm::cl::SubCommand &getJobsSubcommand();

/// Runs `dispatchlab jobs` with the parsed options; returns the exit code.
int runJobsCommand();

/// A job kind as users read it: "compile", "run", "test_crash", ...
std::string jobKindName(int64_t kind);

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_JOBSCOMMAND_H

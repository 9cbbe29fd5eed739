//===- ReportCommand.h - `dispatchlab report` -------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_REPORTCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_REPORTCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getReportSubcommand();

/// Runs `dispatchlab report` with the parsed options; returns the exit code.
int runReportCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_REPORTCOMMAND_H

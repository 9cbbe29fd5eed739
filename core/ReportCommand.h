//===- ReportCommand.h - `dispatchlab report` -------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_REPORTCOMMAND_H
#define DISPATCHLAB_CORE_REPORTCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace dispatchlab {

llvm::cl::SubCommand &getReportSubcommand();

/// Runs `dispatchlab report` with the parsed options; returns the exit code.
int runReportCommand();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_REPORTCOMMAND_H

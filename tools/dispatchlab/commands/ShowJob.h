//===- ShowJob.h - `dispatchlab show --job` ---------------------*- C++ -*-===//
//
// Everything the database holds about one job, failed or not: its model
// and variant in full, its state and failure, the command that does the
// same thing locally, and the stderr tail of a failure.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SHOWJOB_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SHOWJOB_H

#include "results/JobListing.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace dispatchlab {

/// `dispatchlab ARGS...` that does what `job` did in its worker's child,
/// with the model as the spec named it.
std::string reproduceCommand(const JobListing &job);

/// "  latency      8.88 us median of 20 repetitions, cv 2.1%" for stats
/// holding a run's measurement; nothing for others.
void printLatency(llvm::StringRef statsJson, llvm::raw_ostream &os);

/// The summary of `job` that `show --job` prints.
void printJob(const JobListing &job, llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SHOWJOB_H

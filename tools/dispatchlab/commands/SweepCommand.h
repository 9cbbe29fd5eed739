//===- SweepCommand.h - `dispatchlab sweep` ---------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPCOMMAND_H

#include "coordinator/SweepSpec.h"
#include "proto/coordinator.pb.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace dispatchlab {

llvm::cl::SubCommand &getSweepSubcommand();

/// `dispatchlab sweep`'s exit status when the sweep finished and some of its
/// jobs failed (1: the sweep could not run or be followed, 2: bad usage or
/// spec, 130: interrupted).
constexpr int kExitJobsFailed = 3;

/// Runs `dispatchlab sweep` with the parsed options; returns the exit code:
/// 0 when every job is done or cached, else as kExitJobsFailed says.
int runSweepCommand();

struct EmbeddedSweepOptions {
  std::string dbPath;
  unsigned workers = 1;
  bool force = false;
};

/// Runs `loaded` the way `dispatchlab sweep` does without --coordinator
/// (stored results reused unless `force`) and fills `final` with the
/// finished sweep. Returns 0, 1 on failure (reported), 130 if interrupted.
int runEmbeddedSweep(const LoadedSpec &loaded,
                     const EmbeddedSweepOptions &options,
                     coordinator::SweepProgress &final);

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPCOMMAND_H

//===- SweepCommand.h - `dispatchlab sweep` ---------------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPCOMMAND_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPCOMMAND_H

#include "coordinator/SweepSpec.h"
#include "proto/coordinator.pb.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace dispatchlab {

llvm::cl::SubCommand &getSweepSubcommand();

/// Runs `dispatchlab sweep` with the parsed options; returns the exit code.
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

//===- SweepListing.h - a database's sweeps, one record each ----*- C++ -*-===//
//
// What `dispatchlab sweeps` lists: every sweep with its spec hash, when it
// was submitted, how far its jobs got and the dispatchlab commit(s) that
// produced what it holds.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_SWEEPLISTING_H
#define DISPATCHLAB_RESULTS_SWEEPLISTING_H

#include "results/ResultStore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dispatchlab {

struct SweepListing {
  int64_t id = 0;
  std::string name, specHash;
  /// Unix seconds.
  double submittedAt = 0;
  int64_t jobs = 0, done = 0, cached = 0, failed = 0, pending = 0, running = 0;
  /// The distinct dispatchlab commits in the provenance of its jobs'
  /// results and failures, comma-separated; empty before any job finished.
  std::string commits;
};

/// Every sweep, oldest first.
llvm::Expected<std::vector<SweepListing>> listSweeps(ResultStore &store);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_SWEEPLISTING_H

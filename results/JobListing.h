//===- JobListing.h - a database's jobs, one record each --------*- C++ -*-===//
//
// What `dispatchlab jobs` lists and `dispatchlab show --job` prints: any job
// of any state, with its sweep, model name, variant, failure and result.
// Failed jobs have no result, so reports built on results never see them.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_JOBLISTING_H
#define DISPATCHLAB_RESULTS_JOBLISTING_H

#include "results/ResultStore.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

struct JobListing {
  int64_t id = 0, sweepId = 0;
  std::string sweepName;
  /// As the spec names it (a path relative to the spec, or a zoo name).
  std::string model, modelHash, modelExtension;
  std::string variant;
  /// dispatchlab.sweep.JobKind's number.
  int64_t kind = 0;
  /// As users name states: "running" for the database's 'leased'.
  std::string state;
  std::string preset, options;
  /// dispatchlab.sweep.Measurement, serialized.
  std::string measurement;
  std::string error, stderrTail;
  /// classifyFailure of the error; empty unless the job failed.
  std::string failureClass;
  std::optional<int64_t> resultId;
  /// The result's stats JSON; empty without a result.
  std::string statsJson;
  int64_t attempts = 0;
};

/// Which jobs to list; unset fields match every job.
struct JobFilter {
  std::optional<int64_t> sweepId;
  /// A user-facing state (see jobStates()).
  std::optional<std::string> state;
  std::optional<int64_t> jobId;
};

/// The states a filter may name: pending, running, done, failed, cached.
llvm::ArrayRef<llvm::StringRef> jobStates();

/// Matching jobs in id order (submission order).
llvm::Expected<std::vector<JobListing>> listJobs(ResultStore &store,
                                                 const JobFilter &filter);

/// The job with this id, if there is one.
llvm::Expected<std::optional<JobListing>> findJob(ResultStore &store,
                                                  int64_t jobId);

/// `stderrTail` with the worker's scratch copy of the model
/// (".../<hash><extension>") named as the spec named it.
std::string stderrNamingModel(const JobListing &job);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_JOBLISTING_H

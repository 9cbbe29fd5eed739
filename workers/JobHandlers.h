//===- JobHandlers.h - what each kind of job runs and reports ---*- C++ -*-===//
//
// One handler per sweep::JobKind: the child process that does a job of the
// kind, the cores that child is pinned to, and how its output becomes the
// stats a report carries. Adding a job kind is adding a handler; the worker
// only drives them.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_WORKERS_JOBHANDLERS_H
#define DISPATCHLAB_WORKERS_JOBHANDLERS_H

#include "proto/coordinator.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

/// What a handler knows of the worker that runs the job.
struct JobContext {
  /// The job's model as a file, for kinds that need one.
  std::string modelPath;
  /// The worker's slots and the cores it may pin jobs to.
  unsigned slots = 1;
  size_t cores = 0;
  /// Run and compare jobs' --cache-dir and --cache-max-mb (WorkerConfig).
  std::string cacheDirectory;
  uint64_t cacheMaxMb = 0;
};

/// The child process a job runs as.
struct JobCommand {
  /// The arguments after the dispatchlab binary.
  std::vector<std::string> arguments;
  /// Cores reserved for the child alone (a measurement); 0: the child
  /// shares one core with others that measure nothing.
  unsigned exclusiveCores = 0;
};

/// The stats of a job, as its report carries them.
struct JobStats {
  std::string json;
  /// The provenance of the child that produced them, when it said.
  std::optional<std::string> provenanceJson;
};

struct JobHandler {
  sweep::JobKind kind;
  /// Whether the job's model must be a file before `prepare`.
  bool needsModel;
  /// The child to run, or why the job fails without one. Null for a kind
  /// done in-process, which succeeds with empty stats.
  llvm::Expected<JobCommand> (*prepare)(const coordinator::Job &job,
                                        const JobContext &context);
  /// The stats in the output of a child that exited 0, or why there are
  /// none.
  llvm::Expected<JobStats> (*parseOutput)(llvm::StringRef stdoutText);
};

/// The handler of `kind`; null for a kind this worker does not know.
const JobHandler *findJobHandler(sweep::JobKind kind);

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_JOBHANDLERS_H

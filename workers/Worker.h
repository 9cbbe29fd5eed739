//===- Worker.h - a worker's loop ------------------------------*- C++ -*-===//
//
// Registers with a coordinator, then runs `slots` jobs at a time: lease, run
// the job in a child process (JobRunner) while heartbeating the lease, report
// the outcome (retrying while the coordinator is unreachable, which reports'
// idempotence makes safe, for up to a time limit and saying so).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_WORKERS_WORKER_H
#define DISPATCHLAB_WORKERS_WORKER_H

#include "coordinator/CoordinatorClient.h"
#include "coordinator/CoordinatorReachability.h"
#include "proto/coordinator.pb.h"
#include "workers/CorePool.h"
#include "workers/JobHandlers.h"
#include "workers/JobRunner.h"
#include "workers/WorkerScratchDir.h"

#include "llvm/Support/Error.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace dispatchlab {

struct WorkerConfig {
  ClientConfig client;
  /// Jobs run at once, and the most cores one run job may be pinned to.
  unsigned slots = 1;
  /// The dispatchlab binary children run (`compile`, test jobs).
  std::string selfExe = "/proc/self/exe";
  /// One line per job started and finished; null: none.
  llvm::raw_ostream *log = nullptr;
  /// Lines about the coordinator going out of reach and coming back, and
  /// stale scratch directories removed; null: none.
  llvm::raw_ostream *notices = nullptr;
  /// How long the coordinator may stay out of reach before the worker gives
  /// up; 0: retry forever.
  std::chrono::seconds coordinatorTimeout{120};
  /// Registered instead of the host's CPU class, so tests can stand for a
  /// machine of another class; empty: the host's.
  std::string cpuClassOverride;
  /// Passed to run jobs as --cache-dir (and --cache-max-mb when not 0), so
  /// that the variants of a model share one reference; empty: no cache.
  std::string cacheDirectory;
  uint64_t cacheMaxMb = 0;
};

class Worker {
public:
  explicit Worker(WorkerConfig config);
  ~Worker();

  /// Registers (waiting while the coordinator is unreachable) and runs jobs
  /// until `stop` is set. Jobs cut short by `stop` are not reported: their
  /// leases expire (or an embedded sweep releases them). Fails when the
  /// coordinator refuses the worker or stays out of reach for longer than
  /// config.coordinatorTimeout.
  llvm::Error run(const std::atomic<bool> &stop);

  /// The outcome of one job, or nothing when it was cut short (stop, or its
  /// lease went to another worker). Its kind's JobHandler says what to run.
  std::optional<coordinator::ReportResultRequest>
  execute(const coordinator::Job &job, const std::atomic<bool> &stop);

private:
  llvm::Error registerWorker(const std::atomic<bool> &stop);
  void slotLoop(const std::atomic<bool> &stop);
  void report(coordinator::ReportResultRequest &request,
              const std::atomic<bool> &stop);
  /// The job's model as a file in the scratch directory.
  llvm::Expected<std::string> materializeModel(const coordinator::Job &job);
  /// Heartbeats the job's lease: false once the coordinator says it is gone.
  bool leaseHeld(const coordinator::Job &job);
  /// Runs `command` on cores of the pool (into limits.cpus) while
  /// heartbeating; nothing when cut short.
  std::optional<ChildResult> runPinned(const coordinator::Job &job,
                                       const JobCommand &command,
                                       ChildLimits &limits,
                                       const std::atomic<bool> &stop);
  void log(const std::string &line);
  void notice(const std::string &line);
  /// Notes whether a call reached the coordinator; gives up (gaveUp) once
  /// it has been out of reach too long.
  void noteCall(const grpc::Status &status);
  bool keepRunning(const std::atomic<bool> &stop) const {
    return !stop && !gaveUp;
  }

  WorkerConfig config;
  CoordinatorClient client;
  CoordinatorReachability reach;
  int64_t workerId = 0;
  double heartbeatSeconds = 5;
  WorkerScratchDir scratch;
  std::string provenanceJson;
  std::mutex logMutex;
  std::mutex modelMutex;
  /// The CPUs this process may run on, locked host-wide while reserved.
  CorePool cores;
  std::atomic<bool> fatal{false};
  std::atomic<bool> gaveUp{false};
};

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_WORKER_H

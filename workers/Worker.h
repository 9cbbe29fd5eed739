//===- Worker.h - a worker's loop --------------------------------*- C++
//-*-===//
//
// Registers with a coordinator, then runs `slots` jobs at a time: lease, run
// the job in a child process (JobRunner) while heartbeating the lease, report
// the outcome (retrying while the coordinator is unreachable, which reports'
// idempotence makes safe).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_WORKERS_WORKER_H
#define DISPATCHLAB_WORKERS_WORKER_H

#include "coordinator/CoordinatorClient.h"
#include "proto/coordinator.pb.h"

#include <atomic>
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
  unsigned slots = 1;
  /// The dispatchlab binary children run (`compile`, test jobs).
  std::string selfExe = "/proc/self/exe";
  /// One line per job started and finished; null: none.
  llvm::raw_ostream *log = nullptr;
};

class Worker {
public:
  explicit Worker(WorkerConfig config);
  ~Worker();

  /// Registers (waiting while the coordinator is unreachable) and runs jobs
  /// until `stop` is set. Jobs cut short by `stop` are not reported: their
  /// leases expire (or an embedded sweep releases them). Returns false with
  /// `error` when the coordinator refuses the worker.
  bool run(const std::atomic<bool> &stop, std::string &error);

  /// The outcome of one job, or nothing when it was cut short (stop, or its
  /// lease went to another worker). `slot` picks the core latency jobs are
  /// pinned to.
  std::optional<coordinator::ReportResultRequest>
  execute(const coordinator::Job &job, const std::atomic<bool> &stop,
          unsigned slot = 0);

private:
  bool registerWorker(const std::atomic<bool> &stop, std::string &error);
  void slotLoop(const std::atomic<bool> &stop, unsigned slot);
  void report(coordinator::ReportResultRequest &request,
              const std::atomic<bool> &stop);
  /// The job's model as a file in the scratch directory.
  std::string materializeModel(const coordinator::Job &job);
  void log(const std::string &line);

  WorkerConfig config;
  CoordinatorClient client;
  int64_t workerId = 0;
  double heartbeatSeconds = 5;
  std::string scratchDir;
  std::string provenanceJson;
  std::mutex logMutex;
  std::mutex modelMutex;
  /// One per core: latency jobs on a host run one at a time per core.
  std::vector<std::mutex> coreLocks;
  std::atomic<bool> fatal{false};
};

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_WORKER_H

//===- Worker.h - a worker's loop ------------------------------*- C++ -*-===//
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
#include "workers/JobHandlers.h"
#include "workers/JobRunner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace dispatchlab {

/// The cores latency jobs are pinned to. A run job reserves as many as it
/// has threads, all at once and first come first served, so two
/// measurements never share a core and a wide job is not starved by narrow
/// ones. With a lock directory, a reserved core is also locked there (flock
/// on one file per CPU), so worker processes on one host never share one
/// either. Other jobs (compiles) hold cores shared: any number of them may
/// run on a core, but never beside a measurement, which waits for them to
/// end (flock's shared and exclusive locks across processes).
class CorePool {
public:
  explicit CorePool(std::vector<int> cpus, std::string lockDir = "");
  ~CorePool();

  size_t size() const { return cpus.size(); }

  /// Waits until `count` cores (at most size()) are free and it is this
  /// request's turn, polling `keepGoing` every 100 ms; returns the CPU ids,
  /// or nothing once `keepGoing` says stop.
  std::optional<std::vector<int>> acquire(unsigned count,
                                          llvm::function_ref<bool()> keepGoing);
  void release(llvm::ArrayRef<int> cores);

  /// Waits, like acquire, for a core no measurement holds, and shares it:
  /// the one with the fewest sharers in this pool.
  std::optional<int> acquireShared(llvm::function_ref<bool()> keepGoing);
  void releaseShared(int core);

private:
  /// Takes the host-wide lock of cpus[index], exclusive or shared; false
  /// if another process holds it in a conflicting mode.
  bool lockHost(size_t index, bool exclusive);
  void unlockHost(size_t index);
  /// Waits until it is this request's turn and `take` (called under the
  /// mutex) succeeds; false once `keepGoing` says stop.
  bool waitTurn(llvm::function_ref<bool()> take,
                llvm::function_ref<bool()> keepGoing);

  std::vector<int> cpus;
  /// Per CPU, whether a measurement holds it, and how many jobs share it.
  std::vector<bool> busy;
  std::vector<unsigned> sharers;
  std::string lockDir;
  /// Per CPU, the open lock file while held, else -1.
  std::vector<int> lockFds;
  std::mutex mutex;
  std::condition_variable freed;
  /// Requests waiting, oldest first.
  std::list<uint64_t> queue;
  uint64_t nextRequest = 0;
};

/// Where workers lock the cores their run jobs are pinned to.
inline constexpr const char *kCoreLockDir = "/tmp/dispatchlab-core-locks";

struct WorkerConfig {
  ClientConfig client;
  /// Jobs run at once, and the most cores one run job may be pinned to.
  unsigned slots = 1;
  /// The dispatchlab binary children run (`compile`, test jobs).
  std::string selfExe = "/proc/self/exe";
  /// One line per job started and finished; null: none.
  llvm::raw_ostream *log = nullptr;
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
  /// coordinator refuses the worker.
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

  WorkerConfig config;
  CoordinatorClient client;
  int64_t workerId = 0;
  double heartbeatSeconds = 5;
  std::string scratchDir;
  std::string provenanceJson;
  std::mutex logMutex;
  std::mutex modelMutex;
  /// The CPUs this process may run on, locked host-wide while reserved.
  CorePool cores;
  std::atomic<bool> fatal{false};
};

} // namespace dispatchlab

#endif // DISPATCHLAB_WORKERS_WORKER_H

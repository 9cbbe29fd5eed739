//===- JobQueue.h - sweeps' jobs, leases and outcomes -----------*- C++ -*-===//
//
// The jobs table of the result database and the rules for moving a job
// through it: submission (reusing stored results), leases with deadlines,
// heartbeats, expiry and re-lease, retries of infrastructure errors with
// exponential backoff up to a cap, and reports that count once. Every state
// change is one SQLite transaction, so a coordinator killed at any point
// restarts where it was. Thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_JOBQUEUE_H
#define DISPATCHLAB_COORDINATOR_JOBQUEUE_H

#include "coordinator/SweepExpander.h"
#include "results/ResultStore.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

struct QueuePolicy {
  /// How long a lease lasts without a heartbeat.
  double leaseSeconds = 30;
  /// Leases a job may get; an infrastructure error or expired lease after
  /// the last one fails the job.
  int maxAttempts = 4;
  /// Retry n waits min(cap, base * 2^(n-1)).
  double backoffBaseSeconds = 1;
  double backoffCapSeconds = 60;
};

struct SubmitResult {
  int64_t sweepId = 0;
  int64_t jobs = 0;
  int64_t cached = 0;
  bool resumed = false;
  /// Jobs of a resumed sweep already done, failed or cached.
  int64_t finished = 0;
  /// Nonzero when nothing was submitted: the sweep of this id holds the
  /// name with a different spec text (names are unique unless forced).
  int64_t nameTakenBy = 0;
};

/// What `sweeps rm` removed.
struct RemovedSweep {
  int64_t jobs = 0;
  /// Results no other sweep's job points at, and models no job uses.
  int64_t results = 0, models = 0;
};

struct LeasedJob {
  int64_t jobId = 0;
  /// 1 for the first lease of the job, 2 for the next, ...
  int64_t leaseId = 0;
  int kind = 0;
  std::string modelHash;
  std::string preset;
  std::string options;
  /// Binary `sweep::Measurement`.
  std::string measurement;
};

enum class JobOutcome { Succeeded, Failed, InfrastructureError };

struct JobReport {
  JobOutcome outcome = JobOutcome::Succeeded;
  std::string statsJson;
  std::string provenanceJson;
  std::string error;
  int exitCode = 0;
  int signal = 0;
  std::string stderrTail;
  double wallSeconds = 0;
};

struct SweepCounts {
  int64_t total = 0, done = 0, failed = 0, cached = 0, running = 0, pending = 0;
  bool finished() const { return done + failed + cached == total; }
  bool operator==(const SweepCounts &other) const {
    return total == other.total && done == other.done &&
           failed == other.failed && cached == other.cached &&
           running == other.running && pending == other.pending;
  }
};

struct JobRowView {
  std::string model, variant, state, statsJson, error;
};

class JobQueue {
public:
  JobQueue(ResultStore &store, QueuePolicy policy);

  /// Adds a sweep and its jobs. The same jobs submitted again (same spec,
  /// models and build) resume the existing sweep unless `force`. A name
  /// taken by a sweep of another spec text is refused (nameTakenBy) unless
  /// `force`; the same spec text with other models or another build is a
  /// new sweep of the same name. Unless
  /// `force`, a job whose content key has a stored result starts as cached,
  /// and one whose key another sweep's job is running waits for that
  /// result; a forced job is measured again and adds a result.
  llvm::Expected<SubmitResult> submit(const std::string &name,
                                      const std::string &specText,
                                      llvm::ArrayRef<ModelContent> models,
                                      llvm::ArrayRef<ExpandedJob> jobs,
                                      bool force, double now);

  /// The oldest ready job `workerId` may run (jobs bound to a CPU class go
  /// to workers registered with that class only; unforced jobs whose key is
  /// leased wait), leased to it until now + leaseSeconds. Expired leases are
  /// requeued (or failed) first.
  llvm::Expected<std::optional<LeasedJob>> lease(int64_t workerId, double now);

  /// Extends the lease; false if it is no longer the job's current lease.
  llvm::Expected<bool> heartbeat(int64_t jobId, int64_t leaseId,
                                 int64_t workerId, double now);

  /// Records an outcome. A success or failure of any lease of a job that is
  /// not finished yet is accepted (a late report from an expired lease saves
  /// the rerun); anything for a finished job is a duplicate and ignored. An
  /// infrastructure error counts only for the current lease. A success also
  /// finishes other sweeps' unforced jobs waiting for the key, as cached.
  /// Returns whether the report was accepted.
  llvm::Expected<bool> report(int64_t jobId, int64_t leaseId, int64_t workerId,
                              const JobReport &report, double now);

  /// Requeues leases past their deadline; returns how many.
  llvm::Expected<int> expireLeases(double now);

  /// Returns every leased job to pending without counting the lease as an
  /// attempt: for an embedded sweep resuming after its own interruption,
  /// when no worker of the previous run can still hold a lease.
  llvm::Expected<int> releaseAllLeases();

  /// Deletes the sweep and its jobs, then the results and models only they
  /// used. Leased jobs lose their lease (a late report finds no job).
  llvm::Expected<RemovedSweep> removeSweep(int64_t sweepId);

  /// Fails the sweep's pending jobs as cancelled (error "cancelled"), in one
  /// transaction; leased jobs run to their end. Returns how many. Safe with
  /// a coordinator on the database: leases read the state afresh.
  llvm::Expected<int64_t> cancelPending(int64_t sweepId, double now);

  llvm::Expected<SweepCounts> counts(int64_t sweepId);
  llvm::Expected<std::vector<JobRowView>> rows(int64_t sweepId);
  llvm::Expected<std::string> sweepName(int64_t sweepId);

  /// Registers a worker and returns its id.
  llvm::Expected<int64_t> addWorker(const WorkerRecord &worker, double now);

  /// A model's stored bytes (what leases hand out).
  llvm::Expected<std::optional<StoredModel>> model(const std::string &hash);

  /// A counter bumped on every state change, and a wait for it to move.
  uint64_t version();
  void waitForChange(uint64_t seen, std::chrono::milliseconds timeout);

  /// Wakes every waiter for good (server shutdown).
  void shutdown();
  bool isShutDown();

  const QueuePolicy &getPolicy() const { return policy; }
  /// The result database's file, for messages.
  const std::string &databasePath() const { return store.getPath(); }

private:
  /// The newest sweep of these jobs, as a resumed submission; none if new.
  llvm::Expected<std::optional<SubmitResult>>
  findSweep(const std::string &specHash);
  /// The newest sweep named `name` whose spec text differs from `specText`.
  llvm::Expected<std::optional<int64_t>>
  sweepWithOtherSpec(const std::string &name, const std::string &specText);
  /// Adds the sweep and its models and jobs (in the caller's transaction).
  llvm::Expected<SubmitResult>
  insertSweep(const std::string &name, const std::string &specText,
              const std::string &specHash, llvm::ArrayRef<ModelContent> models,
              llvm::ArrayRef<ExpandedJob> jobs, bool force, double now);
  /// Adds one job of sweep `sweepId`; true if a stored result answers it.
  llvm::Expected<bool> insertJob(int64_t sweepId, const ExpandedJob &job,
                                 bool force, double now);
  double backoff(int64_t attempts) const;
  llvm::Error recordSuccess(int64_t jobId, const std::string &key,
                            int64_t workerId, const JobReport &report,
                            double now);
  llvm::Error recordFailure(int64_t jobId, int64_t workerId,
                            const JobReport &report, double now);
  /// Back to pending after a backoff, or failed once no attempts are left.
  llvm::Error recordInfrastructureError(int64_t jobId, int64_t attempts,
                                        const JobReport &report, double now);
  /// The open job's outcome recorded; whether the report counts.
  llvm::Expected<bool> recordReport(int64_t jobId, int64_t leaseId,
                                    int64_t workerId, const JobReport &report,
                                    double now);
  llvm::Expected<int> expireLocked(double now);
  /// The oldest ready job `workerId` may run, leased to it.
  llvm::Expected<std::optional<LeasedJob>> leaseLocked(int64_t workerId,
                                                       double now);
  void changed();

  ResultStore &store;
  QueuePolicy policy;
  std::mutex mutex;
  std::condition_variable cv;
  uint64_t changeCount = 0;
  bool stopped = false;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_JOBQUEUE_H

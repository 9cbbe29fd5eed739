//===- SweepManagement.cpp - removing and cancelling sweeps ---------------===//
//
// JobQueue's `sweeps rm` and `sweeps cancel`: each one transaction, so a
// coordinator on the same database sees the sweep whole or not at all.
//
//===----------------------------------------------------------------------===//

#include "coordinator/JobQueue.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace dispatchlab {

/// The distinct non-null values of `column` over the jobs of a sweep.
static std::vector<std::string>
jobColumn(ResultStore &store, const std::string &column, int64_t sweepId) {
  Statement &query = store.prepare("SELECT DISTINCT " + column +
                                   " FROM jobs WHERE "
                                   "sweep_id = ?1 AND " +
                                   column + " IS NOT NULL");
  query.bind(1, sweepId);
  std::vector<std::string> values;
  while (query.step())
    values.push_back(query.getText(0));
  query.reset();
  return values;
}

RemovedSweep JobQueue::removeSweep(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  RemovedSweep removed = store.transaction([&] {
    RemovedSweep removed;
    std::vector<std::string> results = jobColumn(store, "result_id", sweepId);
    std::vector<std::string> models = jobColumn(store, "model_hash", sweepId);
    store.prepare("DELETE FROM jobs WHERE sweep_id = ?1")
        .bind(1, sweepId)
        .run();
    removed.jobs = store.changes();
    store.prepare("DELETE FROM sweeps WHERE id = ?1").bind(1, sweepId).run();
    // What other sweeps' jobs point at stays: their reports still read it.
    Statement &unusedResult =
        store.prepare("DELETE FROM results WHERE id = ?1 AND NOT EXISTS "
                      "(SELECT 1 FROM jobs WHERE result_id = ?1)");
    for (const std::string &id : results) {
      unusedResult.bind(1, static_cast<int64_t>(std::stoll(id))).run();
      removed.results += store.changes();
    }
    Statement &unusedModel =
        store.prepare("DELETE FROM models WHERE hash = ?1 AND NOT EXISTS "
                      "(SELECT 1 FROM jobs WHERE model_hash = ?1)");
    for (const std::string &hash : models) {
      unusedModel.bind(1, llvm::StringRef(hash)).run();
      removed.models += store.changes();
    }
    return removed;
  });
  changed();
  return removed;
}

int64_t JobQueue::cancelPending(int64_t sweepId, double now) {
  std::lock_guard<std::mutex> lock(mutex);
  int64_t cancelled = store.transaction([&] {
    store
        .prepare("UPDATE jobs SET state = 'failed', error = ?2, "
                 "finished_at = ?3 WHERE sweep_id = ?1 AND state = 'pending'")
        .bind(1, sweepId)
        .bind(2, llvm::StringRef(kCancelledError))
        .bind(3, now)
        .run();
    return static_cast<int64_t>(store.changes());
  });
  if (cancelled)
    changed();
  return cancelled;
}

} // namespace dispatchlab

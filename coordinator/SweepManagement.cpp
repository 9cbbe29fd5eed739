//===- SweepManagement.cpp - removing and cancelling sweeps ---------------===//
//
// JobQueue's `sweeps rm` and `sweeps cancel`: each one transaction, so a
// coordinator on the same database sees the sweep whole or not at all.
//
//===----------------------------------------------------------------------===//

#include "coordinator/JobQueue.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace dispatchlab {

/// The distinct non-null values of `column` over the jobs of a sweep, each
/// read by `read`.
template <typename T>
static llvm::Expected<std::vector<T>>
jobColumn(ResultStore &store, const std::string &column, int64_t sweepId,
          T (Statement::*read)(int) const) {
  llvm::Expected<Statement &> query = store.query("SELECT DISTINCT " + column +
                                                      " FROM jobs WHERE "
                                                      "sweep_id = ?1 AND " +
                                                      column + " IS NOT NULL",
                                                  sweepId);
  if (!query)
    return query.takeError();
  std::vector<T> values;
  if (llvm::Error error = query->forEachRow(
          [&](const Statement &row) { values.push_back((row.*read)(0)); }))
    return std::move(error);
  return values;
}

/// Runs `sql` with ?1 bound to each of `keys` in turn, adding the rows it
/// changed to `changed`.
template <typename Key>
static llvm::Error runForEach(ResultStore &store, const std::string &sql,
                              llvm::ArrayRef<Key> keys, int64_t &changed) {
  for (const Key &key : keys) {
    if (llvm::Error error = store.run(sql, key))
      return error;
    changed += store.changes();
  }
  return llvm::Error::success();
}

/// The sweep and its jobs deleted, then what only they used.
static llvm::Expected<RemovedSweep> removeSweepRows(ResultStore &store,
                                                    int64_t sweepId) {
  llvm::Expected<std::vector<int64_t>> results =
      jobColumn(store, "result_id", sweepId, &Statement::getInt);
  if (!results)
    return results.takeError();
  llvm::Expected<std::vector<std::string>> models =
      jobColumn(store, "model_hash", sweepId, &Statement::getText);
  if (!models)
    return models.takeError();
  RemovedSweep removed;
  if (llvm::Error error =
          store.run("DELETE FROM jobs WHERE sweep_id = ?1", sweepId))
    return std::move(error);
  removed.jobs = store.changes();
  if (llvm::Error error =
          store.run("DELETE FROM sweeps WHERE id = ?1", sweepId))
    return std::move(error);
  // What other sweeps' jobs point at stays: their reports still read it.
  if (llvm::Error error = runForEach<int64_t>(
          store,
          "DELETE FROM results WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM "
          "jobs WHERE result_id = ?1)",
          *results, removed.results))
    return std::move(error);
  if (llvm::Error error = runForEach<std::string>(
          store,
          "DELETE FROM models WHERE hash = ?1 AND NOT EXISTS (SELECT 1 FROM "
          "jobs WHERE model_hash = ?1)",
          *models, removed.models))
    return std::move(error);
  return removed;
}

llvm::Expected<RemovedSweep> JobQueue::removeSweep(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<RemovedSweep> removed =
      store.transaction([&] { return removeSweepRows(store, sweepId); });
  if (removed)
    changed();
  return removed;
}

llvm::Expected<int64_t> JobQueue::cancelPending(int64_t sweepId, double now) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<int64_t> cancelled =
      store.transaction([&]() -> llvm::Expected<int64_t> {
        if (llvm::Error error = store.run(
                "UPDATE jobs SET state = 'failed', error = ?2, finished_at = "
                "?3 WHERE sweep_id = ?1 AND state = 'pending'",
                sweepId, llvm::StringRef(kCancelledError), now))
          return std::move(error);
        return static_cast<int64_t>(store.changes());
      });
  if (cancelled && *cancelled)
    changed();
  return cancelled;
}

} // namespace dispatchlab

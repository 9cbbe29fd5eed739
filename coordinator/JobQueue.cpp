//===- JobQueue.cpp - sweeps' jobs, leases and outcomes -------------------===//

#include "coordinator/JobQueue.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

namespace dispatchlab {

JobQueue::JobQueue(ResultStore &store, QueuePolicy policy)
    : store(store), policy(policy) {}

double JobQueue::backoff(int64_t attempts) const {
  return std::min(policy.backoffCapSeconds,
                  policy.backoffBaseSeconds *
                      std::pow(2.0, std::max<int64_t>(attempts - 1, 0)));
}

void JobQueue::changed() {
  ++changeCount;
  cv.notify_all();
}

llvm::Expected<std::optional<SubmitResult>>
JobQueue::findSweep(const std::string &specHash) {
  llvm::Expected<Statement &> find = store.query(
      "SELECT id FROM sweeps WHERE spec_hash = ?1 ORDER BY id DESC", specHash);
  if (!find)
    return find.takeError();
  std::optional<SubmitResult> result;
  if (llvm::Error error = find->firstRow([&](const Statement &row) {
        result.emplace();
        result->sweepId = row.getInt(0);
        result->resumed = true;
      }))
    return std::move(error);
  if (!result)
    return result;
  llvm::Expected<Statement &> count = store.query(
      "SELECT COUNT(*), COALESCE(SUM(state = 'cached'), 0) FROM jobs "
      "WHERE sweep_id = ?1 AND state IN ('done', 'failed', 'cached')",
      result->sweepId);
  if (!count)
    return count.takeError();
  if (llvm::Error error = count->firstRow([&](const Statement &row) {
        result->finished = row.getInt(0);
        result->cached = row.getInt(1);
      }))
    return std::move(error);
  return result;
}

llvm::Expected<std::optional<int64_t>>
JobQueue::sweepWithOtherSpec(const std::string &name,
                             const std::string &specText) {
  llvm::Expected<Statement &> find =
      store.query("SELECT id, spec_text = ?2 FROM sweeps "
                  "WHERE name = ?1 ORDER BY id DESC LIMIT 1",
                  name, specText);
  if (!find)
    return find.takeError();
  std::optional<int64_t> taken;
  if (llvm::Error error = find->firstRow([&](const Statement &row) {
        if (!row.getInt(1))
          taken = row.getInt(0);
      }))
    return std::move(error);
  return taken;
}

llvm::Expected<bool> JobQueue::insertJob(int64_t sweepId,
                                         const ExpandedJob &job, bool force,
                                         double now) {
  llvm::Expected<std::optional<int64_t>> stored =
      force ? std::nullopt : store.findResult(job.contentKey);
  if (!stored)
    return stored.takeError();
  // A cached job's result and finish time; NULL (unbound) for the others.
  std::optional<double> finishedAt;
  if (*stored)
    finishedAt = now;
  if (llvm::Error error = store.run(
          "INSERT INTO jobs(sweep_id, content_key, model_hash, model_name, "
          "variant, kind, preset, options, measurement, state, result_id, "
          "finished_at, cpu_class, forced) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
          "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
          sweepId, job.contentKey, job.modelHash, job.modelName,
          job.variant.name, static_cast<int64_t>(job.variant.kind),
          job.variant.preset, job.variant.options,
          Blob{job.measurement.SerializeAsString()},
          *stored ? "cached" : "pending", *stored, finishedAt, job.cpuClass,
          static_cast<int64_t>(force)))
    return std::move(error);
  return stored->has_value();
}

llvm::Expected<SubmitResult> JobQueue::insertSweep(
    const std::string &name, const std::string &specText,
    const std::string &specHash, llvm::ArrayRef<ModelContent> models,
    llvm::ArrayRef<ExpandedJob> jobs, bool force, double now) {
  SubmitResult result;
  result.jobs = jobs.size();
  if (llvm::Error error =
          store.run("INSERT INTO sweeps(name, spec_hash, spec_text, "
                    "submitted_at) VALUES (?1, ?2, ?3, ?4)",
                    name, specHash, specText, now))
    return std::move(error);
  result.sweepId = store.lastInsertId();
  for (const ModelContent &model : models)
    if (llvm::Error error = store.putModel(sha256Hex(model.content), model.name,
                                           model.extension, model.content))
      return std::move(error);
  for (const ExpandedJob &job : jobs) {
    llvm::Expected<bool> cached = insertJob(result.sweepId, job, force, now);
    if (!cached)
      return cached.takeError();
    result.cached += *cached;
  }
  return result;
}

llvm::Expected<SubmitResult>
JobQueue::submit(const std::string &name, const std::string &specText,
                 llvm::ArrayRef<ModelContent> models,
                 llvm::ArrayRef<ExpandedJob> jobs, bool force, double now) {
  // The sweep is the list of its jobs' keys: same spec, models and build.
  std::string identity = name + "\n";
  for (const ExpandedJob &job : jobs)
    identity += job.contentKey + "\n";
  std::string specHash = sha256Hex(identity);

  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<SubmitResult> result =
      store.transaction([&]() -> llvm::Expected<SubmitResult> {
        if (force)
          return insertSweep(name, specText, specHash, models, jobs, force,
                             now);
        llvm::Expected<std::optional<SubmitResult>> resumed =
            findSweep(specHash);
        if (!resumed)
          return resumed.takeError();
        if (*resumed) {
          (*resumed)->jobs = jobs.size();
          return **resumed;
        }
        llvm::Expected<std::optional<int64_t>> taken =
            sweepWithOtherSpec(name, specText);
        if (!taken)
          return taken.takeError();
        if (!*taken)
          return insertSweep(name, specText, specHash, models, jobs, force,
                             now);
        SubmitResult refused;
        refused.nameTakenBy = **taken;
        return refused;
      });
  if (result)
    changed();
  return result;
}

llvm::Expected<int> JobQueue::expireLocked(double now) {
  struct Expired {
    int64_t id, attempts;
  };
  std::vector<Expired> expired;
  llvm::Expected<Statement &> find =
      store.query("SELECT id, attempts FROM jobs WHERE state = 'leased' AND "
                  "lease_deadline < ?1",
                  now);
  if (!find)
    return find.takeError();
  if (llvm::Error error = find->forEachRow([&](const Statement &row) {
        expired.push_back({row.getInt(0), row.getInt(1)});
      }))
    return std::move(error);
  for (const Expired &job : expired) {
    // A worker that vanished mid-job is an infrastructure failure: retried,
    // but capped so a job that kills every worker it lands on ends.
    bool last = job.attempts >= policy.maxAttempts;
    if (llvm::Error error = store.run(
            "UPDATE jobs SET state = ?2, worker_id = NULL, lease_deadline = "
            "NULL, not_before = ?3, error = ?4, finished_at = ?5 WHERE id = "
            "?1",
            job.id, last ? "failed" : "pending", now + backoff(job.attempts),
            llvm::formatv("lease {0} expired without a report{1}", job.attempts,
                          last ? " (no attempts left)" : "")
                .str(),
            last ? now : 0.0))
      return std::move(error);
  }
  return expired.size();
}

llvm::Expected<int> JobQueue::expireLeases(double now) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<int> count =
      store.transaction([&] { return expireLocked(now); });
  if (count && *count)
    changed();
  return count;
}

llvm::Expected<std::optional<LeasedJob>> JobQueue::leaseLocked(int64_t workerId,
                                                               double now) {
  if (llvm::Expected<int> expired = expireLocked(now); !expired)
    return expired.takeError();
  // A job bound to a CPU class (run jobs: the key says where the latency
  // was measured) goes only to workers that registered that class. A job
  // whose key another job is running waits to reuse that result, unless
  // its sweep was forced to measure again.
  llvm::Expected<Statement &> next = store.query(
      "SELECT id, attempts, kind, model_hash, preset, options, measurement "
      "FROM jobs j WHERE state = 'pending' AND not_before <= ?1 AND "
      "(cpu_class = '' OR cpu_class = (SELECT cpu FROM workers WHERE id = "
      "?2)) AND (forced OR NOT EXISTS (SELECT 1 FROM jobs running WHERE "
      "running.content_key = j.content_key AND running.state = 'leased')) "
      "ORDER BY id LIMIT 1",
      now, workerId);
  if (!next)
    return next.takeError();
  std::optional<LeasedJob> job;
  if (llvm::Error error = next->firstRow([&](const Statement &row) {
        job = LeasedJob{row.getInt(0),  row.getInt(1) + 1, (int)row.getInt(2),
                        row.getText(3), row.getText(4),    row.getText(5),
                        row.getText(6)};
      }))
    return std::move(error);
  if (!job)
    return job;
  if (llvm::Error error = store.run(
          "UPDATE jobs SET state = 'leased', attempts = ?2, "
          "worker_id = ?3, lease_deadline = ?4 WHERE id = ?1",
          job->jobId, job->leaseId, workerId, now + policy.leaseSeconds))
    return std::move(error);
  if (llvm::Error error = store.touchWorker(workerId, now))
    return std::move(error);
  return job;
}

llvm::Expected<std::optional<LeasedJob>> JobQueue::lease(int64_t workerId,
                                                         double now) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<std::optional<LeasedJob>> job =
      store.transaction([&] { return leaseLocked(workerId, now); });
  if (job && *job)
    changed();
  return job;
}

llvm::Expected<bool> JobQueue::heartbeat(int64_t jobId, int64_t leaseId,
                                         int64_t workerId, double now) {
  std::lock_guard<std::mutex> lock(mutex);
  return store.transaction([&]() -> llvm::Expected<bool> {
    if (llvm::Error error =
            store.run("UPDATE jobs SET lease_deadline = ?3 WHERE id = ?1 AND "
                      "state = 'leased' AND attempts = ?2",
                      jobId, leaseId, now + policy.leaseSeconds))
      return std::move(error);
    bool valid = store.changes() == 1;
    if (llvm::Error error = store.touchWorker(workerId, now))
      return std::move(error);
    return valid;
  });
}

llvm::Error JobQueue::recordSuccess(int64_t jobId, const std::string &key,
                                    int64_t workerId, const JobReport &report,
                                    double now) {
  llvm::Expected<int64_t> resultId =
      store.putResult(key, report.statsJson, report.provenanceJson, workerId,
                      report.wallSeconds, now);
  if (!resultId)
    return resultId.takeError();
  if (llvm::Error error =
          store.run("UPDATE jobs SET state = 'done', result_id = ?2, "
                    "worker_id = ?3, lease_deadline = NULL, error = NULL, "
                    "finished_at = ?4 WHERE id = ?1",
                    jobId, *resultId, workerId, now))
    return error;
  // Other sweeps' jobs of this key reuse the result: those that waited, and
  // one that started when this job's lease expired before its (late) report;
  // that one's worker finds its lease gone at the next heartbeat.
  return store.run(
      "UPDATE jobs SET state = 'cached', result_id = ?2, worker_id = NULL, "
      "lease_deadline = NULL, finished_at = ?3 WHERE content_key = ?1 AND "
      "state IN ('pending', 'leased') AND NOT forced AND id != ?4",
      key, *resultId, now, jobId);
}

llvm::Error JobQueue::recordFailure(int64_t jobId, int64_t workerId,
                                    const JobReport &report, double now) {
  return store.run(
      "UPDATE jobs SET state = 'failed', worker_id = ?2, lease_deadline = "
      "NULL, error = ?3, exit_code = ?4, signal = ?5, stderr_tail = ?6, "
      "provenance_json = ?7, finished_at = ?8 WHERE id = ?1",
      jobId, workerId, report.error, static_cast<int64_t>(report.exitCode),
      static_cast<int64_t>(report.signal), report.stderrTail,
      report.provenanceJson, now);
}

llvm::Error JobQueue::recordInfrastructureError(int64_t jobId, int64_t attempts,
                                                const JobReport &report,
                                                double now) {
  bool last = attempts >= policy.maxAttempts;
  return store.run(
      "UPDATE jobs SET state = ?2, worker_id = NULL, lease_deadline = NULL, "
      "not_before = ?3, error = ?4, finished_at = ?5 WHERE id = ?1",
      jobId, last ? "failed" : "pending", now + backoff(attempts),
      report.error + (last ? " (no attempts left)" : ""), last ? now : 0.0);
}

llvm::Expected<bool> JobQueue::recordReport(int64_t jobId, int64_t leaseId,
                                            int64_t workerId,
                                            const JobReport &report,
                                            double now) {
  llvm::Expected<Statement &> find = store.query(
      "SELECT state, attempts, content_key FROM jobs WHERE id = ?1", jobId);
  if (!find)
    return find.takeError();
  std::optional<std::string> state;
  int64_t attempts = 0;
  std::string key;
  if (llvm::Error error = find->firstRow([&](const Statement &row) {
        state = row.getText(0);
        attempts = row.getInt(1);
        key = row.getText(2);
      }))
    return std::move(error);
  bool open = state == "pending" || state == "leased";
  if (!open || leaseId < 1 || leaseId > attempts)
    return false;

  if (llvm::Error error = store.touchWorker(workerId, now))
    return std::move(error);
  switch (report.outcome) {
  case JobOutcome::Succeeded:
    if (llvm::Error error = recordSuccess(jobId, key, workerId, report, now))
      return std::move(error);
    return true;
  case JobOutcome::Failed:
    if (llvm::Error error = recordFailure(jobId, workerId, report, now))
      return std::move(error);
    return true;
  case JobOutcome::InfrastructureError:
    // Only the current lease's: an older one's worker was replaced.
    if (state != "leased" || leaseId != attempts)
      return false;
    if (llvm::Error error =
            recordInfrastructureError(jobId, attempts, report, now))
      return std::move(error);
    return true;
  }
  return false;
}

llvm::Expected<bool> JobQueue::report(int64_t jobId, int64_t leaseId,
                                      int64_t workerId, const JobReport &report,
                                      double now) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<bool> accepted = store.transaction(
      [&] { return recordReport(jobId, leaseId, workerId, report, now); });
  if (accepted && *accepted)
    changed();
  return accepted;
}

llvm::Expected<int> JobQueue::releaseAllLeases() {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<int> count = store.transaction([&]() -> llvm::Expected<int> {
    if (llvm::Error error = store.exec(
            "UPDATE jobs SET state = 'pending', attempts = attempts - 1, "
            "worker_id = NULL, lease_deadline = NULL WHERE state = "
            "'leased'"))
      return std::move(error);
    return store.changes();
  });
  if (count && *count)
    changed();
  return count;
}

llvm::Expected<SweepCounts> JobQueue::counts(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<Statement &> query = store.query(
      "SELECT state, COUNT(*) FROM jobs WHERE sweep_id = ?1 GROUP BY state",
      sweepId);
  if (!query)
    return query.takeError();
  SweepCounts counts;
  if (llvm::Error error = query->forEachRow([&](const Statement &row) {
        std::string state = row.getText(0);
        int64_t count = row.getInt(1);
        counts.total += count;
        if (state == "done")
          counts.done = count;
        else if (state == "failed")
          counts.failed = count;
        else if (state == "cached")
          counts.cached = count;
        else if (state == "leased")
          counts.running = count;
        else
          counts.pending = count;
      }))
    return std::move(error);
  return counts;
}

llvm::Expected<std::vector<JobRowView>> JobQueue::rows(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<Statement &> query = store.query(
      "SELECT j.model_name, j.variant, j.state, COALESCE(r.stats_json, ''), "
      "COALESCE(j.error, '') FROM jobs j LEFT JOIN results r ON r.id = "
      "j.result_id WHERE j.sweep_id = ?1 ORDER BY j.id",
      sweepId);
  if (!query)
    return query.takeError();
  std::vector<JobRowView> rows;
  if (llvm::Error error = query->forEachRow([&](const Statement &row) {
        rows.push_back({row.getText(0), row.getText(1), row.getText(2),
                        row.getText(3), row.getText(4)});
      }))
    return std::move(error);
  return rows;
}

llvm::Expected<std::string> JobQueue::sweepName(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::Expected<Statement &> query =
      store.query("SELECT name FROM sweeps WHERE id = ?1", sweepId);
  if (!query)
    return query.takeError();
  std::string name;
  if (llvm::Error error =
          query->firstRow([&](const Statement &row) { name = row.getText(0); }))
    return std::move(error);
  return name;
}

llvm::Expected<int64_t> JobQueue::addWorker(const WorkerRecord &worker,
                                            double now) {
  std::lock_guard<std::mutex> lock(mutex);
  return store.transaction([&] { return store.addWorker(worker, now); });
}

llvm::Expected<std::optional<StoredModel>>
JobQueue::model(const std::string &hash) {
  std::lock_guard<std::mutex> lock(mutex);
  return store.getModel(hash);
}

uint64_t JobQueue::version() {
  std::lock_guard<std::mutex> lock(mutex);
  return changeCount;
}

void JobQueue::waitForChange(uint64_t seen, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex);
  cv.wait_for(lock, timeout, [&] { return stopped || changeCount != seen; });
}

void JobQueue::shutdown() {
  std::lock_guard<std::mutex> lock(mutex);
  stopped = true;
  cv.notify_all();
}

bool JobQueue::isShutDown() {
  std::lock_guard<std::mutex> lock(mutex);
  return stopped;
}

} // namespace dispatchlab

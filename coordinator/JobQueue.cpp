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

std::optional<SubmitResult> JobQueue::findSweep(const std::string &specHash) {
  Statement &find = store.prepare(
      "SELECT id FROM sweeps WHERE spec_hash = ?1 ORDER BY id DESC");
  find.bind(1, specHash);
  if (!find.step()) {
    find.reset();
    return std::nullopt;
  }
  SubmitResult result;
  result.sweepId = find.getInt(0);
  result.resumed = true;
  find.reset();
  Statement &count = store.prepare(
      "SELECT COUNT(*), COALESCE(SUM(state = 'cached'), 0) FROM jobs "
      "WHERE sweep_id = ?1 AND state IN ('done', 'failed', 'cached')");
  count.bind(1, result.sweepId);
  count.step();
  result.finished = count.getInt(0);
  result.cached = count.getInt(1);
  count.reset();
  return result;
}

std::optional<int64_t>
JobQueue::sweepWithOtherSpec(const std::string &name,
                             const std::string &specText) {
  Statement &find = store.prepare("SELECT id, spec_text = ?2 FROM sweeps "
                                  "WHERE name = ?1 ORDER BY id DESC LIMIT 1");
  find.bind(1, name).bind(2, specText);
  std::optional<int64_t> taken;
  if (find.step() && !find.getInt(1))
    taken = find.getInt(0);
  find.reset();
  return taken;
}

bool JobQueue::insertJob(int64_t sweepId, const ExpandedJob &job, bool force,
                         double now) {
  std::optional<int64_t> stored;
  if (!force)
    stored = store.findResult(job.contentKey);
  Statement &insert = store.prepare(
      "INSERT INTO jobs(sweep_id, content_key, model_hash, model_name, "
      "variant, kind, preset, options, measurement, state, result_id, "
      "finished_at, cpu_class, forced) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
      "?8, ?9, ?10, ?11, ?12, ?13, ?14)");
  insert.bind(1, sweepId)
      .bind(2, job.contentKey)
      .bind(3, job.modelHash)
      .bind(4, job.modelName)
      .bind(5, job.variant.name)
      .bind(6, static_cast<int64_t>(job.variant.kind))
      .bind(7, job.variant.preset)
      .bind(8, job.variant.options)
      .bindBlob(9, job.measurement.SerializeAsString())
      .bind(10, stored ? "cached" : "pending")
      .bind(13, job.cpuClass)
      .bind(14, static_cast<int64_t>(force));
  if (stored)
    insert.bind(11, *stored).bind(12, now);
  insert.run();
  return stored.has_value();
}

SubmitResult JobQueue::submit(const std::string &name,
                              const std::string &specText,
                              llvm::ArrayRef<ModelContent> models,
                              llvm::ArrayRef<ExpandedJob> jobs, bool force,
                              double now) {
  // The sweep is the list of its jobs' keys: same spec, models and build.
  std::string identity = name + "\n";
  for (const ExpandedJob &job : jobs)
    identity += job.contentKey + "\n";
  std::string specHash = sha256Hex(identity);

  std::lock_guard<std::mutex> lock(mutex);
  SubmitResult result = store.transaction([&] {
    if (!force)
      if (std::optional<SubmitResult> resumed = findSweep(specHash)) {
        resumed->jobs = jobs.size();
        return *resumed;
      }
    SubmitResult result;
    if (!force)
      if (std::optional<int64_t> taken = sweepWithOtherSpec(name, specText)) {
        result.nameTakenBy = *taken;
        return result;
      }
    result.jobs = jobs.size();
    store
        .prepare("INSERT INTO sweeps(name, spec_hash, spec_text, "
                 "submitted_at) VALUES (?1, ?2, ?3, ?4)")
        .bind(1, name)
        .bind(2, specHash)
        .bind(3, specText)
        .bind(4, now)
        .run();
    result.sweepId = store.lastInsertId();
    for (const ModelContent &model : models)
      store.putModel(sha256Hex(model.content), model.name, model.extension,
                     model.content);
    for (const ExpandedJob &job : jobs)
      result.cached += insertJob(result.sweepId, job, force, now);
    return result;
  });
  changed();
  return result;
}

int JobQueue::expireLocked(double now) {
  struct Expired {
    int64_t id, attempts;
  };
  std::vector<Expired> expired;
  Statement &find = store.prepare("SELECT id, attempts FROM jobs WHERE state "
                                  "= 'leased' AND lease_deadline < ?1");
  find.bind(1, now);
  while (find.step())
    expired.push_back({find.getInt(0), find.getInt(1)});
  find.reset();
  for (const Expired &job : expired) {
    // A worker that vanished mid-job is an infrastructure failure: retried,
    // but capped so a job that kills every worker it lands on ends.
    bool last = job.attempts >= policy.maxAttempts;
    store
        .prepare("UPDATE jobs SET state = ?2, worker_id = NULL, "
                 "lease_deadline = NULL, not_before = ?3, error = ?4, "
                 "finished_at = ?5 WHERE id = ?1")
        .bind(1, job.id)
        .bind(2, last ? "failed" : "pending")
        .bind(3, now + backoff(job.attempts))
        .bind(4, llvm::formatv("lease {0} expired without a report{1}",
                               job.attempts, last ? " (no attempts left)" : "")
                     .str())
        .bind(5, last ? now : 0.0)
        .run();
  }
  return expired.size();
}

int JobQueue::expireLeases(double now) {
  std::lock_guard<std::mutex> lock(mutex);
  int count = store.transaction([&] { return expireLocked(now); });
  if (count)
    changed();
  return count;
}

std::optional<LeasedJob> JobQueue::lease(int64_t workerId, double now) {
  std::lock_guard<std::mutex> lock(mutex);
  std::optional<LeasedJob> job = store.transaction([&] {
    expireLocked(now);
    // A job bound to a CPU class (run jobs: the key says where the latency
    // was measured) goes only to workers that registered that class. A job
    // whose key another job is running waits to reuse that result, unless
    // its sweep was forced to measure again.
    Statement &next = store.prepare(
        "SELECT id, attempts, kind, model_hash, preset, options, measurement "
        "FROM jobs j WHERE state = 'pending' AND not_before <= ?1 AND "
        "(cpu_class = '' OR cpu_class = (SELECT cpu FROM workers WHERE id = "
        "?2)) AND (forced OR NOT EXISTS (SELECT 1 FROM jobs running WHERE "
        "running.content_key = j.content_key AND running.state = 'leased')) "
        "ORDER BY id LIMIT 1");
    next.bind(1, now).bind(2, workerId);
    std::optional<LeasedJob> job;
    if (next.step())
      job = LeasedJob{next.getInt(0),  next.getInt(1) + 1, (int)next.getInt(2),
                      next.getText(3), next.getText(4),    next.getText(5),
                      next.getText(6)};
    next.reset();
    if (!job)
      return job;
    store
        .prepare("UPDATE jobs SET state = 'leased', attempts = ?2, "
                 "worker_id = ?3, lease_deadline = ?4 WHERE id = ?1")
        .bind(1, job->jobId)
        .bind(2, job->leaseId)
        .bind(3, workerId)
        .bind(4, now + policy.leaseSeconds)
        .run();
    store.touchWorker(workerId, now);
    return job;
  });
  if (job)
    changed();
  return job;
}

bool JobQueue::heartbeat(int64_t jobId, int64_t leaseId, int64_t workerId,
                         double now) {
  std::lock_guard<std::mutex> lock(mutex);
  return store.transaction([&] {
    store
        .prepare("UPDATE jobs SET lease_deadline = ?3 WHERE id = ?1 AND "
                 "state = 'leased' AND attempts = ?2")
        .bind(1, jobId)
        .bind(2, leaseId)
        .bind(3, now + policy.leaseSeconds)
        .run();
    bool valid = store.changes() == 1;
    store.touchWorker(workerId, now);
    return valid;
  });
}

void JobQueue::recordSuccess(int64_t jobId, const std::string &key,
                             int64_t workerId, const JobReport &report,
                             double now) {
  int64_t resultId =
      store.putResult(key, report.statsJson, report.provenanceJson, workerId,
                      report.wallSeconds, now);
  store
      .prepare("UPDATE jobs SET state = 'done', result_id = ?2, "
               "worker_id = ?3, lease_deadline = NULL, error = NULL, "
               "finished_at = ?4 WHERE id = ?1")
      .bind(1, jobId)
      .bind(2, resultId)
      .bind(3, workerId)
      .bind(4, now)
      .run();
  // Other sweeps' jobs of this key reuse the result: those that waited, and
  // one that started when this job's lease expired before its (late) report;
  // that one's worker finds its lease gone at the next heartbeat.
  store
      .prepare("UPDATE jobs SET state = 'cached', result_id = ?2, "
               "worker_id = NULL, lease_deadline = NULL, finished_at = ?3 "
               "WHERE content_key = ?1 AND state IN ('pending', 'leased') AND "
               "NOT forced AND id != ?4")
      .bind(1, key)
      .bind(2, resultId)
      .bind(3, now)
      .bind(4, jobId)
      .run();
}

void JobQueue::recordFailure(int64_t jobId, int64_t workerId,
                             const JobReport &report, double now) {
  store
      .prepare("UPDATE jobs SET state = 'failed', worker_id = ?2, "
               "lease_deadline = NULL, error = ?3, exit_code = ?4, "
               "signal = ?5, stderr_tail = ?6, provenance_json = ?7, "
               "finished_at = ?8 WHERE id = ?1")
      .bind(1, jobId)
      .bind(2, workerId)
      .bind(3, report.error)
      .bind(4, static_cast<int64_t>(report.exitCode))
      .bind(5, static_cast<int64_t>(report.signal))
      .bind(6, report.stderrTail)
      .bind(7, report.provenanceJson)
      .bind(8, now)
      .run();
}

void JobQueue::recordInfrastructureError(int64_t jobId, int64_t attempts,
                                         const JobReport &report, double now) {
  bool last = attempts >= policy.maxAttempts;
  store
      .prepare("UPDATE jobs SET state = ?2, worker_id = NULL, "
               "lease_deadline = NULL, not_before = ?3, error = ?4, "
               "finished_at = ?5 WHERE id = ?1")
      .bind(1, jobId)
      .bind(2, last ? "failed" : "pending")
      .bind(3, now + backoff(attempts))
      .bind(4, report.error + (last ? " (no attempts left)" : ""))
      .bind(5, last ? now : 0.0)
      .run();
}

bool JobQueue::report(int64_t jobId, int64_t leaseId, int64_t workerId,
                      const JobReport &report, double now) {
  std::lock_guard<std::mutex> lock(mutex);
  bool accepted = store.transaction([&] {
    Statement &find = store.prepare(
        "SELECT state, attempts, content_key FROM jobs WHERE id = ?1");
    find.bind(1, jobId);
    if (!find.step()) {
      find.reset();
      return false;
    }
    std::string state = find.getText(0);
    int64_t attempts = find.getInt(1);
    std::string key = find.getText(2);
    find.reset();
    bool open = state == "pending" || state == "leased";
    if (!open || leaseId < 1 || leaseId > attempts)
      return false;

    store.touchWorker(workerId, now);
    switch (report.outcome) {
    case JobOutcome::Succeeded:
      recordSuccess(jobId, key, workerId, report, now);
      return true;
    case JobOutcome::Failed:
      recordFailure(jobId, workerId, report, now);
      return true;
    case JobOutcome::InfrastructureError:
      // Only the current lease's: an older one's worker was replaced.
      if (state != "leased" || leaseId != attempts)
        return false;
      recordInfrastructureError(jobId, attempts, report, now);
      return true;
    }
    return false;
  });
  if (accepted)
    changed();
  return accepted;
}

int JobQueue::releaseAllLeases() {
  std::lock_guard<std::mutex> lock(mutex);
  int count = store.transaction([&] {
    store.exec("UPDATE jobs SET state = 'pending', attempts = attempts - 1, "
               "worker_id = NULL, lease_deadline = NULL WHERE state = "
               "'leased'");
    return store.changes();
  });
  if (count)
    changed();
  return count;
}

SweepCounts JobQueue::counts(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  SweepCounts counts;
  Statement &query = store.prepare(
      "SELECT state, COUNT(*) FROM jobs WHERE sweep_id = ?1 GROUP BY state");
  query.bind(1, sweepId);
  while (query.step()) {
    std::string state = query.getText(0);
    int64_t count = query.getInt(1);
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
  }
  query.reset();
  return counts;
}

std::vector<JobRowView> JobQueue::rows(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<JobRowView> rows;
  Statement &query = store.prepare(
      "SELECT j.model_name, j.variant, j.state, COALESCE(r.stats_json, ''), "
      "COALESCE(j.error, '') FROM jobs j LEFT JOIN results r ON r.id = "
      "j.result_id WHERE j.sweep_id = ?1 ORDER BY j.id");
  query.bind(1, sweepId);
  while (query.step())
    rows.push_back({query.getText(0), query.getText(1), query.getText(2),
                    query.getText(3), query.getText(4)});
  query.reset();
  return rows;
}

std::string JobQueue::sweepName(int64_t sweepId) {
  std::lock_guard<std::mutex> lock(mutex);
  Statement &query = store.prepare("SELECT name FROM sweeps WHERE id = ?1");
  query.bind(1, sweepId);
  std::string name = query.step() ? query.getText(0) : std::string();
  query.reset();
  return name;
}

int64_t JobQueue::addWorker(const WorkerRecord &worker, double now) {
  std::lock_guard<std::mutex> lock(mutex);
  return store.transaction([&] { return store.addWorker(worker, now); });
}

std::optional<StoredModel> JobQueue::model(const std::string &hash) {
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

//===- JobListing.cpp - a database's jobs, one record each ----------------===//

#include "results/JobListing.h"

#include "results/JobRecord.h"

namespace dispatchlab {

namespace {
/// The database calls a running job 'leased'.
llvm::StringRef toStoredState(llvm::StringRef state) {
  return state == "running" ? "leased" : state;
}
llvm::StringRef fromStoredState(llvm::StringRef state) {
  return state == "leased" ? "running" : state;
}
} // namespace

llvm::ArrayRef<llvm::StringRef> jobStates() {
  static const llvm::StringRef kStates[] = {"pending", "running", "done",
                                            "failed", "cached"};
  return kStates;
}

/// A job of the row `listJobs` selects.
static JobListing jobListing(const Statement &row) {
  JobListing job;
  job.id = row.getInt(0);
  job.sweepId = row.getInt(1);
  job.sweepName = row.getText(2);
  job.model = row.getText(3);
  job.modelHash = row.getText(4);
  job.modelExtension = row.getText(5);
  job.variant = row.getText(6);
  job.kind = row.getInt(7);
  job.state = fromStoredState(row.getText(8)).str();
  job.preset = row.getText(9);
  job.options = row.getText(10);
  job.measurement = row.getText(11);
  job.error = row.getText(12);
  job.stderrTail = row.getText(13);
  if (!row.isNull(14))
    job.resultId = row.getInt(14);
  job.attempts = row.getInt(15);
  job.statsJson = row.getText(16);
  if (job.state == "failed")
    job.failureClass = classifyFailure(job.error);
  return job;
}

llvm::Expected<std::vector<JobListing>> listJobs(ResultStore &store,
                                                 const JobFilter &filter) {
  llvm::Expected<Statement &> query = store.query(
      "SELECT j.id, j.sweep_id, s.name, j.model_name, j.model_hash, "
      "COALESCE(m.extension, ''), j.variant, j.kind, j.state, j.preset, "
      "j.options, j.measurement, COALESCE(j.error, ''), "
      "COALESCE(j.stderr_tail, ''), j.result_id, j.attempts, "
      "COALESCE(r.stats_json, '') FROM jobs j JOIN sweeps s ON s.id = "
      "j.sweep_id LEFT JOIN models m ON m.hash = j.model_hash LEFT JOIN "
      "results r ON r.id = j.result_id WHERE (?1 < 0 OR j.sweep_id = ?1) AND "
      "(?2 = '' OR "
      "j.state = ?2) AND (?3 < 0 OR j.id = ?3) ORDER BY j.id",
      filter.sweepId.value_or(-1),
      filter.state ? toStoredState(*filter.state) : "",
      filter.jobId.value_or(-1));
  if (!query)
    return query.takeError();
  std::vector<JobListing> jobs;
  if (llvm::Error error = query->forEachRow(
          [&](const Statement &row) { jobs.push_back(jobListing(row)); }))
    return std::move(error);
  return jobs;
}

llvm::Expected<std::optional<JobListing>> findJob(ResultStore &store,
                                                  int64_t jobId) {
  JobFilter filter;
  filter.jobId = jobId;
  llvm::Expected<std::vector<JobListing>> jobs = listJobs(store, filter);
  if (!jobs)
    return jobs.takeError();
  if (jobs->empty())
    return std::nullopt;
  return std::move(jobs->front());
}

std::string stderrNamingModel(const JobListing &job) {
  std::string copy = job.modelHash + job.modelExtension;
  if (job.modelHash.empty())
    return job.stderrTail;
  std::string text;
  llvm::StringRef rest = job.stderrTail;
  // The copy's directory is the worker's scratch directory: a path up to
  // the previous blank (or line start).
  for (size_t at = rest.find(copy); at != llvm::StringRef::npos;
       at = rest.find(copy)) {
    size_t start = rest.substr(0, at).find_last_of(" \t\n'\"(") + 1;
    text += rest.substr(0, start).str() + job.model;
    rest = rest.substr(at + copy.size());
  }
  return text + rest.str();
}

} // namespace dispatchlab

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

std::vector<JobListing> listJobs(ResultStore &store, const JobFilter &filter) {
  Statement &query = store.prepare(
      "SELECT j.id, j.sweep_id, s.name, j.model_name, j.model_hash, "
      "COALESCE(m.extension, ''), j.variant, j.kind, j.state, j.preset, "
      "j.options, j.measurement, COALESCE(j.error, ''), "
      "COALESCE(j.stderr_tail, ''), j.result_id, j.attempts, "
      "COALESCE(r.stats_json, '') FROM jobs j JOIN sweeps s ON s.id = "
      "j.sweep_id LEFT JOIN models m ON m.hash = j.model_hash LEFT JOIN "
      "results r ON r.id = j.result_id WHERE (?1 < 0 OR j.sweep_id = ?1) AND "
      "(?2 = '' OR "
      "j.state = ?2) AND (?3 < 0 OR j.id = ?3) ORDER BY j.id");
  query.bind(1, filter.sweepId.value_or(-1))
      .bind(2, filter.state ? toStoredState(*filter.state) : "")
      .bind(3, filter.jobId.value_or(-1));
  std::vector<JobListing> jobs;
  while (query.step()) {
    JobListing job;
    job.id = query.getInt(0);
    job.sweepId = query.getInt(1);
    job.sweepName = query.getText(2);
    job.model = query.getText(3);
    job.modelHash = query.getText(4);
    job.modelExtension = query.getText(5);
    job.variant = query.getText(6);
    job.kind = query.getInt(7);
    job.state = fromStoredState(query.getText(8)).str();
    job.preset = query.getText(9);
    job.options = query.getText(10);
    job.measurement = query.getText(11);
    job.error = query.getText(12);
    job.stderrTail = query.getText(13);
    if (!query.isNull(14))
      job.resultId = query.getInt(14);
    job.attempts = query.getInt(15);
    job.statsJson = query.getText(16);
    if (job.state == "failed")
      job.failureClass = classifyFailure(job.error);
    jobs.push_back(std::move(job));
  }
  query.reset();
  return jobs;
}

std::optional<JobListing> findJob(ResultStore &store, int64_t jobId) {
  JobFilter filter;
  filter.jobId = jobId;
  std::vector<JobListing> jobs = listJobs(store, filter);
  if (jobs.empty())
    return std::nullopt;
  return std::move(jobs.front());
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

//===- SweepListing.cpp - a database's sweeps, one record each ------------===//

#include "results/SweepListing.h"

namespace dispatchlab {

/// A sweep of the row `listSweeps` selects.
static SweepListing sweepListing(const Statement &row) {
  SweepListing sweep;
  sweep.id = row.getInt(0);
  sweep.name = row.getText(1);
  sweep.specHash = row.getText(2);
  sweep.submittedAt = row.getDouble(3);
  sweep.jobs = row.getInt(4);
  sweep.done = row.getInt(5);
  sweep.cached = row.getInt(6);
  sweep.failed = row.getInt(7);
  sweep.pending = row.getInt(8);
  sweep.running = row.getInt(9);
  sweep.commits = row.getText(10);
  return sweep;
}

llvm::Expected<std::vector<SweepListing>> listSweeps(ResultStore &store) {
  // A failure keeps the provenance it ran under; a result has its own.
  llvm::Expected<Statement &> query = store.query(
      "SELECT s.id, s.name, s.spec_hash, s.submitted_at, COUNT(j.id), "
      "COALESCE(SUM(j.state = 'done'), 0), COALESCE(SUM(j.state = "
      "'cached'), 0), COALESCE(SUM(j.state = 'failed'), 0), "
      "COALESCE(SUM(j.state = 'pending'), 0), COALESCE(SUM(j.state = "
      "'leased'), 0), COALESCE((SELECT group_concat(commit_id, ',') FROM "
      "(SELECT DISTINCT json_extract(COALESCE(r.provenance_json, "
      "cj.provenance_json), '$.dispatchlab_commit') AS commit_id FROM jobs "
      "cj LEFT JOIN results r ON r.id = cj.result_id WHERE cj.sweep_id = "
      "s.id AND commit_id IS NOT NULL ORDER BY commit_id)), '') FROM sweeps "
      "s LEFT JOIN jobs j ON j.sweep_id = s.id GROUP BY s.id ORDER BY s.id");
  if (!query)
    return query.takeError();
  std::vector<SweepListing> sweeps;
  if (llvm::Error error = query->forEachRow(
          [&](const Statement &row) { sweeps.push_back(sweepListing(row)); }))
    return std::move(error);
  return sweeps;
}

} // namespace dispatchlab

//===- SweepListing.cpp - a database's sweeps, one record each ------------===//

#include "results/SweepListing.h"

namespace dispatchlab {

std::vector<SweepListing> listSweeps(ResultStore &store) {
  // A failure keeps the provenance it ran under; a result has its own.
  Statement &query = store.prepare(
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
  std::vector<SweepListing> sweeps;
  while (query.step()) {
    SweepListing sweep;
    sweep.id = query.getInt(0);
    sweep.name = query.getText(1);
    sweep.specHash = query.getText(2);
    sweep.submittedAt = query.getDouble(3);
    sweep.jobs = query.getInt(4);
    sweep.done = query.getInt(5);
    sweep.cached = query.getInt(6);
    sweep.failed = query.getInt(7);
    sweep.pending = query.getInt(8);
    sweep.running = query.getInt(9);
    sweep.commits = query.getText(10);
    sweeps.push_back(std::move(sweep));
  }
  query.reset();
  return sweeps;
}

} // namespace dispatchlab

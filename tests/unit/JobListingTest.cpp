//===- JobListingTest.cpp - every job of a database, failed or not --------===//

#include "results/JobListing.h"
#include "results/SweepListing.h"
#include "tests/unit/ErrorChecks.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// Two sweeps: a done job and a failed one in the second, a leased one in
/// the first.
class JobListingTest : public ::testing::Test {
protected:
  void SetUp() override {
    checked(store->putModel("abc123", "m.mlir", ".mlir", "M"));
    checked(store->exec(
        "INSERT INTO sweeps(name, spec_hash, spec_text, "
        "submitted_at) VALUES ('a', 'x', '', 0), ('b', 'y', '', 1)"));
    int64_t result = checked(store->putResult(
        "k1", "{}", "{}", checked(store->addWorker({}, 0)), 0.5, 0));
    checked(addJob(2, "k1", "o0", "done")
                .bind(7, result)
                .bindNull(8)
                .bindNull(9)
                .run());
    checked(addJob(2, "k2", "crash", "failed")
                .bindNull(7)
                .bind(8, llvm::StringRef(
                             "killed by signal 11 (Segmentation fault)"))
                .bind(9, llvm::StringRef(
                             "/tmp/dispatchlab-worker.1.x/abc123.mlir:5:3: "
                             "error: boom\nat abc123.mlir"))
                .run());
    checked(addJob(1, "k3", "o2", "leased")
                .bindNull(7)
                .bindNull(8)
                .bindNull(9)
                .run());
  }

  Statement &addJob(int64_t sweep, const char *key, const char *variant,
                    const char *state) {
    return checked(
               store->prepare(
                   "INSERT INTO jobs(sweep_id, content_key, model_hash, "
                   "model_name, variant, kind, preset, options, measurement, "
                   "state, result_id, error, stderr_tail) VALUES (?1, ?2, "
                   "'abc123', '../m.mlir', ?3, 1, 'iree-O0', '', '', ?4, ?7, "
                   "?8, "
                   "?9)"))
        .bind(1, sweep)
        .bind(2, llvm::StringRef(key))
        .bind(3, llvm::StringRef(variant))
        .bind(4, llvm::StringRef(state));
  }

  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
};
} // namespace

TEST_F(JobListingTest, FiltersBySweepAndState) {
  JobFilter sweep;
  sweep.sweepId = 2;
  std::vector<JobListing> jobs = checked(listJobs(*store, sweep));
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].variant, "o0");
  EXPECT_TRUE(jobs[0].resultId);
  EXPECT_EQ(jobs[0].failureClass, "");
  EXPECT_EQ(jobs[1].failureClass, "crash (Segmentation fault)");
  EXPECT_FALSE(jobs[1].resultId);
  EXPECT_EQ(jobs[1].sweepName, "b");
  EXPECT_EQ(jobs[1].modelExtension, ".mlir");

  sweep.state = "failed";
  EXPECT_EQ(checked(listJobs(*store, sweep)).size(), 1u);
}

TEST_F(JobListingTest, RunningIsTheLeasedState) {
  JobFilter running;
  running.state = "running";
  std::vector<JobListing> jobs = checked(listJobs(*store, running));
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].state, "running");
  EXPECT_EQ(jobs[0].sweepId, 1);
}

TEST_F(JobListingTest, FindsJobsById) {
  EXPECT_EQ(checked(findJob(*store, 2))->variant, "crash");
  EXPECT_FALSE(checked(findJob(*store, 9)));
}

TEST_F(JobListingTest, StderrNamesTheModelNotTheScratchCopy) {
  EXPECT_EQ(stderrNamingModel(*checked(findJob(*store, 2))),
            "../m.mlir:5:3: error: boom\nat ../m.mlir");
}

TEST_F(JobListingTest, SweepsCountTheirJobsByState) {
  checked(store->exec("UPDATE results SET provenance_json = "
                      "'{\"dispatchlab_commit\": \"abc\"}'"));
  checked(store->exec(
      "UPDATE jobs SET provenance_json = "
      "'{\"dispatchlab_commit\": \"def\"}' WHERE state = 'failed'"));
  checked(store->exec(
      "INSERT INTO sweeps(name, spec_hash, spec_text, submitted_at) "
      "VALUES ('empty', 'z', '', 2)"));
  std::vector<SweepListing> sweeps = checked(listSweeps(*store));
  ASSERT_EQ(sweeps.size(), 3u);
  EXPECT_EQ(sweeps[0].name, "a");
  EXPECT_EQ(sweeps[0].running, 1);
  EXPECT_EQ(sweeps[0].commits, "");
  EXPECT_EQ(sweeps[1].jobs, 2);
  EXPECT_EQ(sweeps[1].done, 1);
  EXPECT_EQ(sweeps[1].failed, 1);
  EXPECT_EQ(sweeps[1].pending, 0);
  EXPECT_EQ(sweeps[1].commits, "abc,def");
  EXPECT_EQ(sweeps[2].jobs, 0);
  EXPECT_EQ(sweeps[2].specHash, "z");
}

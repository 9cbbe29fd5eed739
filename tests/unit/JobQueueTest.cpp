//===- JobQueueTest.cpp - leases, retries, idempotent reports -------------===//

#include "coordinator/JobQueue.h"
#include "tests/unit/ErrorChecks.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
class JobQueueTest : public ::testing::Test {
protected:
  JobQueueTest()
      : store(checked(ResultStore::open(":memory:"))), queue(*store, policy()) {
  }

  static QueuePolicy policy() {
    QueuePolicy policy;
    policy.leaseSeconds = 10;
    policy.maxAttempts = 3;
    policy.backoffBaseSeconds = 1;
    policy.backoffCapSeconds = 3;
    return policy;
  }

  /// A sweep of `count` jobs on one model, submitted at time 0; job i is
  /// bound to `cpuClasses[i]` if given.
  SubmitResult submit(int count, bool force = false,
                      const std::string &name = "s",
                      std::vector<std::string> cpuClasses = {}) {
    std::vector<ExpandedJob> jobs;
    cpuClasses.resize(count);
    for (int i = 0; i < count; ++i)
      jobs.push_back({"m.mlir",
                      sha256Hex("model"),
                      {"v" + std::to_string(i),
                       cpuClasses[i].empty() ? sweep::COMPILE : sweep::RUN,
                       "iree-O0", "k=" + std::to_string(i) + "\n"},
                      {},
                      "key" + std::to_string(i),
                      cpuClasses[i]});
    return checked(queue.submit(name, "spec", {{"m.mlir", ".mlir", "model"}},
                                jobs, force, 0));
  }

  JobReport success() {
    JobReport report;
    report.statsJson = R"({"dispatches": 1})";
    report.provenanceJson = "{}";
    return report;
  }

  std::unique_ptr<ResultStore> store;
  JobQueue queue;
  int64_t worker = 0;

  void SetUp() override { worker = checked(queue.addWorker({}, 0)); }
};
} // namespace

TEST_F(JobQueueTest, LeasesInOrderAndCompletes) {
  SubmitResult submitted = submit(2);
  EXPECT_EQ(submitted.jobs, 2);
  EXPECT_EQ(submitted.cached, 0);
  auto first = checked(queue.lease(worker, 1));
  auto second = checked(queue.lease(worker, 1));
  ASSERT_TRUE(first && second);
  EXPECT_LT(first->jobId, second->jobId);
  EXPECT_EQ(first->leaseId, 1);
  EXPECT_FALSE(checked(queue.lease(worker, 1)));
  EXPECT_TRUE(checked(queue.report(first->jobId, 1, worker, success(), 2)));
  EXPECT_TRUE(checked(queue.report(second->jobId, 1, worker, success(), 2)));
  SweepCounts counts = checked(queue.counts(submitted.sweepId));
  EXPECT_EQ(counts.done, 2);
  EXPECT_TRUE(counts.finished());
}

TEST_F(JobQueueTest, ExpiredLeaseIsLeasedAgainAfterBackoff) {
  submit(1);
  auto lease = checked(queue.lease(worker, 0));
  ASSERT_TRUE(lease);
  // Heartbeats keep the lease alive past its first deadline.
  EXPECT_TRUE(checked(queue.heartbeat(lease->jobId, 1, worker, 8)));
  EXPECT_FALSE(checked(queue.lease(worker, 15)));
  // No heartbeat: expired at 18, then a 1 s backoff.
  EXPECT_FALSE(checked(queue.lease(worker, 18.5)));
  auto again = checked(queue.lease(worker, 19.6));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->jobId, lease->jobId);
  EXPECT_EQ(again->leaseId, 2);
  EXPECT_FALSE(checked(queue.heartbeat(lease->jobId, 1, worker, 20)));
}

TEST_F(JobQueueTest, ReportsCountOnce) {
  SubmitResult submitted = submit(1);
  auto lease = checked(queue.lease(worker, 0));
  checked(queue.expireLeases(11));
  auto again = checked(queue.lease(worker, 13));
  ASSERT_TRUE(again);
  // The late report of the expired lease is accepted; the current lease's
  // report is then a duplicate.
  EXPECT_TRUE(checked(queue.report(lease->jobId, 1, worker, success(), 14)));
  EXPECT_FALSE(checked(queue.report(again->jobId, 2, worker, success(), 15)));
  EXPECT_FALSE(checked(queue.report(again->jobId, 2, worker, success(), 15)));
  EXPECT_FALSE(checked(queue.report(again->jobId, 3, worker, success(), 15)));
  EXPECT_EQ(checked(queue.counts(submitted.sweepId)).done, 1);
}

TEST_F(JobQueueTest, InfrastructureErrorsRetryWithBackoffUpToCap) {
  SubmitResult submitted = submit(1);
  JobReport infra;
  infra.outcome = JobOutcome::InfrastructureError;
  infra.error = "spawn failed";
  double now = 0;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    auto lease = checked(queue.lease(worker, now));
    ASSERT_TRUE(lease) << "attempt " << attempt;
    EXPECT_EQ(lease->leaseId, attempt);
    EXPECT_TRUE(
        checked(queue.report(lease->jobId, attempt, worker, infra, now)));
    // Backoff 1, 2, then capped.
    EXPECT_FALSE(checked(queue.lease(worker, now + 0.5)));
    now += 4;
  }
  EXPECT_FALSE(checked(queue.lease(worker, now)));
  SweepCounts counts = checked(queue.counts(submitted.sweepId));
  EXPECT_EQ(counts.failed, 1);
  EXPECT_EQ(checked(queue.rows(submitted.sweepId))[0].error,
            "spawn failed (no attempts left)");
}

TEST_F(JobQueueTest, DeterministicFailureIsNotRetried) {
  SubmitResult submitted = submit(1);
  auto lease = checked(queue.lease(worker, 0));
  JobReport crash;
  crash.outcome = JobOutcome::Failed;
  crash.error = "killed by signal 11";
  crash.signal = 11;
  EXPECT_TRUE(checked(queue.report(lease->jobId, 1, worker, crash, 1)));
  EXPECT_FALSE(checked(queue.lease(worker, 100)));
  EXPECT_EQ(checked(queue.counts(submitted.sweepId)).failed, 1);
}

TEST_F(JobQueueTest, ResubmissionResumesAndResultsAreReused) {
  SubmitResult first = submit(2);
  auto lease = checked(queue.lease(worker, 0));
  checked(queue.report(lease->jobId, 1, worker, success(), 1));

  SubmitResult resumed = submit(2);
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.sweepId, first.sweepId);
  EXPECT_EQ(resumed.finished, 1);

  // Another sweep with the same jobs: the stored result is reused.
  SubmitResult other = submit(2, false, "other");
  EXPECT_NE(other.sweepId, first.sweepId);
  EXPECT_EQ(other.cached, 1);

  // Forced: everything runs again.
  SubmitResult forced = submit(2, true);
  EXPECT_FALSE(forced.resumed);
  EXPECT_EQ(forced.cached, 0);
  EXPECT_EQ(checked(queue.counts(forced.sweepId)).pending, 2);
}

TEST_F(JobQueueTest, ReleaseAllLeasesDoesNotCountAnAttempt) {
  submit(1);
  auto lease = checked(queue.lease(worker, 0));
  EXPECT_EQ(checked(queue.releaseAllLeases()), 1);
  auto again = checked(queue.lease(worker, 0));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->leaseId, 1);
}

TEST_F(JobQueueTest, ClassBoundJobsGoOnlyToWorkersOfThatClass) {
  int64_t skylake = checked(queue.addWorker({"box-a", "skylake"}, 0));
  int64_t znver4 = checked(queue.addWorker({"box-b", "znver4"}, 0));
  submit(3, false, "s", {"znver4", "", "znver4"});
  // The skylake worker skips both znver4 jobs and takes the unbound one.
  auto first = checked(queue.lease(skylake, 0));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->jobId, 2);
  EXPECT_FALSE(checked(queue.lease(skylake, 0)));
  auto second = checked(queue.lease(znver4, 0));
  auto third = checked(queue.lease(znver4, 0));
  ASSERT_TRUE(second && third);
  EXPECT_EQ(second->jobId, 1);
  EXPECT_EQ(third->jobId, 3);
  // A worker of no known class gets nothing bound to one.
  checked(queue.report(second->jobId, 1, znver4, success(), 1));
  EXPECT_FALSE(checked(queue.lease(worker, 0)));

  // The result records the class and host of the worker that produced it.
  Statement &query = checked(store->prepare(
      "SELECT r.cpu_class, r.hostname FROM results r JOIN jobs j ON "
      "j.result_id = r.id WHERE j.id = ?1"));
  query.bind(1, second->jobId);
  ASSERT_TRUE(checked(query.step()));
  EXPECT_EQ(query.getText(0), "znver4");
  EXPECT_EQ(query.getText(1), "box-b");
  query.reset();
}

TEST_F(JobQueueTest, ExpiredClassBoundJobWaitsForItsClass) {
  int64_t skylake = checked(queue.addWorker({"box-a", "skylake"}, 0));
  int64_t znver4 = checked(queue.addWorker({"box-b", "znver4"}, 0));
  submit(1, false, "s", {"znver4"});
  ASSERT_TRUE(checked(queue.lease(znver4, 0)));
  // Lease expired: still never handed to another class.
  EXPECT_FALSE(checked(queue.lease(skylake, 22)));
  auto again = checked(queue.lease(znver4, 24));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->leaseId, 2);
}

TEST_F(JobQueueTest, ForcedRerunAddsAResultAndKeepsTheEarlierOne) {
  SubmitResult first = submit(1);
  auto lease = checked(queue.lease(worker, 0));
  ASSERT_TRUE(lease);
  ASSERT_TRUE(checked(queue.report(lease->jobId, 1, worker, success(), 1)));

  SubmitResult forced = submit(1, true);
  auto rerun = checked(queue.lease(worker, 2));
  ASSERT_TRUE(rerun);
  JobReport remeasured = success();
  remeasured.statsJson = R"({"dispatches": 2})";
  ASSERT_TRUE(checked(queue.report(rerun->jobId, 1, worker, remeasured, 3)));

  // Each sweep sees the numbers it produced.
  EXPECT_EQ(checked(queue.rows(first.sweepId))[0].statsJson,
            success().statsJson);
  EXPECT_EQ(checked(queue.rows(forced.sweepId))[0].statsJson,
            remeasured.statsJson);
  Statement &count = checked(store->prepare("SELECT COUNT(*) FROM results"));
  ASSERT_TRUE(checked(count.step()));
  EXPECT_EQ(count.getInt(0), 2);
  count.reset();

  // A later sweep reuses the newest measurement of the key.
  SubmitResult later = submit(1, false, "later");
  EXPECT_EQ(later.cached, 1);
  EXPECT_EQ(checked(queue.rows(later.sweepId))[0].statsJson,
            remeasured.statsJson);
}

TEST_F(JobQueueTest, OverlappingSweepsRunASharedKeyOnce) {
  SubmitResult first = submit(2, false, "first");
  auto leased = checked(queue.lease(worker, 0));
  ASSERT_TRUE(leased);
  // Submitted while key0 is leased and key1 pending in the first sweep.
  SubmitResult second = submit(3, false, "second");
  EXPECT_EQ(second.cached, 0);
  auto next = checked(queue.lease(worker, 0));
  ASSERT_TRUE(next);
  auto only = checked(queue.lease(worker, 0));
  ASSERT_TRUE(only);
  // The first sweep's key1, then the second's key2: its key0 and key1 wait.
  EXPECT_EQ(next->jobId, leased->jobId + 1);
  EXPECT_EQ(checked(queue.rows(second.sweepId))[2].state, "leased");
  EXPECT_FALSE(checked(queue.lease(worker, 0)));

  ASSERT_TRUE(checked(queue.report(leased->jobId, 1, worker, success(), 1)));
  ASSERT_TRUE(checked(queue.report(next->jobId, 1, worker, success(), 1)));
  ASSERT_TRUE(checked(queue.report(only->jobId, 1, worker, success(), 1)));
  EXPECT_FALSE(checked(queue.lease(worker, 2)));
  SweepCounts counts = checked(queue.counts(second.sweepId));
  EXPECT_EQ(counts.cached, 2);
  EXPECT_EQ(counts.done, 1);
  EXPECT_TRUE(counts.finished());
  EXPECT_EQ(checked(queue.rows(second.sweepId))[0].statsJson,
            success().statsJson);
  EXPECT_TRUE(checked(queue.counts(first.sweepId)).finished());
}

TEST_F(JobQueueTest, WaitingJobRunsWhenTheLeasedOneFails) {
  submit(1, false, "first");
  auto leased = checked(queue.lease(worker, 0));
  ASSERT_TRUE(leased);
  SubmitResult second = submit(1, false, "second");
  EXPECT_FALSE(checked(queue.lease(worker, 0)));
  JobReport crash;
  crash.outcome = JobOutcome::Failed;
  crash.error = "killed by signal 11";
  ASSERT_TRUE(checked(queue.report(leased->jobId, 1, worker, crash, 1)));
  auto retry = checked(queue.lease(worker, 1));
  ASSERT_TRUE(retry);
  EXPECT_EQ(checked(queue.rows(second.sweepId))[0].state, "leased");
}

TEST_F(JobQueueTest, ForcedSweepMeasuresAKeyThatIsLeased) {
  submit(1, false, "first");
  ASSERT_TRUE(checked(queue.lease(worker, 0)));
  SubmitResult forced = submit(1, true, "forced");
  auto rerun = checked(queue.lease(worker, 0));
  ASSERT_TRUE(rerun);
  EXPECT_EQ(checked(queue.rows(forced.sweepId))[0].state, "leased");
}

TEST_F(JobQueueTest, LateReportStopsTheOtherSweepsRunOfItsKey) {
  submit(1, false, "first");
  auto late = checked(queue.lease(worker, 0));
  ASSERT_TRUE(late);
  // Its lease expires; the other sweep's job of the same key starts meanwhile
  // (the expired one waits out its backoff).
  SubmitResult second = submit(1, false, "second");
  checked(queue.expireLeases(11));
  auto other = checked(queue.lease(worker, 11));
  ASSERT_TRUE(other);
  EXPECT_NE(other->jobId, late->jobId);
  // The late report is accepted: the running job reuses its result, and its
  // worker learns at the next heartbeat that the lease is gone.
  ASSERT_TRUE(checked(queue.report(late->jobId, 1, worker, success(), 12)));
  EXPECT_EQ(checked(queue.rows(second.sweepId))[0].state, "cached");
  EXPECT_FALSE(
      checked(queue.heartbeat(other->jobId, other->leaseId, worker, 13)));
  EXPECT_FALSE(checked(
      queue.report(other->jobId, other->leaseId, worker, success(), 14)));
  EXPECT_TRUE(checked(queue.counts(second.sweepId)).finished());
}

TEST_F(JobQueueTest, NameOfAnotherSpecIsRefusedUnlessForced) {
  SubmitResult first = submit(1);
  std::vector<ExpandedJob> jobs = {{"m.mlir",
                                    sha256Hex("model"),
                                    {"v", sweep::COMPILE, "iree-O2", ""},
                                    {},
                                    "other-key",
                                    ""}};
  SubmitResult refused = checked(queue.submit(
      "s", "other spec", {{"m.mlir", ".mlir", "model"}}, jobs, false, 0));
  EXPECT_EQ(refused.nameTakenBy, first.sweepId);
  EXPECT_EQ(refused.sweepId, 0);
  SubmitResult forced = checked(queue.submit(
      "s", "other spec", {{"m.mlir", ".mlir", "model"}}, jobs, true, 0));
  EXPECT_EQ(forced.nameTakenBy, 0);
  EXPECT_GT(forced.sweepId, first.sweepId);
}

TEST_F(JobQueueTest, RemoveKeepsResultsOtherSweepsUse) {
  SubmitResult first = submit(2);
  for (int i = 0; i < 2; ++i) {
    auto lease = checked(queue.lease(worker, 1));
    ASSERT_TRUE(lease);
    checked(queue.report(lease->jobId, 1, worker, success(), 2));
  }
  // Same keys under another name: cached, pointing at the same results.
  SubmitResult second = submit(2, false, "t");
  EXPECT_EQ(second.cached, 2);
  RemovedSweep removed = checked(queue.removeSweep(first.sweepId));
  EXPECT_EQ(removed.jobs, 2);
  EXPECT_EQ(removed.results, 0);
  EXPECT_EQ(removed.models, 0);
  EXPECT_EQ(checked(queue.counts(first.sweepId)).total, 0);
  EXPECT_EQ(checked(queue.sweepName(first.sweepId)), "");
  removed = checked(queue.removeSweep(second.sweepId));
  EXPECT_EQ(removed.results, 2);
  EXPECT_EQ(removed.models, 1);
  EXPECT_FALSE(checked(store->findResult("key0")));
}

TEST_F(JobQueueTest, CancelFailsPendingJobsOnly) {
  SubmitResult submitted = submit(3);
  auto lease = checked(queue.lease(worker, 1));
  ASSERT_TRUE(lease);
  EXPECT_EQ(checked(queue.cancelPending(submitted.sweepId, 2)), 2);
  SweepCounts counts = checked(queue.counts(submitted.sweepId));
  EXPECT_EQ(counts.failed, 2);
  EXPECT_EQ(counts.running, 1);
  EXPECT_FALSE(checked(queue.lease(worker, 3)));
  // The running job still reports.
  EXPECT_TRUE(checked(queue.report(lease->jobId, 1, worker, success(), 3)));
  EXPECT_TRUE(checked(queue.counts(submitted.sweepId)).finished());
  EXPECT_EQ(checked(queue.cancelPending(submitted.sweepId, 4)), 0);
}

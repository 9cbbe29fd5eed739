//===- JobRunnerTest.cpp - child processes with limits --------------------===//

#include "workers/JobRunner.h"

#include <gtest/gtest.h>

#include <csignal>

using namespace dispatchlab;

static ChildResult run(std::vector<std::string> argv, double timeout = 10) {
  ChildLimits limits;
  limits.timeoutSeconds = timeout;
  limits.stderrTailBytes = 16;
  return runChild(
      argv, limits, [] { return true; }, 20);
}

TEST(JobRunnerTest, CapturesStdoutAndStderrTail) {
  ChildResult result =
      run({"/bin/sh", "-c", "echo out; echo 0123456789abcdefTAIL >&2; exit 3"});
  EXPECT_EQ(result.status, ChildResult::Status::Exited);
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.stdoutText, "out\n");
  EXPECT_EQ(result.stderrTail, "56789abcdefTAIL\n");
}

TEST(JobRunnerTest, ReportsSignals) {
  ChildResult result = run({"/bin/sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(result.status, ChildResult::Status::Signaled);
  EXPECT_EQ(result.signal, SIGSEGV);
  EXPECT_NE(result.describe({}).find("signal 11"), std::string::npos);
}

TEST(JobRunnerTest, KillsOnTimeoutIncludingGrandchildren) {
  ChildResult result = run({"/bin/sh", "-c", "sleep 30 & sleep 30"}, 0.3);
  EXPECT_EQ(result.status, ChildResult::Status::TimedOut);
  EXPECT_LT(result.wallSeconds, 5);
}

TEST(JobRunnerTest, CancelledWhenToldToStop) {
  ChildLimits limits;
  int ticks = 0;
  ChildResult result = runChild(
      {"/bin/sleep", "30"}, limits, [&] { return ++ticks < 3; }, 20);
  EXPECT_EQ(result.status, ChildResult::Status::Cancelled);
}

TEST(JobRunnerTest, MemoryLimitApplies) {
  ChildLimits limits;
  limits.memoryLimitMb = 64;
  // Python needs more than 64 MB of address space to allocate 200 MB.
  ChildResult result =
      runChild({"/usr/bin/python3", "-c", "x = bytearray(200 << 20)"}, limits,
               [] { return true; });
  EXPECT_FALSE(result.status == ChildResult::Status::Exited &&
               result.exitCode == 0);
}

TEST(JobRunnerTest, MissingExecutableFailsCleanly) {
  ChildResult result = run({"/nonexistent/binary"});
  EXPECT_EQ(result.status, ChildResult::Status::Exited);
  EXPECT_EQ(result.exitCode, 127);
}

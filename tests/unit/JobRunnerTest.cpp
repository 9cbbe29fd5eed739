//===- JobRunnerTest.cpp - child processes with limits --------------------===//

#include "workers/JobRunner.h"
#include "core/support/HostPinning.h"
#include "workers/Worker.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

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

namespace {
ChildLimits memoryLimit(uint64_t megabytes) {
  ChildLimits limits;
  limits.memoryLimitMb = megabytes;
  limits.stderrTailBytes = 64;
  return limits;
}

/// `script` in a shell under an address-space limit of `megabytes`.
ChildResult runLimited(const std::string &script, uint64_t megabytes) {
  return runChild(
      {"/bin/sh", "-c", script}, memoryLimit(megabytes), [] { return true; },
      20);
}
} // namespace

TEST(JobRunnerTest, AllocationFailureUnderALimitIsTheLimit) {
  // What the dynamic loader says when the limit leaves no room for a library.
  std::string loader = "echo 'dispatchlab: error while loading shared "
                       "libraries: libMLIR.so.22.1: failed to map segment "
                       "from shared object' >&2; exit 127";
  ChildResult result = runLimited(loader, 700);
  EXPECT_TRUE(result.allocationFailed);
  EXPECT_EQ(result.describe(memoryLimit(700)),
            "memory limit 700 MB exceeded (exit code 127)");
  // Without a limit nothing says the limit was hit.
  EXPECT_EQ(result.describe({}), "exit code 127");
}

TEST(JobRunnerTest, AllocationFailureIsSeenPastTheStderrTail) {
  // LLVM's message comes first; a long stack dump pushes it out of the tail.
  ChildResult result = runLimited(
      "echo 'LLVM ERROR: out of memory' >&2; yes frame | head -c 200000 >&2; "
      "kill -ABRT $$",
      700);
  EXPECT_EQ(result.stderrTail.find("out of memory"), std::string::npos);
  EXPECT_EQ(result.describe(memoryLimit(700)),
            "memory limit 700 MB exceeded (killed by signal 6 (Aborted))");
}

TEST(JobRunnerTest, CrashUnderALimitIsStillACrash) {
  // Nothing says an allocation failed: the crash may have any cause.
  ChildResult result = runLimited("echo frame >&2; kill -SEGV $$", 700);
  EXPECT_FALSE(result.allocationFailed);
  EXPECT_EQ(result.describe(memoryLimit(700)),
            "killed by signal 11 (Segmentation fault)");
}

TEST(JobRunnerTest, MissingExecutableFailsCleanly) {
  ChildResult result = run({"/nonexistent/binary"});
  EXPECT_EQ(result.status, ChildResult::Status::Exited);
  EXPECT_EQ(result.exitCode, 127);
}

TEST(JobRunnerTest, PinsTheChildToTheGivenCpus) {
  std::vector<int> allowed = getAllowedCpus();
  ASSERT_FALSE(allowed.empty());
  ChildLimits limits;
  limits.cpus = {allowed.back()};
  ChildResult result =
      runChild({"/bin/grep", "Cpus_allowed_list", "/proc/self/status"}, limits,
               [] { return true; });
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.stdoutText,
            "Cpus_allowed_list:\t" + std::to_string(allowed.back()) + "\n");
}

TEST(CorePoolTest, ReservesDistinctCoresAndWaitsInOrder) {
  CorePool pool({4, 7, 9});
  auto always = [] { return true; };
  std::optional<std::vector<int>> two = pool.acquire(2, always);
  ASSERT_TRUE(two);
  EXPECT_EQ(*two, (std::vector<int>{4, 7}));
  std::optional<std::vector<int>> one = pool.acquire(1, always);
  ASSERT_TRUE(one);
  EXPECT_EQ(*one, std::vector<int>{9});

  // A wide request waits for enough cores; a narrow one behind it waits
  // its turn even when a single core is free.
  std::optional<std::vector<int>> wide, narrow;
  std::thread wideThread([&] { wide = pool.acquire(3, always); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread narrowThread([&] { narrow = pool.acquire(1, always); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  pool.release(*one);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_FALSE(narrow);
  pool.release(*two);
  wideThread.join();
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->size(), 3u);
  pool.release(*wide);
  narrowThread.join();
  ASSERT_TRUE(narrow);
}

TEST(CorePoolTest, SharedCoresNeverHostAMeasurement) {
  CorePool pool({0, 1});
  auto always = [] { return true; };
  int polls = 0;
  auto briefly = [&] { return ++polls % 3 != 0; };
  // Compiles spread over the cores, then pile up beside each other.
  std::optional<int> a = pool.acquireShared(always);
  std::optional<int> b = pool.acquireShared(always);
  std::optional<int> c = pool.acquireShared(always);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, 0);
  EXPECT_EQ(*b, 1);
  EXPECT_EQ(*c, 0);
  // A measurement waits until a core has no sharer left.
  EXPECT_FALSE(pool.acquire(1, briefly));
  pool.releaseShared(*b);
  std::optional<std::vector<int>> measured = pool.acquire(1, always);
  ASSERT_TRUE(measured);
  EXPECT_EQ(*measured, std::vector<int>{1});
  // While it runs, compiles share the other core only.
  std::optional<int> d = pool.acquireShared(always);
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, 0);
  pool.releaseShared(*a);
  pool.releaseShared(*c);
  pool.releaseShared(*d);
  // With every core measured, a compile waits.
  std::optional<std::vector<int>> other = pool.acquire(1, always);
  ASSERT_TRUE(other);
  EXPECT_FALSE(pool.acquireShared(briefly));
  pool.release(*measured);
  pool.release(*other);
}

TEST(CorePoolTest, GivesUpWhenToldToStop) {
  CorePool pool({0});
  std::optional<std::vector<int>> held = pool.acquire(1, [] { return true; });
  ASSERT_TRUE(held);
  int polls = 0;
  EXPECT_FALSE(pool.acquire(1, [&] { return ++polls < 3; }));
  // The abandoned request does not block the next one.
  pool.release(*held);
  EXPECT_TRUE(pool.acquire(1, [] { return false; }));
}

TEST(CorePoolTest, PoolsSharingALockDirectoryNeverShareACore) {
  // Two workers' pools on one host: flock locks conflict between open files
  // even within one process, so two pools here stand for two processes.
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("corelocks", dir));
  std::string lockDir(dir);
  CorePool first({0, 1}, lockDir), second({0, 1}, lockDir);
  std::optional<std::vector<int>> a = first.acquire(1, [] { return true; });
  std::optional<std::vector<int>> b = second.acquire(1, [] { return true; });
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, std::vector<int>{0});
  EXPECT_EQ(*b, std::vector<int>{1});
  int polls = 0;
  EXPECT_FALSE(second.acquire(1, [&] { return ++polls < 3; }));
  first.release(*a);
  std::optional<std::vector<int>> c = second.acquire(1, [] { return true; });
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, std::vector<int>{0});
  second.release(*b);
  second.release(*c);

  // A compile of one process and a measurement of the other exclude each
  // other too; compiles of both may share a core.
  std::optional<int> shared = first.acquireShared([] { return true; });
  ASSERT_TRUE(shared);
  EXPECT_EQ(*shared, 0);
  std::optional<std::vector<int>> measured =
      second.acquire(1, [] { return true; });
  ASSERT_TRUE(measured);
  EXPECT_EQ(*measured, std::vector<int>{1});
  std::optional<int> alsoShared = second.acquireShared([] { return true; });
  ASSERT_TRUE(alsoShared);
  EXPECT_EQ(*alsoShared, 0);
  polls = 0;
  EXPECT_FALSE(second.acquire(1, [&] { return ++polls < 3; }));
  first.releaseShared(*shared);
  second.releaseShared(*alsoShared);
  std::optional<std::vector<int>> next = second.acquire(1, [] { return true; });
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, std::vector<int>{0});
  second.release(*measured);
  second.release(*next);
  llvm::sys::fs::remove_directories(dir);
}

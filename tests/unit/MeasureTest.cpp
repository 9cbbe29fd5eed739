//===- MeasureTest.cpp - latency statistics, benchmark loop, pinning ------===//

#include "core/runtime/LatencyBenchmark.h"
#include "core/support/HostPinning.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <sched.h>
#include <thread>
#include <unistd.h>

using namespace dispatchlab;

namespace {

TEST(SummarizeLatencies, EvenCount) {
  LatencyStats stats = summarizeLatencies({0.004, 0.001, 0.003, 0.002});
  EXPECT_EQ(stats.repetitions, 4);
  EXPECT_DOUBLE_EQ(stats.medianMs, 2.5);
  EXPECT_DOUBLE_EQ(stats.meanMs, 2.5);
  EXPECT_DOUBLE_EQ(stats.minMs, 1.0);
  // Sample standard deviation: sqrt((1.5^2 + 0.5^2 + 0.5^2 + 1.5^2) / 3).
  EXPECT_NEAR(stats.stddevMs, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_NEAR(stats.cv, std::sqrt(5.0 / 3.0) / 2.5, 1e-12);
}

TEST(SummarizeLatencies, OddCountAndOneSample) {
  LatencyStats odd = summarizeLatencies({0.005, 0.001, 0.003});
  EXPECT_DOUBLE_EQ(odd.medianMs, 3.0);
  EXPECT_DOUBLE_EQ(odd.stddevMs, 2.0);
  EXPECT_NEAR(odd.cv, 2.0 / 3.0, 1e-12);

  LatencyStats one = summarizeLatencies({0.002});
  EXPECT_DOUBLE_EQ(one.medianMs, 2.0);
  EXPECT_DOUBLE_EQ(one.stddevMs, 0.0);
  EXPECT_DOUBLE_EQ(one.cv, 0.0);

  LatencyStats none = summarizeLatencies({});
  EXPECT_EQ(none.repetitions, 0);
  EXPECT_DOUBLE_EQ(none.cv, 0.0);
}

TEST(MeasureLatency, OneCallPerSampleAfterWarmUp) {
  int calls = 0;
  llvm::Expected<LatencyMeasurement> measurement = measureLatency(
      [&]() -> llvm::Error {
        ++calls;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        return llvm::Error::success();
      },
      /*repetitions=*/7, /*minWarmupSeconds=*/0.005);
  ASSERT_TRUE(static_cast<bool>(measurement))
      << llvm::toString(measurement.takeError());
  EXPECT_GE(measurement->warmupCalls, 1);
  EXPECT_GE(measurement->warmupSeconds, 0.005);
  ASSERT_EQ(measurement->samplesSeconds.size(), 7u);
  // One more: the first repetition's timed call, dropped.
  EXPECT_EQ(calls, measurement->warmupCalls + 7 + 1);
  for (double seconds : measurement->samplesSeconds)
    EXPECT_GE(seconds, 200e-6);
  EXPECT_EQ(measurement->stats.repetitions, 7);
  EXPECT_DOUBLE_EQ(measurement->stats.minMs,
                   *std::min_element(measurement->samplesSeconds.begin(),
                                     measurement->samplesSeconds.end()) *
                       1e3);

  // The benchmark is unregistered after each measurement.
  llvm::Expected<LatencyMeasurement> again = measureLatency(
      []() -> llvm::Error { return llvm::Error::success(); }, 3, 0);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->warmupCalls, 1);
  EXPECT_EQ(again->samplesSeconds.size(), 3u);
}

TEST(MeasureLatency, ReportsTheCallsError) {
  int calls = 0;
  llvm::Expected<LatencyMeasurement> measurement = measureLatency(
      [&]() -> llvm::Error {
        if (++calls < 3)
          return llvm::Error::success();
        return llvm::createStringError("boom");
      },
      5, 0);
  EXPECT_FALSE(static_cast<bool>(measurement));
  EXPECT_EQ(llvm::toString(measurement.takeError()), "boom");
  EXPECT_EQ(calls, 3);

  llvm::Expected<LatencyMeasurement> warmUp = measureLatency(
      [] { return llvm::createStringError("warm-up failed"); }, 5, 0);
  EXPECT_FALSE(static_cast<bool>(warmUp));
  EXPECT_EQ(llvm::toString(warmUp.takeError()), "warm-up failed");
}

TEST(ChooseCpus, CurrentFirstThenWrapping) {
  std::vector<int> allowed = {0, 2, 3, 5};
  EXPECT_EQ(chooseCpus(allowed, 3, 1), (std::vector<int>{3}));
  EXPECT_EQ(chooseCpus(allowed, 3, 2), (std::vector<int>{3, 5}));
  EXPECT_EQ(chooseCpus(allowed, 3, 3), (std::vector<int>{0, 3, 5}));
  // Not allowed (or unknown): the first allowed CPU.
  EXPECT_EQ(chooseCpus(allowed, 4, 1), (std::vector<int>{0}));
  EXPECT_EQ(chooseCpus(allowed, -1, 2), (std::vector<int>{0, 2}));
  // Never more than allowed.
  EXPECT_EQ(chooseCpus(allowed, 0, 10), allowed);
  EXPECT_TRUE(chooseCpus({}, 0, 1).empty());
}

/// Runs `body` in a fresh thread, so pinning it leaves the test's own
/// threads alone.
template <typename Body> void inThread(Body body) {
  std::thread thread(body);
  thread.join();
}

TEST(HostPinning, OneThreadPinsTheCallerOnly) {
  std::vector<int> before = getAllowedCpus();
  ASSERT_FALSE(before.empty());
  inThread([&] {
    llvm::Expected<std::vector<int>> pinned = pinForThreads(1);
    ASSERT_TRUE(static_cast<bool>(pinned))
        << llvm::toString(pinned.takeError());
    ASSERT_EQ(pinned->size(), 1u);
    EXPECT_EQ(getAllowedCpus(), *pinned);
    sched_yield();
    EXPECT_EQ(getCurrentCpu(), pinned->front());
  });
  EXPECT_EQ(getAllowedCpus(), before);
}

TEST(HostPinning, ManyThreadsPinEveryThreadOfTheProcess) {
  std::vector<int> before = getAllowedCpus();
  std::atomic<pid_t> otherId{0};
  std::atomic<bool> done{false};
  std::thread other([&] {
    otherId = gettid();
    while (!done)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!otherId)
    std::this_thread::yield();

  std::vector<int> target = {before.back()};
  ASSERT_EQ(llvm::toString(pinToCpus(target, /*wholeProcess=*/true)), "");
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(otherId, sizeof(set), &set), 0);
  EXPECT_EQ(CPU_COUNT(&set), 1);
  EXPECT_TRUE(CPU_ISSET(before.back(), &set));
  EXPECT_EQ(getAllowedCpus(), target);
  // Threads started afterwards inherit the mask.
  inThread([&] { EXPECT_EQ(getAllowedCpus(), target); });

  done = true;
  other.join();
  ASSERT_EQ(llvm::toString(pinToCpus(before, /*wholeProcess=*/true)), "");
  EXPECT_EQ(getAllowedCpus(), before);
}

} // namespace

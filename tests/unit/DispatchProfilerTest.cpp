//===- DispatchProfilerTest.cpp - per-dispatch timing accumulator ---------===//

#include "core/runtime/DispatchProfiler.h"

#include <gtest/gtest.h>

#include <thread>

using namespace dispatchlab;

namespace {

TEST(DispatchProfilerTest, AccumulatesOneSamplePerModelCall) {
  DispatchProfiler profiler(2);
  profiler.activate();
  for (int call = 0; call < 3; ++call) {
    DispatchProfiler::begin(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    DispatchProfiler::end(0);
    // Called twice in one model call: both count towards the one sample.
    for (int i = 0; i < 2; ++i) {
      DispatchProfiler::begin(1);
      DispatchProfiler::end(1);
    }
    profiler.finishModelCall();
  }
  ASSERT_EQ(profiler.size(), 2u);
  EXPECT_EQ(profiler.getCalls(0), 3);
  EXPECT_EQ(profiler.getCalls(1), 6);
  ASSERT_EQ(profiler.getSamples(0).size(), 3u);
  ASSERT_EQ(profiler.getSamples(1).size(), 3u);
  for (double seconds : profiler.getSamples(0))
    EXPECT_GE(seconds, 0.002);
  for (double seconds : profiler.getSamples(1))
    EXPECT_LT(seconds, profiler.getSamples(0).front());
  EXPECT_EQ(profiler.getMismatches(), 0);
}

TEST(DispatchProfilerTest, UncalledDispatchGetsZeroSample) {
  DispatchProfiler profiler(2);
  profiler.activate();
  DispatchProfiler::begin(1);
  DispatchProfiler::end(1);
  profiler.finishModelCall();
  EXPECT_EQ(profiler.getSamples(0), std::vector<double>{0.0});
  EXPECT_EQ(profiler.getCalls(0), 0);
  EXPECT_EQ(profiler.getCalls(1), 1);
}

TEST(DispatchProfilerTest, CountsMismatchedHookCalls) {
  DispatchProfiler profiler(1);
  profiler.activate();
  DispatchProfiler::begin(1);
  DispatchProfiler::end(-1);
  DispatchProfiler::end(0);
  EXPECT_EQ(profiler.getMismatches(), 3);
  EXPECT_EQ(profiler.getCalls(0), 0);
}

TEST(DispatchProfilerTest, ResetForgetsWarmup) {
  DispatchProfiler profiler(1);
  profiler.activate();
  DispatchProfiler::begin(0);
  DispatchProfiler::end(0);
  profiler.finishModelCall();
  DispatchProfiler::begin(0);
  profiler.reset();
  EXPECT_TRUE(profiler.getSamples(0).empty());
  EXPECT_EQ(profiler.getCalls(0), 0);
  // The begin before the reset is forgotten too.
  DispatchProfiler::end(0);
  EXPECT_EQ(profiler.getMismatches(), 1);
}

TEST(DispatchProfilerTest, HooksDoNothingWithoutActiveProfiler) {
  {
    DispatchProfiler gone(1);
    gone.activate();
  }
  // The destroyed profiler is no longer the target.
  DispatchProfiler::begin(0);
  DispatchProfiler::end(0);
  DispatchProfiler inactive(1);
  DispatchProfiler::begin(0);
  DispatchProfiler::end(0);
  EXPECT_EQ(inactive.getCalls(0), 0);
  EXPECT_EQ(inactive.getMismatches(), 0);
}

} // namespace

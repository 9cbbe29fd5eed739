//===- FlushDenormalsTest.cpp - denormals flushed while a model runs ------===//

#include "core/support/FlushDenormals.h"

#include <gtest/gtest.h>

#include <thread>

using namespace dispatchlab;

namespace {

/// 1e-39 is below FLT_MIN (1.18e-38): a denormal unless flushed. Out of
/// line and through volatiles, so the multiply runs where it is called and
/// not where the compiler would rather schedule it.
[[gnu::noinline]] float scaleToDenormal(float value) {
  volatile float operand = value;
  volatile float factor = 1e-39f;
  volatile float result = operand * factor;
  return result;
}

TEST(FlushDenormals, FlushesInsideTheScopeAndRestoresAfter) {
  if (!canFlushDenormals())
    GTEST_SKIP() << "no denormal flushing on this architecture";
  ASSERT_NE(scaleToDenormal(1.0f), 0.0f) << "the test expects a default FPU";
  {
    ScopedFlushDenormals flush;
    EXPECT_EQ(scaleToDenormal(1.0f), 0.0f);
    {
      ScopedFlushDenormals nested;
      EXPECT_EQ(scaleToDenormal(1.0f), 0.0f);
    }
    // The nested scope found flushing on and leaves it on.
    EXPECT_EQ(scaleToDenormal(1.0f), 0.0f);
  }
  EXPECT_NE(scaleToDenormal(1.0f), 0.0f);
}

TEST(FlushDenormals, ThreadSettingLastsForTheThread) {
  if (!canFlushDenormals())
    GTEST_SKIP() << "no denormal flushing on this architecture";
  float before = 0, after = 0;
  std::thread worker([&] {
    before = scaleToDenormal(1.0f);
    flushDenormalsOnThisThread();
    after = scaleToDenormal(1.0f);
  });
  worker.join();
  EXPECT_NE(before, 0.0f);
  EXPECT_EQ(after, 0.0f);
  // Other threads keep their own state.
  EXPECT_NE(scaleToDenormal(1.0f), 0.0f);
}

} // namespace

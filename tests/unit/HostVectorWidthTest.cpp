//===- HostVectorWidthTest.cpp - f32 vector width from CPU features -------===//

#include "core/support/HostVectorWidth.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
llvm::StringMap<bool>
features(std::initializer_list<std::pair<const char *, bool>> entries) {
  llvm::StringMap<bool> map;
  for (auto [name, enabled] : entries)
    map[name] = enabled;
  return map;
}
} // namespace

TEST(HostVectorWidthTest, Avx512TakesSixteenLanes) {
  EXPECT_EQ(getF32VectorWidth(
                features({{"avx512f", true}, {"avx2", true}, {"avx", true}})),
            16);
}

TEST(HostVectorWidthTest, AvxOrAvx2TakesEightLanes) {
  EXPECT_EQ(getF32VectorWidth(features({{"avx", true}})), 8);
  EXPECT_EQ(getF32VectorWidth(features({{"avx2", true}})), 8);
  // Zen 3: AVX2 and FMA, AVX-512 reported as disabled.
  EXPECT_EQ(getF32VectorWidth(
                features({{"avx512f", false}, {"avx2", true}, {"avx", true}})),
            8);
}

TEST(HostVectorWidthTest, OtherwiseFourLanes) {
  EXPECT_EQ(getF32VectorWidth(features({})), 4);
  EXPECT_EQ(getF32VectorWidth(features({{"sse4.2", true}, {"avx", false}})), 4);
  EXPECT_EQ(getF32VectorWidth(features({{"neon", true}})), 4);
}

TEST(HostVectorWidthTest, HostIsOneOfTheWidths) {
  int64_t width = getHostF32VectorWidth();
  EXPECT_TRUE(width == 4 || width == 8 || width == 16) << width;
}

//===- PairedComparisonTest.cpp - paired ratios, host conditions, verdicts ===//
//
// Expected p-values are from enumerating every sign assignment of the ranks
// (2^n of them), independently of the counting in PairedStatistics.cpp.

#include "core/runtime/PairedComparison.h"
#include "core/support/HostConditions.h"
#include "core/support/PairedStatistics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace dispatchlab;

namespace {

TEST(SignedRank, ExactSmallSamples) {
  // Only the all-positive assignment reaches W = 21: p = 2 / 64.
  EXPECT_DOUBLE_EQ(signedRankPValue({1, 2, 3, 4, 5, 6}), 2.0 / 64);
  EXPECT_DOUBLE_EQ(signedRankPValue({-1, 2, 3, 4, 5, 6}), 4.0 / 64);
  // Zeros are dropped before ranking.
  EXPECT_DOUBLE_EQ(signedRankPValue({0, 1, 0, 2, 3, 4, 5, 6}), 2.0 / 64);
  EXPECT_DOUBLE_EQ(signedRankPValue({}), 1.0);
  EXPECT_DOUBLE_EQ(signedRankPValue({0, 0}), 1.0);
}

TEST(SignedRank, TiesShareTheirMeanRank) {
  EXPECT_DOUBLE_EQ(signedRankPValue({1, 1, 2, -2, 3, 3, 3, 4}), 0.046875);
  EXPECT_NEAR(
      signedRankPValue({0.5, -1.5, 2, 2.5, -3, 4, 4.5, 5, -5.5, 6, 7, 8}),
      0.0771484375, 1e-12);
}

TEST(SignedRank, NormalApproximationAboveTheExactLimit) {
  // 60 distinct magnitudes, every third negative: the exact p is 0.035563.
  std::vector<double> differences;
  for (int i = 1; i <= 60; ++i)
    differences.push_back(i % 3 ? i : -i);
  EXPECT_NEAR(signedRankPValue(differences), 0.035563, 0.001);
}

TEST(ComparePaired, SignTestIntervalOfTheMedianRatio) {
  std::vector<double> baseline(20, 1.0), variant;
  for (int i = 20; i >= 1; --i)
    variant.push_back(1 + i / 100.0);
  std::optional<PairedRatio> ratio = comparePaired(baseline, variant);
  ASSERT_TRUE(ratio);
  EXPECT_EQ(ratio->rounds, 20);
  EXPECT_DOUBLE_EQ(ratio->median, (1.10 + 1.11) / 2);
  // P(B <= 5) = 0.0207 <= 2.5% < P(B <= 6) for B ~ binomial(20, 1/2): the
  // 6th and 15th order statistics.
  EXPECT_DOUBLE_EQ(ratio->low, 1.06);
  EXPECT_DOUBLE_EQ(ratio->high, 1.15);
  EXPECT_DOUBLE_EQ(ratio->pValue, 2.0 / std::ldexp(1.0, 20));
  EXPECT_NEAR(ratio->halfWidthPercent(), 0.045 / 1.105 * 100, 1e-9);
}

TEST(ComparePaired, RoundsCancelDrift) {
  // The host slows down 3x half way through; B is 2% slower in every round.
  std::vector<double> a, b;
  for (int round = 0; round < 40; ++round) {
    double drift = round < 20 ? 1 : 3;
    double jitter = 1 + 0.001 * (round % 7);
    a.push_back(drift * jitter);
    b.push_back(drift * jitter * 1.02);
  }
  std::optional<PairedRatio> ratio = comparePaired(a, b);
  ASSERT_TRUE(ratio);
  EXPECT_NEAR(ratio->median, 1.02, 1e-12);
  EXPECT_NEAR(ratio->low, 1.02, 1e-12);
  EXPECT_LT(ratio->pValue, 1e-6);
}

TEST(ComparePaired, RefusesWhatHasNoInterval) {
  EXPECT_FALSE(comparePaired({1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}));
  EXPECT_FALSE(comparePaired({1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}));
  EXPECT_FALSE(comparePaired({1, 1, 1, 1, 1, 0}, {1, 1, 1, 1, 1, 1}));
}

/// `levels[c]` times a per-round drift and a small jitter, over `rounds`.
std::vector<std::vector<double>> copiesAt(llvm::ArrayRef<double> levels,
                                          int rounds) {
  std::vector<std::vector<double>> copies;
  for (auto [index, level] : llvm::enumerate(levels)) {
    std::vector<double> &samples = copies.emplace_back();
    for (int round = 0; round < rounds; ++round) {
      double drift = round < rounds / 2 ? 1 : 3;
      samples.push_back(level * drift * (1 + 0.0001 * ((round + index) % 5)));
    }
  }
  return copies;
}

TEST(CompareCopies, TheCopiesAreTheSamples) {
  // Every copy of B lies beyond every copy of A: with 4 a side, the least
  // two-sided p of the exact U test, 2 / C(8, 4), and the interval spans
  // the pairwise ratios' extremes.
  std::optional<PairedRatio> ratio =
      compareCopies(copiesAt({1.00, 1.01, 0.99, 1.02}, 20),
                    copiesAt({1.10, 1.12, 1.09, 1.11}, 20));
  ASSERT_TRUE(ratio);
  EXPECT_EQ(ratio->rounds, 20);
  EXPECT_NEAR(ratio->pValue, 2.0 / 70, 1e-12);
  EXPECT_NEAR(ratio->low, 1.09 / 1.02, 1e-3);
  EXPECT_NEAR(ratio->high, 1.12 / 0.99, 1e-3);
  EXPECT_GT(ratio->median, ratio->low);
  EXPECT_LT(ratio->median, ratio->high);
}

TEST(CompareCopies, PlacementSpreadIsNotSignificant) {
  // Drift cancels within each round, yet the copies' spread (placement)
  // covers the 1% between the sides: no difference is shown.
  std::optional<PairedRatio> ratio =
      compareCopies(copiesAt({1.00, 1.03, 0.98, 1.01}, 40),
                    copiesAt({1.02, 0.99, 1.04, 1.00}, 40));
  ASSERT_TRUE(ratio);
  EXPECT_GT(ratio->pValue, 0.2);
  EXPECT_LT(ratio->low, 1.0);
  EXPECT_GT(ratio->high, 1.0);
  EXPECT_EQ(judgeRatio(*ratio, 0.01), llvm::StringRef("within noise"));
}

TEST(CompareCopies, RefusesWhatHasNoInterval) {
  auto four = copiesAt({1, 1, 1, 1}, 20);
  EXPECT_FALSE(compareCopies(copiesAt({1, 1, 1}, 20), four));
  EXPECT_FALSE(compareCopies(four, copiesAt({1, 1, 1}, 20)));
  EXPECT_FALSE(
      compareCopies(copiesAt({1, 1, 1, 1}, 5), copiesAt({1, 1, 1, 1}, 5)));
  EXPECT_FALSE(compareCopies(four, copiesAt({1, 1, 1, 1}, 19)));
  auto zero = four;
  zero[2][3] = 0;
  EXPECT_FALSE(compareCopies(zero, four));
  EXPECT_FALSE(compareCopies(four, zero));
}

/// A fake root holding the files readHostConditions reads.
class HostConditionsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("host", root));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root); }
  void write(llvm::StringRef relative, llvm::StringRef text) {
    llvm::SmallString<128> path(root);
    llvm::sys::path::append(path, relative);
    ASSERT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)));
    std::error_code ec;
    llvm::raw_fd_ostream(path, ec) << text;
    ASSERT_FALSE(ec);
  }
  llvm::SmallString<128> root;
};

TEST_F(HostConditionsTest, ReadsProcAndCpufreq) {
  write("proc/loadavg", "2.50 1.00 0.50 3/200 1234\n");
  write("proc/stat", "cpu  1 2 3\nprocs_running 3\nprocs_blocked 0\n");
  write("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
  write("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "2100000\n");
  write("sys/devices/system/cpu/cpu1/thermal_throttle/core_throttle_count",
        "7\n");
  HostConditions conditions = readHostConditions(1, root);
  EXPECT_EQ(conditions.loadAverage, 2.5);
  EXPECT_EQ(conditions.otherRunnableTasks, 2);
  EXPECT_EQ(conditions.governor, "powersave");
  EXPECT_EQ(conditions.frequencyMhz, 2100.0);
  EXPECT_EQ(conditions.throttleCount, 7);
}

TEST_F(HostConditionsTest, FallsBackToCpuinfoAndLeavesTheRestUnknown) {
  write("proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 1000.5\n\n"
                        "processor\t: 1\ncpu MHz\t\t: 2445.424\n\n");
  HostConditions conditions = readHostConditions(1, root);
  EXPECT_EQ(conditions.frequencyMhz, 2445.424);
  EXPECT_FALSE(conditions.loadAverage);
  EXPECT_FALSE(conditions.otherRunnableTasks);
  EXPECT_FALSE(conditions.governor);
  EXPECT_FALSE(conditions.throttleCount);
}

TEST(CheckHostLoad, RefusesABusyHostOnly) {
  HostConditions busy;
  busy.loadAverage = 3.25;
  llvm::Error error = checkHostLoad(busy, 1.5);
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "the host is busy: load average 3.25 exceeds the maximum of 1.50 "
            "(max_load); measure on a quieter host or raise the limit");
  EXPECT_FALSE(bool(checkHostLoad(busy, 4)));
  EXPECT_FALSE(bool(checkHostLoad(busy, -1)));
  EXPECT_FALSE(bool(checkHostLoad(HostConditions{}, 0)));
}

ComparedVariant measured(const char *name, double median, double low,
                         double high, double p) {
  ComparedVariant variant;
  variant.name = name;
  variant.ratio = PairedRatio{40, median, low, high, p};
  return variant;
}

TEST(Verdict, IdenticalNoiseAndSignificance) {
  ComparedVariant identical;
  identical.identicalTo = "a";
  EXPECT_EQ(verdict(identical, std::nullopt, 0.01), "identical");
  EXPECT_EQ(verdict(ComparedVariant{}, std::nullopt, 0.01), "baseline");
  EXPECT_EQ(verdict(measured("b", 0.9, 0.88, 0.92, 1e-5), std::nullopt, 0.01),
            "faster");
  EXPECT_EQ(verdict(measured("b", 1.1, 1.08, 1.12, 1e-5), std::nullopt, 0.01),
            "slower");
  EXPECT_EQ(verdict(measured("b", 1.05, 0.99, 1.11, 0.2), std::nullopt, 0.01),
            "no significant difference");
  // A significant p alone is not enough: the interval must clear the band.
  EXPECT_EQ(verdict(measured("b", 1.05, 1.005, 1.09, 0.01), std::nullopt, 0.01),
            "no significant difference");
  EXPECT_EQ(verdict(measured("b", 1.05, 1.005, 1.09, 0.01), std::nullopt, 0),
            "slower");
}

TEST(Verdict, TheMinimumEffectAndTheNoiseFloorMakeTheBand) {
  // 0.8% with a tight interval: real, but under the 1% minimum effect.
  EXPECT_EQ(
      verdict(measured("b", 1.008, 1.006, 1.01, 1e-5), std::nullopt, 0.01),
      "within noise");
  // An A/A interval reaching 3% from 1 widens the band to 3%...
  PairedRatio floor{40, 1.0, 0.97, 1.01, 0.5};
  EXPECT_EQ(verdict(measured("b", 1.02, 1.015, 1.025, 1e-5), floor, 0.01),
            "within noise");
  EXPECT_EQ(verdict(measured("b", 1.05, 1.04, 1.06, 1e-5), floor, 0.01),
            "slower");
  // ...but not for the A/A copy itself, judged by the minimum effect.
  EXPECT_EQ(verdict(measured("a (A/A)", 1.02, 1.015, 1.025, 1e-5), floor, 0.01),
            "slower");
}

} // namespace

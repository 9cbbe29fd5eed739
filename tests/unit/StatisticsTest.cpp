//===- StatisticsTest.cpp - U test and ratio intervals --------------------===//
//
// Expected values are worked out by hand (the derivation is beside each) or
// by enumerating every split of the pooled sample, independently of the
// Gaussian-binomial counting the implementation uses. The bootstrap's known
// answers come from samples whose resampled medians take few values.
//
//===----------------------------------------------------------------------===//

#include "core/support/Statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace dispatchlab;

namespace {

TEST(MannWhitneyU, SeparatedSamplesExact) {
  // 3 vs 3: only 1 of the C(6,3) = 20 splits puts all of y above x, so the
  // two-sided p is 2/20.
  std::optional<UTestResult> r = mannWhitneyU({1, 2, 3}, {4, 5, 6});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->exact);
  EXPECT_EQ(r->u, 0);
  EXPECT_DOUBLE_EQ(r->pValue, 0.1);
  // 5 vs 5: 2 / C(10,5) = 2/252.
  r = mannWhitneyU({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->u, 25);
  EXPECT_DOUBLE_EQ(r->pValue, 2.0 / 252);
}

TEST(MannWhitneyU, InterleavedSamplesExact) {
  // U_x = 3 (7.0 beats 4.4, 5.1, 6.3); the larger U is 17 of 20, and
  // enumerating the 126 splits gives P(U >= 17) = 7/126, so p = 14/126.
  std::optional<UTestResult> r =
      mannWhitneyU({1.1, 3.2, 2.5, 7.0}, {4.4, 5.1, 6.3, 8.8, 9.9});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->exact);
  EXPECT_EQ(r->u, 3);
  EXPECT_NEAR(r->pValue, 14.0 / 126, 1e-12);
}

TEST(MannWhitneyU, TiesUseCorrectedNormalApproximation) {
  // Pooled ranks: 1 -> 1, the three 2s -> 3, the three 3s -> 6, 4 -> 8,
  // 5 -> 9. R_x = 1 + 3 + 3 + 6 = 13, U_x = 13 - 10 = 3, larger U = 17.
  // sigma^2 = 20/12 * (10 - (24 + 24) / (9 * 8)) = 15.5556, sigma = 3.94405;
  // z = (17 - 10 - 0.5) / sigma = 1.64805; p = erfc(z / sqrt 2) = 0.099342.
  std::optional<UTestResult> r = mannWhitneyU({1, 2, 2, 3}, {2, 3, 3, 4, 5});
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->exact);
  EXPECT_EQ(r->u, 3);
  EXPECT_NEAR(r->pValue, 0.0993422, 1e-6);
}

TEST(MannWhitneyU, IdenticalSamplesAreNotSignificant) {
  std::vector<double> same = {1.5, 1.5, 1.5, 1.5};
  std::optional<UTestResult> r = mannWhitneyU(same, same);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->pValue, 1);
  std::vector<double> samples = {1.0, 1.2, 0.9, 1.4, 1.1, 1.3, 1.05, 0.95};
  r = mannWhitneyU(samples, samples);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->pValue, 1);
}

TEST(MannWhitneyU, LargeSamplesAgreeWithExact) {
  // 30 vs 30 (exact) and 30 vs 31 (approximation) of alternating values:
  // both near the middle of the distribution, both far from significant,
  // and a clean separation is significant either way.
  std::vector<double> x, y;
  for (int i = 0; i < 30; ++i) {
    x.push_back(2 * i);
    y.push_back(2 * i + 1);
  }
  std::optional<UTestResult> exact = mannWhitneyU(x, y);
  y.push_back(61);
  std::optional<UTestResult> approx = mannWhitneyU(x, y);
  ASSERT_TRUE(exact && approx);
  EXPECT_TRUE(exact->exact);
  EXPECT_FALSE(approx->exact);
  EXPECT_GT(exact->pValue, 0.5);
  EXPECT_GT(approx->pValue, 0.5);
  for (double &value : y)
    value += 1000;
  EXPECT_LT(mannWhitneyU(x, y)->pValue, 1e-9);
}

TEST(MannWhitneyU, EmptySampleHasNoTest) {
  EXPECT_FALSE(mannWhitneyU({}, {1.0}));
}

TEST(RatioConfidenceInterval, ScaledSamples) {
  // 5 vs 5: the null counts of U = 0, 1, 2, 3 are 1, 1, 2, 3 of 252, so
  // P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252 and c = 3. The interval
  // is the 3rd smallest and 3rd largest of the 25 ratios 2 a_j / a_i:
  // 2 * 11/14 and 2 * 14/11.
  std::vector<double> base = {10, 11, 12, 13, 14};
  std::vector<double> doubled = {20, 22, 24, 26, 28};
  std::optional<Interval> ci = ratioConfidenceInterval(base, doubled);
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->low, 2.0 * 11 / 14, 1e-12);
  EXPECT_NEAR(ci->high, 2.0 * 14 / 11, 1e-12);
}

TEST(RatioConfidenceInterval, TooFewSamples) {
  // 3 vs 3: P(U = 0) = 1/20 > 0.025, so no split is rare enough.
  EXPECT_FALSE(ratioConfidenceInterval({1, 2, 3}, {4, 5, 6}));
  EXPECT_FALSE(ratioConfidenceInterval({1, 2, 3, 4, 5}, {0, 1, 2, 3, 4}));
}

TEST(RatioConfidenceInterval, NormalApproximationCoversTheScale) {
  // 40 vs 40 samples of the same spread, the variant 1.5x slower: the
  // interval must hold 1.5 and exclude 1.
  std::vector<double> base, slower;
  for (int i = 0; i < 40; ++i) {
    double value = 1.0 + 0.01 * ((i * 7) % 40);
    base.push_back(value);
    slower.push_back(1.5 * value);
  }
  std::optional<Interval> ci = ratioConfidenceInterval(base, slower);
  ASSERT_TRUE(ci);
  EXPECT_LT(ci->low, 1.5);
  EXPECT_GT(ci->high, 1.5);
  EXPECT_GT(ci->low, 1.0);
}

TEST(GeomeanRatioInterval, ConstantSamplesGiveAPoint) {
  // Every resample of a constant sample has the same median, so every
  // resampled geomean is the point estimate.
  std::vector<double> two = {2, 2, 2, 2}, five = {5, 5, 5};
  std::optional<Interval> ci = geomeanRatioInterval({{two, two}, {five, five}});
  ASSERT_TRUE(ci);
  EXPECT_EQ(ci->low, 1);
  EXPECT_EQ(ci->high, 1);
  std::vector<double> six = {6, 6, 6}, fifteen = {15, 15, 15, 15, 15};
  ci = geomeanRatioInterval({{two, six}, {five, fifteen}});
  ASSERT_TRUE(ci);
  EXPECT_DOUBLE_EQ(ci->low, 3);
  EXPECT_DOUBLE_EQ(ci->high, 3);
}

TEST(GeomeanRatioInterval, KnownResampleDistribution) {
  // The variant {1, 3} resamples to median 1, 2 or 3 with probability 1/4,
  // 1/2, 1/4 against a constant 2: ratios 0.5, 1, 1.5. Of 2000 resamples
  // about 500 sit at each end, far beyond the 2.5% (50) needed, so both ends
  // of the interval are those extremes. The other model is exactly 1, so the
  // geomean is the square root of the noisy model's ratio.
  std::vector<double> base = {2, 2}, variant = {1, 3}, one = {4, 4, 4};
  std::optional<Interval> ci = geomeanRatioInterval({{base, variant}});
  ASSERT_TRUE(ci);
  EXPECT_DOUBLE_EQ(ci->low, 0.5);
  EXPECT_DOUBLE_EQ(ci->high, 1.5);
  ci = geomeanRatioInterval({{base, variant}, {one, one}});
  ASSERT_TRUE(ci);
  EXPECT_DOUBLE_EQ(ci->low, std::sqrt(0.5));
  EXPECT_DOUBLE_EQ(ci->high, std::sqrt(1.5));
}

TEST(GeomeanRatioInterval, NoisyModelWidensAroundTheEstimate) {
  // Two quiet models exactly 0.5x, one noisy model about 0.5x: the interval
  // holds the point estimate, has width, and excludes 1.
  std::vector<double> quiet = {10, 10, 10, 10, 10}, halved = {5, 5, 5, 5, 5};
  std::vector<double> noisyBase = {10, 11, 9, 12, 8, 10.5, 9.5, 13, 7};
  std::vector<double> noisyVariant = {5, 6.5, 4, 5.5, 3.5, 6, 4.5, 7, 4.8};
  double estimate =
      std::cbrt(0.5 * 0.5 * *median(noisyVariant) / *median(noisyBase));
  std::optional<Interval> ci = geomeanRatioInterval(
      {{quiet, halved}, {noisyBase, noisyVariant}, {quiet, halved}});
  ASSERT_TRUE(ci);
  EXPECT_LT(ci->low, ci->high);
  EXPECT_LE(ci->low, estimate);
  EXPECT_GE(ci->high, estimate);
  EXPECT_LT(ci->high, 1);
}

TEST(GeomeanRatioInterval, ScaledSamplesAreResampledIndependently) {
  // The variant's repetitions are the baseline's times 3, but the two runs
  // are independent measurements: resampling draws each side on its own, so
  // the interval has the spread of the samples around 3, not a point.
  std::vector<double> base = {10, 11, 12, 13, 14, 10.5, 11.5, 12.5, 13.5};
  std::vector<double> tripled;
  for (double value : base)
    tripled.push_back(3 * value);
  std::optional<Interval> ci = geomeanRatioInterval({{base, tripled}});
  ASSERT_TRUE(ci);
  EXPECT_LT(ci->low, 3);
  EXPECT_GT(ci->high, 3);
  EXPECT_GT(ci->low, 2);
  EXPECT_LT(ci->high, 4);
}

TEST(GeomeanRatioInterval, Deterministic) {
  std::vector<double> base = {1.0, 1.2, 0.9, 1.4, 1.1, 1.3, 1.05, 0.95};
  std::vector<double> variant = {0.8, 1.1, 0.85, 0.9, 1.0, 0.7, 0.95};
  std::optional<Interval> first = geomeanRatioInterval({{base, variant}});
  std::optional<Interval> second = geomeanRatioInterval({{base, variant}});
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->low, second->low);
  EXPECT_EQ(first->high, second->high);
  EXPECT_LT(first->low, first->high);
}

TEST(GeomeanRatioInterval, NoIntervalWithoutEnoughPositiveSamples) {
  std::vector<double> two = {1, 2}, one = {1}, withZero = {0, 1, 2};
  EXPECT_FALSE(geomeanRatioInterval({}));
  EXPECT_FALSE(geomeanRatioInterval({{two, one}}));
  EXPECT_FALSE(geomeanRatioInterval({{one, two}}));
  // One model short spoils the whole row.
  EXPECT_FALSE(geomeanRatioInterval({{two, two}, {two, one}}));
  EXPECT_FALSE(geomeanRatioInterval({{two, withZero}}));
  EXPECT_FALSE(geomeanRatioInterval({{two, two}}, 0));
}

TEST(Median, OddAndEven) {
  EXPECT_EQ(*median({3, 1, 2}), 2);
  EXPECT_EQ(*median({4, 1, 3, 2}), 2.5);
  EXPECT_FALSE(median({}));
}

} // namespace

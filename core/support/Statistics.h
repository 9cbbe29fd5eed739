//===- Statistics.h - comparing two sets of latency samples -----*- C++ -*-===//
//
// What a latency report needs to say whether a variant is faster than its
// baseline, from the raw per-repetition samples of both:
//
// - A two-sided Mann-Whitney U test, as Google Benchmark's compare.py does
//   (scipy's mannwhitneyu, alpha 0.05). Without ties and with at most 60
//   samples in all, p is exact (the null distribution of U counted from the
//   Gaussian binomial coefficient); otherwise the normal approximation with
//   tie correction and continuity correction (scipy's "asymptotic" method).
//   scipy's default switches to the approximation at smaller sizes; the
//   two agree closely there, and exact p is never the worse answer.
//
// - A 95% confidence interval for the ratio variant / baseline: the
//   distribution-free interval that inverts the same U test (Hollander &
//   Wolfe, "Nonparametric Statistical Methods", 4.3) on log latencies. If the
//   variant's latencies are the baseline's scaled by a factor r, log r is a
//   shift; the interval holds the shifts the U test does not reject, i.e.
//   order statistics of the m*n pairwise differences log(y_j) - log(x_i). So
//   the interval excludes 1 when, and essentially only when, the test is
//   significant: the table never shows a tight interval beside "not
//   significant". It needs no resampling (deterministic) and no normality.
//   With too few samples (3 against 3) no 95% interval exists.
//
// - A 95% interval for the geometric mean over models of the ratios of
//   medians (the report's geomean row): a percentile bootstrap (Efron &
//   Tibshirani, "An Introduction to the Bootstrap", 13.3). Each resample
//   draws every model's baseline and variant repetitions with replacement,
//   independently (repetition i of one run has nothing to do with repetition
//   i of the other), and takes the geomean of the ratios of their medians;
//   the interval is the 2.5% and 97.5% points of 2000 such geomeans. The
//   generator is std::mt19937_64 with a fixed seed and indices are drawn by
//   rejection, so a report prints the same interval every time (across
//   platforms, up to the rounding of their log and exp). It covers the
//   measurement noise of this set of models only, not the choice of models:
//   another model set is another population, and "faster on these models" says
//   nothing about models not measured.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_STATISTICS_H
#define DISPATCHLAB_CORE_SUPPORT_STATISTICS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <optional>

namespace dispatchlab {

/// Significance level of the U test; the intervals are 1 - kAlpha.
constexpr double kSignificanceAlpha = 0.05;
/// compare.py warns below this many repetitions: the test has little power.
constexpr size_t kRecommendedSamples = 9;

struct UTestResult {
  /// U of the first sample: pairs (x_i, y_j) with x_i > y_j, ties half.
  double u = 0;
  /// Two-sided.
  double pValue = 1;
  bool exact = false;
};

/// Two-sided Mann-Whitney U test of `x` against `y`; nullopt if either is
/// empty.
std::optional<UTestResult> mannWhitneyU(llvm::ArrayRef<double> x,
                                        llvm::ArrayRef<double> y);

struct Interval {
  double low = 0, high = 0;
};

/// The (1 - kSignificanceAlpha) confidence interval for the ratio of
/// `variant` to `baseline` latencies (see the file comment); nullopt when a
/// sample is not positive or there are too few samples for one.
std::optional<Interval> ratioConfidenceInterval(llvm::ArrayRef<double> baseline,
                                                llvm::ArrayRef<double> variant);

/// Resamples behind geomeanRatioInterval unless told otherwise.
constexpr unsigned kBootstrapResamples = 2000;

/// One model's raw latencies for geomeanRatioInterval.
struct RatioSamples {
  llvm::ArrayRef<double> baseline, variant;
};

/// The (1 - kSignificanceAlpha) percentile-bootstrap interval for the
/// geometric mean over `models` of median(variant) / median(baseline) (see
/// the file comment); deterministic. nullopt when there are no models, a
/// model has fewer than 2 samples on either side, or a sample is not
/// positive.
std::optional<Interval>
geomeanRatioInterval(llvm::ArrayRef<RatioSamples> models,
                     unsigned resamples = kBootstrapResamples);

/// Two sets of samples measured apart (one job each): the U test and the
/// interval of the ratio, as `report` and `compare --schedule sequential`
/// give them.
struct LatencyComparison {
  size_t baselineSamples = 0, samples = 0;
  /// Absent when either side has no raw samples.
  std::optional<UTestResult> test;
  /// Of variant / baseline; absent with too few samples for one.
  std::optional<Interval> interval;
  bool significant() const { return test && test->pValue < kSignificanceAlpha; }
};
LatencyComparison compareLatency(llvm::ArrayRef<double> baselineMs,
                                 llvm::ArrayRef<double> variantMs);

/// The median (mean of the middle two for even counts); nullopt if empty.
std::optional<double> median(llvm::ArrayRef<double> values);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_STATISTICS_H

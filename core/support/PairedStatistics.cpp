//===- PairedStatistics.cpp - ratios of latencies measured in rounds ------===//

#include "core/support/PairedStatistics.h"

#include "core/support/Statistics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dispatchlab {

namespace {
/// Twice the average rank of each |difference| (ties share their mean
/// rank, which may be a half), so that rank sums stay integers.
std::vector<int64_t> doubledRanks(llvm::ArrayRef<double> magnitudes,
                                  double &tieCorrection) {
  std::vector<size_t> order(magnitudes.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order,
             [&](size_t a, size_t b) { return magnitudes[a] < magnitudes[b]; });
  std::vector<int64_t> ranks(magnitudes.size());
  tieCorrection = 0;
  for (size_t first = 0; first < order.size();) {
    size_t last = first;
    while (last + 1 < order.size() &&
           magnitudes[order[last + 1]] == magnitudes[order[first]])
      ++last;
    // Ranks first+1 .. last+1: their mean, doubled, is first + last + 2.
    for (size_t i = first; i <= last; ++i)
      ranks[order[i]] = int64_t(first + last + 2);
    double t = double(last - first + 1);
    tieCorrection += t * t * t - t;
    first = last + 1;
  }
  return ranks;
}

/// P(W <= w) and P(W >= w) under the null, W the doubled positive rank sum,
/// by counting the sign assignments of every rank.
std::pair<double, double> exactTails(llvm::ArrayRef<int64_t> ranks, int64_t w) {
  int64_t total = 0;
  for (int64_t rank : ranks)
    total += rank;
  std::vector<double> ways(total + 1, 0);
  ways[0] = 1;
  int64_t reach = 0;
  for (int64_t rank : ranks) {
    reach += rank;
    for (int64_t sum = reach; sum >= rank; --sum)
      ways[sum] += ways[sum - rank];
  }
  double all = std::ldexp(1.0, int(ranks.size()));
  double below = 0, above = 0;
  for (int64_t sum = 0; sum <= total; ++sum) {
    if (sum <= w)
      below += ways[sum];
    if (sum >= w)
      above += ways[sum];
  }
  return {below / all, above / all};
}

/// The largest k with P(B <= k - 1) <= `tail`, B ~ binomial(n, 1/2), and
/// k at most n / 2: [x_(k), x_(n-k+1)] then covers the median with at least
/// 1 - 2 * tail.
int64_t orderStatisticRank(int64_t n, double tail) {
  double cdf = 0;
  int64_t k = 0;
  while (k < n / 2) {
    cdf += std::exp(std::lgamma(double(n + 1)) - std::lgamma(double(k + 1)) -
                    std::lgamma(double(n - k + 1)) - double(n) * std::log(2.0));
    if (cdf > tail)
      break;
    ++k;
  }
  return std::max<int64_t>(k, 1);
}

/// Each copy's median time over `norm` (one value per round).
std::optional<std::vector<double>>
copyLevels(llvm::ArrayRef<std::vector<double>> copies,
           llvm::ArrayRef<double> norm) {
  std::vector<double> levels;
  for (const std::vector<double> &samples : copies) {
    if (samples.size() != norm.size())
      return std::nullopt;
    std::vector<double> relative;
    for (auto [sample, round] : llvm::zip(samples, norm)) {
      if (!(sample > 0))
        return std::nullopt;
      relative.push_back(sample / round);
    }
    levels.push_back(*median(relative));
  }
  return levels;
}
} // namespace

std::vector<double>
geomeanPerRound(llvm::ArrayRef<std::vector<double>> copies) {
  std::vector<double> means(copies.empty() ? 0 : copies.front().size(), 0);
  for (const std::vector<double> &samples : copies)
    for (auto [sum, sample] : llvm::zip_equal(means, samples))
      sum += std::log(sample);
  for (double &sum : means)
    sum = std::exp(sum / double(copies.size()));
  return means;
}

std::optional<PairedRatio>
compareCopies(llvm::ArrayRef<std::vector<double>> baseline,
              llvm::ArrayRef<std::vector<double>> variant) {
  if (baseline.size() < kMinCopies || variant.size() < kMinCopies)
    return std::nullopt;
  size_t rounds = baseline.front().size();
  if (rounds < 6)
    return std::nullopt;
  for (const std::vector<double> &samples : baseline)
    if (samples.size() != rounds)
      return std::nullopt;
  // A sample that is not positive is refused by copyLevels.
  std::vector<double> norm = geomeanPerRound(baseline);
  std::optional<std::vector<double>> a = copyLevels(baseline, norm);
  std::optional<std::vector<double>> b = copyLevels(variant, norm);
  if (!a || !b)
    return std::nullopt;
  std::optional<Interval> interval = ratioConfidenceInterval(*a, *b);
  std::optional<UTestResult> test = mannWhitneyU(*b, *a);
  if (!interval || !test)
    return std::nullopt;
  std::vector<double> ratios;
  for (double x : *a)
    for (double y : *b)
      ratios.push_back(y / x);
  return PairedRatio{int64_t(rounds), *median(ratios), interval->low,
                     interval->high, test->pValue};
}

double PairedRatio::halfWidthPercent() const {
  return median > 0 ? (high - low) / 2 / median * 100 : 0;
}

double noiseBand(double minEffect, const std::optional<PairedRatio> &floor) {
  if (!floor)
    return minEffect;
  return std::max(
      {minEffect, std::fabs(floor->low - 1), std::fabs(floor->high - 1)});
}

llvm::StringRef judgeRatio(const PairedRatio &ratio, double band) {
  bool beyond = ratio.high < 1 - band || ratio.low > 1 + band;
  if (ratio.pValue < 0.05 && beyond)
    return ratio.median < 1 ? "faster" : "slower";
  if (std::fabs(ratio.median - 1) <= band)
    return "within noise";
  return "no significant difference";
}

double signedRankPValue(llvm::ArrayRef<double> differences) {
  llvm::SmallVector<double> magnitudes;
  int64_t positiveCount = 0;
  std::vector<bool> positive;
  for (double d : differences) {
    if (d == 0)
      continue;
    magnitudes.push_back(std::fabs(d));
    positive.push_back(d > 0);
    positiveCount += d > 0;
  }
  int64_t n = int64_t(magnitudes.size());
  if (n == 0)
    return 1;
  double tieCorrection = 0;
  std::vector<int64_t> ranks = doubledRanks(magnitudes, tieCorrection);
  int64_t w = 0;
  for (int64_t i = 0; i < n; ++i)
    if (positive[i])
      w += ranks[i];
  if (n <= kExactSignedRankRounds) {
    auto [below, above] = exactTails(ranks, w);
    return std::min(1.0, 2 * std::min(below, above));
  }
  double mean = double(n) * double(n + 1) / 4;
  double variance =
      double(n) * double(n + 1) * double(2 * n + 1) / 24 - tieCorrection / 48;
  double deviation = double(w) / 2 - mean;
  double corrected = std::max(0.0, std::fabs(deviation) - 0.5);
  if (variance <= 0)
    return 1;
  return std::min(1.0, std::erfc(corrected / std::sqrt(variance) / M_SQRT2));
}

std::optional<PairedRatio> comparePaired(llvm::ArrayRef<double> baseline,
                                         llvm::ArrayRef<double> variant) {
  if (baseline.size() != variant.size() || baseline.size() < 6)
    return std::nullopt;
  std::vector<double> ratios, logRatios;
  for (auto [a, b] : llvm::zip(baseline, variant)) {
    if (!(a > 0) || !(b > 0))
      return std::nullopt;
    ratios.push_back(b / a);
    logRatios.push_back(std::log(b / a));
  }
  PairedRatio result;
  result.rounds = int64_t(ratios.size());
  result.pValue = signedRankPValue(logRatios);
  llvm::sort(ratios);
  int64_t n = result.rounds;
  result.median = *median(ratios);
  int64_t k = orderStatisticRank(n, 0.025);
  result.low = ratios[k - 1];
  result.high = ratios[n - k];
  return result;
}

} // namespace dispatchlab

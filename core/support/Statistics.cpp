//===- Statistics.cpp - comparing two sets of latency samples -------------===//

#include "core/support/Statistics.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace dispatchlab {

namespace {
/// Exact counts fit in int64 up to C(60, 30) ~ 1.2e17 (with the factor 2 the
/// multiplication step needs); beyond that the normal approximation is
/// accurate anyway.
constexpr size_t kExactLimit = 60;

/// z_{1 - alpha/2} for the normal-approximation interval.
constexpr double kZ = 1.959963984540054;
static_assert(kSignificanceAlpha == 0.05, "kZ is z_0.975");

/// How many of the C(m+n, m) orderings of two untied samples give each U in
/// 0..m*n: the coefficients of the Gaussian binomial [m+n choose m]_q, built
/// as prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
std::vector<int64_t> uNullCounts(size_t m, size_t n) {
  std::vector<int64_t> counts(m * n + 1, 0);
  counts[0] = 1;
  for (size_t i = 1; i <= m; ++i) {
    size_t degree = i * n;
    for (size_t k = degree + 1; k-- > n + i;)
      counts[k] -= counts[k - (n + i)];
    for (size_t k = i; k <= degree; ++k)
      counts[k] += counts[k - i];
  }
  return counts;
}

/// The largest c with P(U <= c - 1) <= alpha / 2 under the null: the
/// interval is then [d_(c), d_(mn+1-c)] of the sorted pairwise differences.
size_t criticalCount(size_t m, size_t n) {
  double mn = static_cast<double>(m * n);
  if (m + n > kExactLimit) {
    double sigma = std::sqrt(mn * static_cast<double>(m + n + 1) / 12.0);
    double c = std::floor(mn / 2 - kZ * sigma + 0.5);
    return c > 0 ? static_cast<size_t>(c) : 0;
  }
  std::vector<int64_t> counts = uNullCounts(m, n);
  double total = 0;
  for (int64_t count : counts)
    total += static_cast<double>(count);
  double cumulative = 0;
  size_t c = 0;
  while (c < counts.size() &&
         (cumulative + static_cast<double>(counts[c])) / total <=
             kSignificanceAlpha / 2) {
    cumulative += static_cast<double>(counts[c]);
    ++c;
  }
  return c;
}

/// Any fixed value: the bootstrap must print the same interval every time.
constexpr uint64_t kBootstrapSeed = 0x6765'6f6d'6561'6e31;

/// Uniform in [0, n) from the fully specified engine by rejection (the
/// standard distributions differ between library implementations, and a
/// plain `engine() % n` favours small values).
size_t drawIndex(std::mt19937_64 &engine, size_t n) {
  uint64_t range = static_cast<uint64_t>(n);
  uint64_t limit = std::numeric_limits<uint64_t>::max() -
                   std::numeric_limits<uint64_t>::max() % range;
  uint64_t bits;
  do
    bits = engine();
  while (bits >= limit);
  return static_cast<size_t>(bits % range);
}

/// The median of `values.size()` draws with replacement from `values`;
/// `scratch` is reused between calls.
double resampledMedian(llvm::ArrayRef<double> values, std::mt19937_64 &engine,
                       std::vector<double> &scratch) {
  size_t n = values.size();
  scratch.resize(n);
  for (double &value : scratch)
    value = values[drawIndex(engine, n)];
  auto middle = scratch.begin() + n / 2;
  std::nth_element(scratch.begin(), middle, scratch.end());
  if (n % 2)
    return *middle;
  return (*std::max_element(scratch.begin(), middle) + *middle) / 2;
}

/// The p-quantile of sorted `values`, interpolating between order
/// statistics (numpy's default, "linear").
double quantile(llvm::ArrayRef<double> values, double p) {
  double position = p * static_cast<double>(values.size() - 1);
  size_t below = static_cast<size_t>(std::floor(position));
  size_t above = std::min(below + 1, values.size() - 1);
  double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}
} // namespace

std::optional<UTestResult> mannWhitneyU(llvm::ArrayRef<double> x,
                                        llvm::ArrayRef<double> y) {
  size_t m = x.size(), n = y.size();
  if (!m || !n)
    return std::nullopt;
  // Mid-ranks over the pooled sample; ties also feed the variance term.
  std::vector<std::pair<double, bool>> pooled;
  for (double value : x)
    pooled.emplace_back(value, true);
  for (double value : y)
    pooled.emplace_back(value, false);
  llvm::sort(pooled,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  double rankSumX = 0, tieTerm = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first)
      ++j;
    double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (size_t k = i; k < j; ++k)
      if (pooled[k].second)
        rankSumX += rank;
    double t = static_cast<double>(j - i);
    tieTerm += t * t * t - t;
    i = j;
  }
  double mn = static_cast<double>(m * n);
  UTestResult result;
  result.u = rankSumX - static_cast<double>(m * (m + 1)) / 2;
  double larger = std::max(result.u, mn - result.u);

  if (tieTerm == 0 && m + n <= kExactLimit) {
    std::vector<int64_t> counts = uNullCounts(m, n);
    double total = 0, tail = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
      total += static_cast<double>(counts[k]);
      if (static_cast<double>(k) >= larger)
        tail += static_cast<double>(counts[k]);
    }
    result.exact = true;
    result.pValue = std::min(1.0, 2 * tail / total);
    return result;
  }

  double size = static_cast<double>(m + n);
  double variance = mn / 12 * ((size + 1) - tieTerm / (size * (size - 1)));
  if (variance <= 0) {
    // Every sample equal: nothing tells the two apart.
    result.pValue = 1;
    return result;
  }
  double z = (larger - mn / 2 - 0.5) / std::sqrt(variance);
  result.pValue = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

std::optional<Interval>
ratioConfidenceInterval(llvm::ArrayRef<double> baseline,
                        llvm::ArrayRef<double> variant) {
  size_t m = baseline.size(), n = variant.size();
  if (!m || !n)
    return std::nullopt;
  auto positive = [](double value) { return value > 0; };
  if (!llvm::all_of(baseline, positive) || !llvm::all_of(variant, positive))
    return std::nullopt;
  size_t c = criticalCount(m, n);
  if (c == 0)
    return std::nullopt;
  std::vector<double> differences;
  differences.reserve(m * n);
  for (double x : baseline)
    for (double y : variant)
      differences.push_back(std::log(y) - std::log(x));
  llvm::sort(differences);
  return Interval{std::exp(differences[c - 1]),
                  std::exp(differences[m * n - c])};
}

std::optional<Interval>
geomeanRatioInterval(llvm::ArrayRef<RatioSamples> models, unsigned resamples) {
  if (models.empty() || resamples == 0)
    return std::nullopt;
  auto positive = [](double value) { return value > 0; };
  for (const RatioSamples &model : models)
    if (model.baseline.size() < 2 || model.variant.size() < 2 ||
        !llvm::all_of(model.baseline, positive) ||
        !llvm::all_of(model.variant, positive))
      return std::nullopt;
  std::mt19937_64 engine(kBootstrapSeed);
  std::vector<double> scratch, geomeans;
  geomeans.reserve(resamples);
  for (unsigned r = 0; r < resamples; ++r) {
    double logSum = 0;
    for (const RatioSamples &model : models) {
      double baseline = resampledMedian(model.baseline, engine, scratch);
      double variant = resampledMedian(model.variant, engine, scratch);
      logSum += std::log(variant / baseline);
    }
    geomeans.push_back(std::exp(logSum / static_cast<double>(models.size())));
  }
  llvm::sort(geomeans);
  return Interval{quantile(geomeans, kSignificanceAlpha / 2),
                  quantile(geomeans, 1 - kSignificanceAlpha / 2)};
}

std::optional<double> median(llvm::ArrayRef<double> values) {
  if (values.empty())
    return std::nullopt;
  std::vector<double> sorted(values.begin(), values.end());
  llvm::sort(sorted);
  size_t half = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[half]
                           : (sorted[half - 1] + sorted[half]) / 2;
}

LatencyComparison compareLatency(llvm::ArrayRef<double> baselineMs,
                                 llvm::ArrayRef<double> variantMs) {
  LatencyComparison comparison;
  comparison.baselineSamples = baselineMs.size();
  comparison.samples = variantMs.size();
  comparison.test = mannWhitneyU(variantMs, baselineMs);
  comparison.interval = ratioConfidenceInterval(baselineMs, variantMs);
  return comparison;
}

} // namespace dispatchlab

//===- PairedStatistics.h - ratios of latencies measured in rounds -*- C++ -*-//
//
// Two variants timed in the same rounds (each round calls both, in a
// shuffled order) give one ratio per round, B/A. Drift between rounds (a
// competitor, a frequency change) moves both calls of a round alike, so the
// ratio cancels it where two separately measured sample sets would not.
// Tested here: Wilcoxon's signed-rank test on the log ratios, and a
// distribution-free interval for the median ratio from the order statistics
// of the ratios (the sign-test interval).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_PAIREDSTATISTICS_H
#define DISPATCHLAB_CORE_SUPPORT_PAIREDSTATISTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dispatchlab {

struct PairedRatio {
  int64_t rounds = 0;
  /// Median over rounds of variant / baseline.
  double median = 1;
  /// 95% interval of the median ratio: order statistics of the ratios
  /// chosen by the binomial(rounds, 1/2) distribution.
  double low = 1, high = 1;
  /// Two-sided p-value of Wilcoxon's signed-rank test on log(ratio):
  /// exact up to kExactSignedRankRounds non-zero differences, the normal
  /// approximation (tie-corrected, continuity-corrected) above.
  double pValue = 1;
  /// Half the interval's width, in percent of the median.
  double halfWidthPercent() const;
};

inline constexpr int64_t kExactSignedRankRounds = 50;

/// Ratios of `variant[i] / baseline[i]`; nothing when the arrays differ in
/// length, hold fewer than 6 rounds (no 95% interval exists below that) or
/// a time that is not positive.
std::optional<PairedRatio> comparePaired(llvm::ArrayRef<double> baseline,
                                         llvm::ArrayRef<double> variant);

/// Rounds a comparison takes before its first look at the intervals,
/// unless told otherwise (CompareOptions::minRounds): fewer than 6 give no
/// interval at all, and 20 keep the sign-test interval from being one
/// outlier wide.
inline constexpr unsigned kDefaultMinRounds = 20;

/// Fewest copies of each side that compareCopies gives an interval for:
/// with 3, no 95% interval of the Mann-Whitney shift exists.
inline constexpr size_t kMinCopies = 4;

/// The geometric mean of `copies[c][r]` over c, for each round r; the
/// copies must hold as many rounds each.
std::vector<double> geomeanPerRound(llvm::ArrayRef<std::vector<double>> copies);

/// Variants linked several times each (every copy the same object at other
/// addresses) and timed in the same rounds: `baseline[c][r]` is copy c's
/// time in round r. Each copy's level is the median over rounds of its
/// time over the geometric mean of the baseline's copies in that round (so
/// that drift cancels as in comparePaired); the copies are then the
/// samples: the Mann-Whitney U test on the variant's levels against the
/// baseline's, the interval inverting it, and its Hodges-Lehmann estimate
/// (the median of the pairwise ratios) as `median`. Where a copy lands
/// moves a short call by a few percent on some hosts, and one link is one
/// draw of it, so a difference counts only beyond that spread. Nothing
/// with fewer than kMinCopies copies a side, fewer than 6 rounds, rounds of
/// different lengths, or a time that is not positive.
std::optional<PairedRatio>
compareCopies(llvm::ArrayRef<std::vector<double>> baseline,
              llvm::ArrayRef<std::vector<double>> variant);

/// The band around 1 within which a ratio means nothing: `minEffect` (a
/// fraction), widened to the reach of the A/A interval `floor` when there is
/// one.
double noiseBand(double minEffect, const std::optional<PairedRatio> &floor);

/// "faster"/"slower" when p < 0.05 and the whole interval lies beyond
/// `band`, "within noise" when the median lies inside it, else "no
/// significant difference".
llvm::StringRef judgeRatio(const PairedRatio &ratio, double band);

/// Two-sided p-value of the signed-rank test on `differences` (zeros
/// dropped, as Wilcoxon did; 1 when none is left).
double signedRankPValue(llvm::ArrayRef<double> differences);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_PAIREDSTATISTICS_H

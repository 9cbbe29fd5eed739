//===- ReportQueries.h - sweep results as pivot tables ----------*- C++ -*-===//
//
// Reads a sweep's jobs and results from the result database and arranges one
// metric as a pivot table (models x variants), optionally relative to a
// baseline variant, with a geometric-mean summary. No printing here: the
// formatters turn a Pivot into text, and tests check the Pivot itself.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_REPORTQUERIES_H
#define DISPATCHLAB_RESULTS_REPORTQUERIES_H

#include "core/support/Statistics.h"
#include "results/Metrics.h"
#include "results/ResultStore.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

struct SweepRef {
  int64_t id = 0;
  std::string name;
};

/// The sweep named by `selector`: a numeric id, else the latest sweep of
/// that name; an empty selector means the latest sweep submitted.
llvm::Expected<std::optional<SweepRef>> findSweep(ResultStore &store,
                                                  llvm::StringRef selector);

/// Why `selector` names no sweep, for an error line: the database and the
/// sweeps it holds (the newest few, as `name (#id)`), or that it has none.
llvm::Expected<std::string> describeMissingSweep(ResultStore &store,
                                                 llvm::StringRef selector,
                                                 llvm::StringRef databasePath);

/// The sweep `selector` names (findSweep); when there is none, an error
/// whose message is describeMissingSweep's.
llvm::Expected<SweepRef> requireSweep(ResultStore &store,
                                      llvm::StringRef selector,
                                      llvm::StringRef databasePath);

/// Jobs in submission order (models in spec order, then variants).
llvm::Expected<std::vector<JobRecord>> loadSweepJobs(ResultStore &store,
                                                     int64_t sweepId);

enum class Dimension { Model, Variant };
std::optional<Dimension> parseDimension(llvm::StringRef name);

struct PivotRequest {
  const Metric *metric = &Metric::byDefault();
  Dimension rows = Dimension::Model;
  /// A variant name; cells then relate to that variant's cell.
  std::optional<std::string> baseline;
};

/// How a latency cell was compared with its baseline, as exports name it:
/// timed in the same rounds (a COMPARE job), or in separate RUN jobs (the
/// U test).
inline constexpr llvm::StringLiteral kPairedMethod = "paired";
inline constexpr llvm::StringLiteral kUnpairedMethod = "u-test";

/// A variant's latency from a COMPARE job: timed against the comparison's
/// baseline in the same rounds.
struct PairedCell {
  std::string baseline;
  /// Absent for the baseline itself and for identical variants.
  std::optional<results::PairedRatio> ratio;
  /// The comparison's verdict, judged again against the host's stored noise
  /// floor when the comparison measured none of its own.
  std::string verdict;
  std::optional<std::string> identicalTo;
};

struct PivotCell {
  enum class Kind { Value, Failed, Unfinished, Missing };
  Kind kind = Kind::Missing;
  double value = 0;
  /// Failure class or job state for non-values.
  std::string note;
  /// With a baseline: value / baseline (absent when the baseline cell has no
  /// value or is 0 while this one is not) and value - baseline.
  std::optional<double> ratio, difference;
  bool isBaseline = false;
  /// Latency only: the raw samples, and with a baseline the U test and
  /// interval against the baseline cell's.
  std::vector<double> samples;
  std::optional<LatencyComparison> comparison;
  /// Latency from a COMPARE job, instead of `comparison`.
  std::optional<PairedCell> paired;
};

/// A geometric mean over the models of one variant: of the ratios with a
/// baseline, else of the values. Zeros and missing cells are left out and
/// counted.
struct Summary {
  std::optional<double> geomean;
  int used = 0, total = 0;
  /// Latency against a baseline, non-baseline variants: the bootstrap
  /// interval of the geomean over the cells it uses (geomeanRatioInterval);
  /// absent unless every such cell has at least 2 samples on both sides.
  std::optional<Interval> interval;
  bool significant() const {
    return interval && (interval->low > 1 || interval->high < 1);
  }
};

struct Pivot {
  SweepRef sweep;
  PivotRequest request;
  std::vector<std::string> models, variants;
  /// cells[model][variant], whatever the display orientation.
  std::vector<std::vector<PivotCell>> cells;
  /// One per variant.
  std::vector<Summary> summaries;
  /// Caveats for the reader, printed under the table.
  std::vector<std::string> notes;
};

/// Arranges `jobs`; an unknown baseline is an error naming the variants.
llvm::Expected<Pivot> buildPivot(const SweepRef &sweep,
                                 const std::vector<JobRecord> &jobs,
                                 const PivotRequest &request);

/// Whether any cell of `pivot` is a paired latency cell.
bool hasPairedCells(const Pivot &pivot);

/// The name of the baseline the paired cells of `pivot` were timed against
/// (the first one's); nothing without paired cells.
std::optional<std::string> pairedBaseline(const Pivot &pivot);

/// Geometric mean of the positive values; nullopt if there are none.
std::optional<double> geometricMean(const std::vector<double> &values);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_REPORTQUERIES_H

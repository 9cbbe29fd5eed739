//===- Metrics.h - what a report can pivot on --------------------*- C++
//-*-===//
//
// One table defines every metric `report` knows: its --metric spelling, its
// unit, how its values compare and how it is read from a job. A new metric
// is one row of that table (Metrics.cpp); parsing, naming, formatting and
// `report --help` all read it.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_METRICS_H
#define DISPATCHLAB_RESULTS_METRICS_H

#include "results/JobRecord.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dispatchlab {

struct Metric {
  /// The --metric spelling.
  llvm::StringLiteral name;
  /// What one unit is: "bytes", "s", "ms"; empty for a plain count.
  llvm::StringLiteral unit;
  /// Its column in CSV and field in JSON exports: the unit in the name
  /// ("compile_seconds", "latency_median_ms"), so a loaded column says it.
  llvm::StringLiteral column;
  /// Integral values: a signed difference goes beside the ratio.
  bool isCount;
  /// Repeated timings: cells keep the samples, compare by U test and
  /// interval, and print as durations.
  bool isSampled;
  /// The value of a job with a result, if it has one.
  std::optional<double> (*extract)(const Metric &metric, const JobRecord &job);

  std::optional<double> valueOf(const JobRecord &job) const {
    return extract(*this, job);
  }

  bool operator==(const Metric &other) const { return this == &other; }
  bool operator!=(const Metric &other) const { return this != &other; }

  /// Every metric, in the order `--help` lists them.
  static llvm::ArrayRef<Metric> all();
  static const Metric *find(llvm::StringRef name);
  /// What `report` shows without --metric: the dispatch count.
  static const Metric &byDefault();
  /// "dispatches, executables, transient_bytes (bytes), ..." for --help.
  static llvm::StringRef describeAll();
};

/// The export columns beside a metric's own (see Metric::column): named
/// here once, for CSV headers, JSON fields and the units object alike.
struct ExportField {
  llvm::StringLiteral name;
  /// "1" for a ratio, "" for text or a count.
  llvm::StringLiteral unit;
};
namespace export_fields {
inline constexpr ExportField kModel{"model", ""};
inline constexpr ExportField kVariant{"variant", ""};
/// done, failed, pending, running or missing.
inline constexpr ExportField kState{"state", ""};
/// The failure class of a failed cell.
inline constexpr ExportField kFailure{"failure", ""};
/// Value / baseline value.
inline constexpr ExportField kRatio{"ratio", "1"};
/// Value - baseline value, in the metric's unit (counts only).
inline constexpr ExportField kDifference{"difference", ""};
/// Raw latency samples behind the median.
inline constexpr ExportField kSamples{"samples", ""};
/// The 95% confidence interval of the ratio.
inline constexpr ExportField kCiLow{"ci_low", "1"};
inline constexpr ExportField kCiHigh{"ci_high", "1"};
/// Two-sided Mann-Whitney U test against the baseline's samples.
inline constexpr ExportField kPValue{"p_value", "1"};
inline constexpr ExportField kSignificant{"significant", ""};
/// How a latency cell was compared: "paired" (a COMPARE job's rounds) or
/// "u-test" (separate RUN jobs); see ReportQueries.h.
inline constexpr ExportField kMethod{"method", ""};
/// A paired cell's verdict: "faster", "slower", "within noise", "no
/// significant difference", "identical" or "baseline".
inline constexpr ExportField kVerdict{"verdict", ""};
} // namespace export_fields

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_METRICS_H

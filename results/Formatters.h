//===- Formatters.h - tables as text, markdown, CSV, JSON, HTML -*- C++ -*-===//
//
// Everything the report commands print goes through here: a TextGrid (rows
// of strings) for plain tables, and a Pivot in any output format. The HTML
// page is self-contained (inline script and SVG, nothing fetched).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_FORMATTERS_H
#define DISPATCHLAB_RESULTS_FORMATTERS_H

#include "results/ReportQueries.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

enum class OutputFormat { Table, Markdown, Csv, Json, Html };

std::optional<OutputFormat> parseOutputFormat(llvm::StringRef name);

struct TextGrid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// Right-aligned columns (numbers) in the aligned-text format.
  std::vector<bool> numeric;
};

/// Prints `grid` as aligned text, Markdown or CSV (other formats: text).
void printGrid(const TextGrid &grid, OutputFormat format,
               llvm::raw_ostream &os);

/// Unix seconds as "2026-12-01 18:09:13 UTC".
std::string formatUtcTime(double seconds);

/// Three significant digits in the unit that fits: "1.53 us", "152 ms".
std::string formatDuration(double ms);

/// A coefficient of variation (stddev / mean) as a percentage: "2.1%".
std::string formatCoefficientOfVariation(double cv);

/// A run's latency in a line: "8.88 us median of 20 repetitions, cv 2.1%".
std::string describeLatency(const results::Latency &latency);

/// One cell as shown in tables: "300", "0.83x (-51)", "timeout", ...
std::string formatPivotCell(const PivotCell &cell, const Metric &metric,
                            bool relative);

/// A latency ratio against a baseline: "1.52x [1.40, 1.66] p=0.002" (with
/// the confidence interval) when the U test finds a difference, "not
/// significant (p=0.41)" when it does not (that ratio is noise), and
/// "1.52x (no samples)" when there are no raw samples to test.
std::string formatLatencyRatio(std::optional<double> ratioOfMedians,
                               const LatencyComparison *comparison);

/// A paired ratio with its verdict: "0.996x [0.989, 1.008] p=0.950 within
/// noise".
std::string formatPairedRatio(const results::PairedRatio &ratio,
                              llvm::StringRef verdict);

/// A compared variant against its comparison's baseline: "baseline",
/// "identical to nf" or its paired ratio with the verdict.
std::string formatComparedVariant(const results::ComparedVariant &variant);

/// The pivot as displayed: models or variants down the side, the geometric
/// mean as the last row (models down) or column (variants down); for latency
/// against a baseline with its interval, like the cells ("0.75x [0.73,
/// 0.77]", "not significant" after it when the interval holds 1).
TextGrid pivotGrid(const Pivot &pivot);

/// "sweep NAME (#ID): METRIC relative to ...": what a pivot shows.
std::string pivotCaption(const Pivot &pivot);

/// `text` with HTML's special characters escaped.
std::string htmlEscape(llvm::StringRef text);

/// Table, Markdown and HTML are for people (formatted cells, units in the
/// text); CSV and JSON are the typed exports of Exports.h. `dispatches`,
/// the same sweep's dispatch counts, adds their chart to an HTML page, and
/// `jobs`, the pivot's jobs, its provenance, dispatch groups and graphs
/// (other formats ignore both; see HtmlReport.h).
void printPivot(const Pivot &pivot, OutputFormat format, llvm::raw_ostream &os,
                const Pivot *dispatches = nullptr,
                llvm::ArrayRef<JobRecord> jobs = {});

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_FORMATTERS_H

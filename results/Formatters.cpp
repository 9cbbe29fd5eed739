//===- Formatters.cpp - tables as text, markdown, CSV, JSON, HTML ---------===//

#include "results/Formatters.h"

#include "results/Csv.h"
#include "results/Exports.h"
#include "results/HtmlReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iterator>

namespace dispatchlab {

std::optional<OutputFormat> parseOutputFormat(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<OutputFormat>>(name)
      .Case("table", OutputFormat::Table)
      .Case("md", OutputFormat::Markdown)
      .Case("csv", OutputFormat::Csv)
      .Case("json", OutputFormat::Json)
      .Case("html", OutputFormat::Html)
      .Default(std::nullopt);
}

static std::string markdownField(llvm::StringRef text) {
  std::string escaped;
  for (char c : text)
    escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

void printGrid(const TextGrid &grid, OutputFormat format,
               llvm::raw_ostream &os) {
  auto printRow = [&](const std::vector<std::string> &row,
                      llvm::function_ref<std::string(llvm::StringRef)> field,
                      llvm::StringRef separator, llvm::StringRef prefix,
                      llvm::StringRef suffix) {
    os << prefix;
    for (size_t i = 0; i < row.size(); ++i)
      os << (i ? separator : "") << field(row[i]);
    os << suffix << "\n";
  };
  if (format == OutputFormat::Csv) {
    printRow(grid.header, csvField, ",", "", "");
    for (const auto &row : grid.rows)
      printRow(row, csvField, ",", "", "");
    return;
  }
  if (format == OutputFormat::Markdown) {
    printRow(grid.header, markdownField, " | ", "| ", " |");
    os << "|";
    for (size_t i = 0; i < grid.header.size(); ++i)
      os << (i < grid.numeric.size() && grid.numeric[i] ? "---:|" : "---|");
    os << "\n";
    for (const auto &row : grid.rows)
      printRow(row, markdownField, " | ", "| ", " |");
    return;
  }
  std::vector<size_t> widths(grid.header.size());
  auto measure = [&](const std::vector<std::string> &row) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  };
  measure(grid.header);
  for (const auto &row : grid.rows)
    measure(row);
  auto printAligned = [&](const std::vector<std::string> &row) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      std::string padding(widths[i] - row[i].size(), ' ');
      bool right = i < grid.numeric.size() && grid.numeric[i];
      line += right ? padding + row[i] : row[i] + padding;
      if (i + 1 < row.size())
        line += "  ";
    }
    os << llvm::StringRef(line).rtrim() << "\n";
  };
  printAligned(grid.header);
  for (const auto &row : grid.rows)
    printAligned(row);
}

std::string formatUtcTime(double seconds) {
  std::time_t time = static_cast<std::time_t>(seconds);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M:%S UTC",
                std::gmtime(&time));
  return buffer;
}

std::string formatDuration(double ms) {
  static const struct {
    double scale;
    const char *unit;
  } kUnits[] = {{1e6, "ns"}, {1e3, "us"}, {1, "ms"}, {1e-3, "s"}};
  size_t u = 0;
  while (u + 1 < std::size(kUnits) && std::abs(ms * kUnits[u].scale) >= 1000)
    ++u;
  double value = ms * kUnits[u].scale;
  const char *style = std::abs(value) >= 100  ? "{0:F0} {1}"
                      : std::abs(value) >= 10 ? "{0:F1} {1}"
                                              : "{0:F2} {1}";
  return llvm::formatv(style, value, kUnits[u].unit).str();
}

std::string formatCoefficientOfVariation(double cv) {
  return llvm::formatv("{0:F1}%", cv * 100).str();
}

std::string describeLatency(const results::Latency &latency) {
  return llvm::formatv("{0} median of {1} repetitions, cv {2}",
                       formatDuration(latency.median_ms()),
                       latency.repetitions(),
                       formatCoefficientOfVariation(latency.cv()))
      .str();
}

static std::string formatNumber(double value, const Metric &metric) {
  if (metric.isSampled)
    return formatDuration(value);
  if (metric.isCount && value == std::floor(value))
    return llvm::formatv("{0}", static_cast<int64_t>(value)).str();
  return llvm::formatv("{0:F3}", value).str();
}

static std::string formatRatio(double ratio) {
  return llvm::formatv("{0:F2}x", ratio).str();
}

static std::string formatPValue(double p) {
  return p < 0.001 ? std::string("p<0.001")
                   : llvm::formatv("p={0:F3}", p).str();
}

/// "0.75x [0.73, 0.77]": enough digits that a narrow interval does not
/// print as "[1.00, 1.00]", two when no number of digits up to four tells
/// its ends apart (a degenerate interval). "n/a" for an absent ratio.
static std::string formatRatioInterval(std::optional<double> ratio,
                                       const Interval &interval) {
  auto differ = [&](int d) {
    double scale = std::pow(10.0, d);
    return std::round(interval.low * scale) !=
           std::round(interval.high * scale);
  };
  int digits = 2;
  while (digits < 4 && !differ(digits))
    ++digits;
  if (!differ(digits))
    digits = 2;
  std::string style = "{0:F" + std::to_string(digits) + "}";
  auto fixed = [&](double value) {
    return llvm::formatv(style.c_str(), value).str();
  };
  return (ratio ? fixed(*ratio) + "x" : std::string("n/a")) + " [" +
         fixed(interval.low) + ", " + fixed(interval.high) + "]";
}

std::string formatLatencyRatio(std::optional<double> ratioOfMedians,
                               const LatencyComparison *comparison) {
  std::string ratio =
      ratioOfMedians ? formatRatio(*ratioOfMedians) : std::string("n/a");
  if (!comparison || !comparison->test)
    return ratio + " (no samples)";
  if (!comparison->significant())
    return "not significant (" + formatPValue(comparison->test->pValue) + ")";
  if (!comparison->interval)
    return ratio + " " + formatPValue(comparison->test->pValue);
  return formatRatioInterval(ratioOfMedians, *comparison->interval) + " " +
         formatPValue(comparison->test->pValue);
}

std::string formatPairedRatio(const results::PairedRatio &ratio,
                              llvm::StringRef verdict) {
  return formatRatioInterval(ratio.median(),
                             Interval{ratio.ci_low(), ratio.ci_high()}) +
         " " + formatPValue(ratio.p_value()) + " " + verdict.str();
}

std::string formatComparedVariant(const results::ComparedVariant &variant) {
  if (variant.has_identical_to())
    return "identical to " + variant.identical_to();
  if (variant.has_ratio())
    return formatPairedRatio(variant.ratio(), variant.verdict());
  return "baseline";
}

/// "0.996x [0.989, 1.008] p=0.950 within noise (paired)": always against
/// the comparison's own baseline.
static std::string formatPairedCell(const PivotCell &cell) {
  const PairedCell &paired = *cell.paired;
  if (paired.identicalTo)
    return "identical to " + *paired.identicalTo + " (paired)";
  if (!paired.ratio)
    return formatDuration(cell.value) + " (paired baseline)";
  return formatPairedRatio(*paired.ratio, paired.verdict) + " (paired)";
}

std::string formatPivotCell(const PivotCell &cell, const Metric &metric,
                            bool relative) {
  switch (cell.kind) {
  case PivotCell::Kind::Missing:
    return "-";
  case PivotCell::Kind::Failed:
  case PivotCell::Kind::Unfinished:
    return cell.note;
  case PivotCell::Kind::Value:
    break;
  }
  if (cell.paired && metric.isSampled)
    return formatPairedCell(cell);
  std::string value = formatNumber(cell.value, metric);
  if (!relative || cell.isBaseline)
    return value;
  if (!cell.difference)
    return value + " (no baseline)";
  if (metric.isSampled)
    return formatLatencyRatio(cell.ratio,
                              cell.comparison ? &*cell.comparison : nullptr);
  std::string difference;
  if (metric.isCount)
    difference = llvm::formatv(" ({0}{1})", *cell.difference >= 0 ? "+" : "",
                               formatNumber(*cell.difference, metric))
                     .str();
  return (cell.ratio ? formatRatio(*cell.ratio) : std::string("n/a")) +
         difference;
}

static std::string formatSummary(const Summary &summary, const Metric &metric,
                                 bool relative) {
  if (!summary.geomean)
    return "-";
  std::string text =
      summary.interval ? formatRatioInterval(summary.geomean, *summary.interval)
      : relative       ? formatRatio(*summary.geomean)
      : metric.isSampled ? formatDuration(*summary.geomean)
                         : llvm::formatv("{0:F2}", *summary.geomean).str();
  // Unlike a cell's, the ratio stays: there is no p-value to show instead.
  if (summary.interval && !summary.significant())
    text += " not significant";
  if (summary.used < summary.total)
    text += llvm::formatv(" ({0} of {1})", summary.used, summary.total).str();
  return text;
}

TextGrid pivotGrid(const Pivot &pivot) {
  bool relative = pivot.request.baseline.has_value();
  const Metric &metric = *pivot.request.metric;
  TextGrid grid;
  auto variantName = [&](size_t v) {
    return pivot.variants[v] +
           (relative && pivot.variants[v] == *pivot.request.baseline
                ? " (baseline)"
                : "");
  };
  if (pivot.request.rows == Dimension::Model) {
    grid.header.push_back("model");
    for (size_t v = 0; v < pivot.variants.size(); ++v)
      grid.header.push_back(variantName(v));
    for (size_t m = 0; m < pivot.models.size(); ++m) {
      std::vector<std::string> row = {pivot.models[m]};
      for (const PivotCell &cell : pivot.cells[m])
        row.push_back(formatPivotCell(cell, metric, relative));
      grid.rows.push_back(std::move(row));
    }
    std::vector<std::string> geomean = {"geomean"};
    for (const Summary &summary : pivot.summaries)
      geomean.push_back(formatSummary(summary, metric, relative));
    grid.rows.push_back(std::move(geomean));
  } else {
    grid.header.push_back("variant");
    grid.header.insert(grid.header.end(), pivot.models.begin(),
                       pivot.models.end());
    grid.header.push_back("geomean");
    for (size_t v = 0; v < pivot.variants.size(); ++v) {
      std::vector<std::string> row = {variantName(v)};
      for (size_t m = 0; m < pivot.models.size(); ++m)
        row.push_back(formatPivotCell(pivot.cells[m][v], metric, relative));
      row.push_back(formatSummary(pivot.summaries[v], metric, relative));
      grid.rows.push_back(std::move(row));
    }
  }
  grid.numeric.assign(grid.header.size(), true);
  grid.numeric[0] = false;
  return grid;
}

std::string pivotCaption(const Pivot &pivot) {
  std::string text = llvm::formatv("sweep {0} (#{1}): {2}", pivot.sweep.name,
                                   pivot.sweep.id, pivot.request.metric->name)
                         .str();
  if (pivot.request.baseline)
    text += " relative to " + *pivot.request.baseline +
            (pivot.request.metric->isCount ? " (ratio and difference)"
                                           : " (ratio)");
  return text + "; geomean over models";
}

std::string htmlEscape(llvm::StringRef text) {
  std::string escaped;
  llvm::raw_string_ostream os(escaped);
  llvm::printHTMLEscaped(text, os);
  return escaped;
}

void printPivot(const Pivot &pivot, OutputFormat format, llvm::raw_ostream &os,
                const Pivot *dispatches, llvm::ArrayRef<JobRecord> jobs) {
  switch (format) {
  case OutputFormat::Json:
    os << llvm::formatv("{0:2}", pivotJson(pivot)) << "\n";
    return;
  case OutputFormat::Html:
    printHtmlReport(pivot, HtmlReportInputs{dispatches, jobs}, os);
    return;
  case OutputFormat::Csv:
    printTypedCsv(pivotTable(pivot), os);
    return;
  case OutputFormat::Table:
  case OutputFormat::Markdown:
    os << (format == OutputFormat::Markdown ? "**" : "") << pivotCaption(pivot)
       << (format == OutputFormat::Markdown ? "**\n" : "") << "\n";
    printGrid(pivotGrid(pivot), format, os);
    if (!pivot.notes.empty() && format == OutputFormat::Markdown)
      os << "\n";
    for (const std::string &note : pivot.notes)
      os << (format == OutputFormat::Markdown ? "- " : "") << note << "\n";
    return;
  }
}

} // namespace dispatchlab

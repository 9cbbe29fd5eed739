//===- Formatters.cpp - tables as text, markdown, CSV, JSON, HTML ---------===//

#include "results/Formatters.h"

#include "results/Csv.h"
#include "results/Exports.h"

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

static std::string caption(const Pivot &pivot) {
  std::string text = llvm::formatv("sweep {0} (#{1}): {2}", pivot.sweep.name,
                                   pivot.sweep.id, pivot.request.metric->name)
                         .str();
  if (pivot.request.baseline)
    text += " relative to " + *pivot.request.baseline +
            (pivot.request.metric->isCount ? " (ratio and difference)"
                                           : " (ratio)");
  return text + "; geomean over models";
}

/// HTML text of `text` as a string, for formatv arguments.
static std::string htmlEscape(llvm::StringRef text) {
  std::string escaped;
  llvm::raw_string_ostream os(escaped);
  llvm::printHTMLEscaped(text, os);
  return escaped;
}

static const char *kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

/// Room for the model names left of the bars: about 6 px per character at
/// font-size 11, within limits so a long path does not squeeze the plot.
static int chartLabelWidth(const Pivot &pivot) {
  size_t longest = 0;
  for (const std::string &model : pivot.models)
    longest = std::max(longest, model.size());
  return std::clamp(static_cast<int>(longest) * 6 + 12, 120, 420);
}

/// Horizontal bars, one group per model and one bar per variant, each group
/// scaled to its own largest value: models differ by orders of magnitude,
/// and the point is how the variants compare within a model.
static void printBarChart(const Pivot &pivot, llvm::raw_ostream &os) {
  const int labelWidth = chartLabelWidth(pivot), barWidth = 400, barHeight = 14,
            gap = 10;
  size_t variants = pivot.variants.size();
  int groupHeight = static_cast<int>(variants) * barHeight + gap;
  int legendHeight = 20 * static_cast<int>(variants) + 10;
  int height =
      legendHeight + groupHeight * static_cast<int>(pivot.models.size());
  int width = labelWidth + barWidth + 160;
  // Inline SVG in HTML needs no namespace: the page references no URL.
  os << llvm::formatv("<svg class=\"chart bars\" width=\"{0}\" height=\"{1}\" "
                      "font-family=\"sans-serif\" font-size=\"11\">\n",
                      width, height);
  for (size_t v = 0; v < variants; ++v)
    os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"12\" height=\"12\" "
                        "fill=\"{2}\"/><text x=\"{3}\" y=\"{4}\">{5}</text>\n",
                        labelWidth, 20 * v, kColors[v % 8], labelWidth + 16,
                        20 * v + 10, htmlEscape(pivot.variants[v]));
  for (size_t m = 0; m < pivot.models.size(); ++m) {
    int top = legendHeight + groupHeight * static_cast<int>(m);
    double largest = 0;
    for (const PivotCell &cell : pivot.cells[m])
      if (cell.kind == PivotCell::Kind::Value)
        largest = std::max(largest, cell.value);
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2}"
                        "</text>\n",
                        labelWidth - 6, top + barHeight,
                        htmlEscape(pivot.models[m]));
    for (size_t v = 0; v < variants; ++v) {
      const PivotCell &cell = pivot.cells[m][v];
      int y = top + barHeight * static_cast<int>(v);
      if (cell.kind != PivotCell::Kind::Value) {
        os << llvm::formatv(
            "<text x=\"{0}\" y=\"{1}\" fill=\"#b00\">{2}"
            "</text>\n",
            labelWidth + 2, y + barHeight - 3,
            htmlEscape(formatPivotCell(cell, *pivot.request.metric, false)));
        continue;
      }
      int length =
          largest > 0
              ? static_cast<int>(std::lround(barWidth * cell.value / largest))
              : 0;
      os << llvm::formatv(
          "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
          "fill=\"{4}\"><title>{5} / {6}: {7}</title></rect>"
          "<text x=\"{8}\" y=\"{9}\">{7}</text>\n",
          labelWidth, y, length, barHeight - 2, kColors[v % 8],
          htmlEscape(pivot.models[m]), htmlEscape(pivot.variants[v]),
          formatPivotCell(cell, *pivot.request.metric, false),
          labelWidth + length + 4, y + barHeight - 3);
    }
  }
  os << "</svg>\n";
}

/// Latency relative to the baseline as speedup (baseline / variant median,
/// > 1 is faster), one bar per model and variant on one linear scale with
/// the 1x line drawn, error bars from the confidence interval (inverted like
/// the ratio), and bars the U test cannot tell from 1x drawn pale.
static void printSpeedupChart(const Pivot &pivot, llvm::raw_ostream &os) {
  const int labelWidth = chartLabelWidth(pivot), plotWidth = 400,
            barHeight = 16, gap = 10;
  size_t baseline = llvm::find(pivot.variants, *pivot.request.baseline) -
                    pivot.variants.begin();
  std::vector<size_t> shown;
  for (size_t v = 0; v < pivot.variants.size(); ++v)
    if (v != baseline)
      shown.push_back(v);
  double largest = 1;
  for (const std::vector<PivotCell> &row : pivot.cells)
    for (size_t v : shown) {
      const PivotCell &cell = row[v];
      if (cell.kind != PivotCell::Kind::Value || !cell.ratio ||
          *cell.ratio <= 0)
        continue;
      largest = std::max(largest, 1 / *cell.ratio);
      if (cell.comparison && cell.comparison->interval)
        largest = std::max(largest, 1 / cell.comparison->interval->low);
    }
  largest *= 1.1;
  auto x = [&](double speedup) {
    return labelWidth + plotWidth * std::min(speedup, largest) / largest;
  };
  int legendHeight = 20 * static_cast<int>(shown.size()) + 10;
  int groupHeight = static_cast<int>(shown.size()) * barHeight + gap;
  int height =
      legendHeight + groupHeight * static_cast<int>(pivot.models.size()) + 20;
  os << llvm::formatv(
      "<svg class=\"chart speedup\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n",
      labelWidth + plotWidth + 200, height);
  for (size_t i = 0; i < shown.size(); ++i)
    os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"12\" height=\"12\" "
                        "fill=\"{2}\"/><text x=\"{3}\" y=\"{4}\">{5}</text>\n",
                        labelWidth, 20 * i, kColors[shown[i] % 8],
                        labelWidth + 16, 20 * i + 10,
                        htmlEscape(pivot.variants[shown[i]]));
  for (size_t m = 0; m < pivot.models.size(); ++m) {
    int top = legendHeight + groupHeight * static_cast<int>(m);
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2}"
                        "</text>\n",
                        labelWidth - 6, top + barHeight,
                        htmlEscape(pivot.models[m]));
    for (size_t i = 0; i < shown.size(); ++i) {
      const PivotCell &cell = pivot.cells[m][shown[i]];
      int y = top + barHeight * static_cast<int>(i);
      std::string text = formatPivotCell(cell, *pivot.request.metric, true);
      if (cell.kind != PivotCell::Kind::Value || !cell.ratio ||
          *cell.ratio <= 0) {
        os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" fill=\"#b00\">{2}"
                            "</text>\n",
                            labelWidth + 2, y + barHeight - 4,
                            htmlEscape(text));
        continue;
      }
      double speedup = 1 / *cell.ratio;
      bool significant = cell.comparison && cell.comparison->significant();
      os << llvm::formatv(
          "<rect class=\"bar\" x=\"{0}\" y=\"{1}\" width=\"{2:F1}\" "
          "height=\"{3}\" fill=\"{4}\" fill-opacity=\"{5}\"><title>{6} / "
          "{7}: {8:F2}x speedup ({9})</title></rect>\n",
          labelWidth, y, x(speedup) - labelWidth, barHeight - 3,
          kColors[shown[i] % 8], significant ? "1" : "0.35",
          htmlEscape(pivot.models[m]), htmlEscape(pivot.variants[shown[i]]),
          speedup, htmlEscape(text));
      double right = x(speedup);
      if (cell.comparison && cell.comparison->interval) {
        double low = x(1 / cell.comparison->interval->high);
        double high = x(1 / cell.comparison->interval->low);
        double middle = y + (barHeight - 3) / 2.0;
        os << llvm::formatv(
            "<path class=\"error-bar\" d=\"M{0:F1},{1:F1}H{2:F1}M{0:F1},{3:F1}"
            "V{4:F1}M{2:F1},{3:F1}V{4:F1}\" stroke=\"#222\"/>\n",
            low, middle, high, middle - 4, middle + 4);
        right = std::max(right, high);
      }
      os << llvm::formatv("<text x=\"{0:F1}\" y=\"{1}\">{2:F2}x{3}</text>\n",
                          right + 4, y + barHeight - 4, speedup,
                          significant ? "" : " (not significant)");
    }
  }
  int axisBottom = height - 14;
  os << llvm::formatv(
      "<line x1=\"{0:F1}\" y1=\"{1}\" x2=\"{0:F1}\" y2=\"{2}\" "
      "stroke=\"#888\" stroke-dasharray=\"4 3\"/><text x=\"{0:F1}\" "
      "y=\"{3}\" text-anchor=\"middle\">1x = {4}</text>\n",
      x(1), legendHeight - 6, axisBottom, height - 2,
      htmlEscape(pivot.variants[baseline]));
  os << "</svg>\n";
}

/// Click a header to sort by it; cells carry their number in data-v so
/// "0.83x (-51)" sorts as 0.83 and failures sort last either way. "#sort=N"
/// (column N from 0, "-desc" for descending) in the URL sorts on load, so a
/// sorted view can be linked; data-sort-ready shows the script ran.
static const char *kSortScript = R"(<script>
document.querySelectorAll("table.sortable").forEach(function (table) {
 table.querySelectorAll("thead th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var up = th.dataset.dir !== "asc";
    table.querySelectorAll("th").forEach(function (h) { delete h.dataset.dir; });
    th.dataset.dir = up ? "asc" : "desc";
    var rows = Array.from(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col];
      var nx = parseFloat(x.dataset.v), ny = parseFloat(y.dataset.v);
      var unsorted = isNaN(nx) - isNaN(ny);
      if (unsorted) return unsorted;
      var r = isNaN(nx) ? x.textContent.localeCompare(y.textContent) : nx - ny;
      return up ? r : -r;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
 });
 table.dataset.sortReady = "true";
});
var sortBy = /^#sort=(\d+)(-desc)?$/.exec(location.hash);
if (sortBy) {
  var th = document.querySelectorAll("table.sortable thead th")[sortBy[1]];
  if (th) { th.click(); if (sortBy[2]) th.click(); }
}
</script>
)";

static void printHtml(const Pivot &pivot, const Pivot *dispatches,
                      llvm::raw_ostream &os) {
  TextGrid grid = pivotGrid(pivot);
  bool relative = pivot.request.baseline.has_value();
  bool modelsDown = pivot.request.rows == Dimension::Model;
  // The pivot cell behind a grid cell; none for labels and summaries.
  auto cellAt = [&](size_t row, size_t column) -> const PivotCell * {
    size_t m = modelsDown ? row : column - 1, v = modelsDown ? column - 1 : row;
    if (column == 0 || m >= pivot.models.size() || v >= pivot.variants.size())
      return nullptr;
    return &pivot.cells[m][v];
  };
  // The number a cell sorts by: its ratio when relative, else its value.
  auto sortKey = [&](size_t row, size_t column) -> std::optional<double> {
    const PivotCell *found = cellAt(row, column);
    if (!found || found->kind != PivotCell::Kind::Value)
      return std::nullopt;
    const PivotCell &cell = *found;
    // A column of baseline cells sorts by value; where baseline and variant
    // cells share a column (variants down), all sort by ratio.
    if (relative && (!cell.isBaseline || !modelsDown))
      return cell.ratio;
    return cell.value;
  };
  std::string title = htmlEscape(caption(pivot));
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << title
     << "</title>\n<style>\nbody{font-family:sans-serif;margin:2em}\n"
        "table{border-collapse:collapse}\n"
        "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
        "th{cursor:pointer;background:#eee}\n"
        "td:first-child,th:first-child{text-align:left}\n"
        "tfoot td{font-weight:bold}\n"
        "th[data-dir=asc]::after{content:\" \\25B2\"}\n"
        "th[data-dir=desc]::after{content:\" \\25BC\"}\n"
        "</style></head><body>\n<h1>"
     << title << "</h1>\n<table class=\"sortable\">\n<thead><tr>";
  for (const std::string &name : grid.header)
    os << "<th>" << htmlEscape(name) << "</th>";
  os << "</tr></thead>\n<tbody>\n";
  // The geomean row stays put below the sortable rows.
  size_t sortable = modelsDown ? grid.rows.size() - 1 : grid.rows.size();
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    if (r == sortable)
      os << "</tbody>\n<tfoot>\n";
    os << "<tr>";
    for (size_t c = 0; c < grid.rows[r].size(); ++c) {
      os << "<td";
      if (r < sortable && c > 0)
        if (std::optional<double> key = sortKey(r, c))
          os << " data-v=\"" << llvm::formatv("{0:E9}", *key) << "\"";
      // "not significant" hides the numbers in the cell, not from a reader
      // who hovers.
      const PivotCell *cell = r < sortable ? cellAt(r, c) : nullptr;
      if (cell && cell->ratio && cell->comparison && cell->comparison->test) {
        const LatencyComparison &comparison = *cell->comparison;
        std::string interval = "none (too few samples)";
        if (comparison.interval)
          interval = llvm::formatv("[{0:F4}, {1:F4}]", comparison.interval->low,
                                   comparison.interval->high);
        os << llvm::formatv(
            " title=\"ratio of medians {0:F4}x; {1:F0}% interval {2}; p={3:E2} "
            "({4}); {5} vs {6} samples\"",
            *cell->ratio, 100 * (1 - kSignificanceAlpha), interval,
            comparison.test->pValue,
            comparison.test->exact ? "exact" : "normal approximation",
            comparison.samples, comparison.baselineSamples);
      }
      os << ">" << htmlEscape(grid.rows[r][c]) << "</td>";
    }
    os << "</tr>\n";
  }
  os << (sortable == grid.rows.size() ? "</tbody>\n" : "</tfoot>\n")
     << "</table>\n";
  for (const std::string &note : pivot.notes)
    os << "<p class=\"note\">" << htmlEscape(note) << "</p>\n";
  if (relative && pivot.request.metric->isSampled) {
    os << "<h2>latency speedup over " << htmlEscape(*pivot.request.baseline)
       << " (baseline / variant median; error bars: "
       << llvm::formatv("{0:F0}", 100 * (1 - kSignificanceAlpha))
       << "% confidence interval; pale: not significant)</h2>\n";
    printSpeedupChart(pivot, os);
  } else {
    os << "<h2>" << htmlEscape(pivot.request.metric->name)
       << " per model and variant (bars scaled per model)</h2>\n";
    printBarChart(pivot, os);
  }
  if (dispatches) {
    os << "<h2>dispatches per model and variant (bars scaled per "
          "model)</h2>\n";
    printBarChart(*dispatches, os);
  }
  os << kSortScript << "</body></html>\n";
}

void printPivot(const Pivot &pivot, OutputFormat format, llvm::raw_ostream &os,
                const Pivot *dispatches) {
  switch (format) {
  case OutputFormat::Json:
    os << llvm::formatv("{0:2}", pivotJson(pivot)) << "\n";
    return;
  case OutputFormat::Html:
    printHtml(pivot, dispatches, os);
    return;
  case OutputFormat::Csv:
    printTypedCsv(pivotTable(pivot), os);
    return;
  case OutputFormat::Table:
  case OutputFormat::Markdown:
    os << (format == OutputFormat::Markdown ? "**" : "") << caption(pivot)
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

//===- HtmlCharts.cpp - the HTML report's SVG charts ----------------------===//

#include "results/HtmlCharts.h"

#include "results/Formatters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

namespace dispatchlab {

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
void printBarChart(const Pivot &pivot, llvm::raw_ostream &os) {
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

namespace {
/// Where the speedup chart draws: the x of a speedup, on one linear scale
/// up to a little past the largest speedup or interval end.
struct SpeedupScale {
  static constexpr int kPlotWidth = 400, kBarHeight = 16;
  int labelWidth = 0;
  double largest = 1;
  double x(double speedup) const {
    return labelWidth + kPlotWidth * std::min(speedup, largest) / largest;
  }
};
} // namespace

/// A latency cell's interval of its ratio: the paired one of a COMPARE
/// result, else the U test's.
static std::optional<Interval> ratioInterval(const PivotCell &cell) {
  if (cell.paired)
    return cell.paired->ratio
               ? std::optional(Interval{cell.paired->ratio->ci_low(),
                                        cell.paired->ratio->ci_high()})
               : std::nullopt;
  return cell.comparison ? cell.comparison->interval : std::nullopt;
}

/// Drawn solid: a paired verdict of faster or slower, or a significant U
/// test.
static bool isSignificant(const PivotCell &cell) {
  if (cell.paired)
    return cell.paired->verdict == "faster" || cell.paired->verdict == "slower";
  return cell.comparison && cell.comparison->significant();
}

static double largestSpeedup(const Pivot &pivot, llvm::ArrayRef<size_t> shown) {
  double largest = 1;
  for (const std::vector<PivotCell> &row : pivot.cells)
    for (size_t v : shown) {
      const PivotCell &cell = row[v];
      if (cell.kind != PivotCell::Kind::Value || !cell.ratio ||
          *cell.ratio <= 0)
        continue;
      largest = std::max(largest, 1 / *cell.ratio);
      if (std::optional<Interval> interval = ratioInterval(cell))
        largest = std::max(largest, 1 / interval->low);
    }
  return largest * 1.1;
}

/// One model's bar for variant `v` at `y`, with its error bar and label.
static void printSpeedupBar(const Pivot &pivot, size_t m, size_t v, int y,
                            const SpeedupScale &scale, llvm::raw_ostream &os) {
  const int labelWidth = scale.labelWidth, barHeight = SpeedupScale::kBarHeight;
  const PivotCell &cell = pivot.cells[m][v];
  std::string text = formatPivotCell(cell, *pivot.request.metric, true);
  if (cell.kind != PivotCell::Kind::Value || !cell.ratio || *cell.ratio <= 0) {
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" fill=\"#b00\">{2}"
                        "</text>\n",
                        labelWidth + 2, y + barHeight - 4, htmlEscape(text));
    return;
  }
  double speedup = 1 / *cell.ratio;
  bool significant = isSignificant(cell);
  os << llvm::formatv(
      "<rect class=\"bar\" x=\"{0}\" y=\"{1}\" width=\"{2:F1}\" "
      "height=\"{3}\" fill=\"{4}\" fill-opacity=\"{5}\"><title>{6} / "
      "{7}: {8:F2}x speedup ({9})</title></rect>\n",
      labelWidth, y, scale.x(speedup) - labelWidth, barHeight - 3,
      kColors[v % 8], significant ? "1" : "0.35", htmlEscape(pivot.models[m]),
      htmlEscape(pivot.variants[v]), speedup, htmlEscape(text));
  double right = scale.x(speedup);
  if (std::optional<Interval> interval = ratioInterval(cell)) {
    double low = scale.x(1 / interval->high);
    double high = scale.x(1 / interval->low);
    double middle = y + (barHeight - 3) / 2.0;
    os << llvm::formatv(
        "<path class=\"error-bar\" d=\"M{0:F1},{1:F1}H{2:F1}M{0:F1},{3:F1}"
        "V{4:F1}M{2:F1},{3:F1}V{4:F1}\" stroke=\"#222\"/>\n",
        low, middle, high, middle - 4, middle + 4);
    right = std::max(right, high);
  }
  std::string verdict = cell.paired ? " (paired: " + cell.paired->verdict + ")"
                        : significant ? ""
                                      : " (not significant)";
  os << llvm::formatv("<text x=\"{0:F1}\" y=\"{1}\">{2:F2}x{3}</text>\n",
                      right + 4, y + barHeight - 4, speedup,
                      htmlEscape(verdict));
}

/// Latency relative to the baseline as speedup (baseline / variant median,
/// > 1 is faster), one bar per model and variant on one linear scale with
/// the 1x line drawn, error bars from the confidence interval (inverted like
/// the ratio), and bars the U test cannot tell from 1x drawn pale.
void printSpeedupChart(const Pivot &pivot, llvm::raw_ostream &os) {
  const int labelWidth = chartLabelWidth(pivot),
            barHeight = SpeedupScale::kBarHeight, gap = 10;
  // Paired cells are against their comparison's baseline, whatever
  // --baseline says.
  std::string baselineName = pivot.request.baseline
                                 ? *pivot.request.baseline
                                 : pairedBaseline(pivot).value_or("");
  size_t baseline =
      llvm::find(pivot.variants, baselineName) - pivot.variants.begin();
  std::vector<size_t> shown;
  for (size_t v = 0; v < pivot.variants.size(); ++v)
    if (v != baseline)
      shown.push_back(v);
  SpeedupScale scale{labelWidth, largestSpeedup(pivot, shown)};
  int legendHeight = 20 * static_cast<int>(shown.size()) + 10;
  int groupHeight = static_cast<int>(shown.size()) * barHeight + gap;
  int height =
      legendHeight + groupHeight * static_cast<int>(pivot.models.size()) + 20;
  os << llvm::formatv(
      "<svg class=\"chart speedup\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n",
      labelWidth + SpeedupScale::kPlotWidth + 200, height);
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
    for (size_t i = 0; i < shown.size(); ++i)
      printSpeedupBar(pivot, m, shown[i], top + barHeight * static_cast<int>(i),
                      scale, os);
  }
  os << llvm::formatv(
      "<line x1=\"{0:F1}\" y1=\"{1}\" x2=\"{0:F1}\" y2=\"{2}\" "
      "stroke=\"#888\" stroke-dasharray=\"4 3\"/><text x=\"{0:F1}\" "
      "y=\"{3}\" text-anchor=\"middle\">1x = {4}</text>\n",
      scale.x(1), legendHeight - 6, height - 14, height - 2,
      htmlEscape(baselineName));
  os << "</svg>\n";
}

} // namespace dispatchlab

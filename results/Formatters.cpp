//===- Formatters.cpp - tables as text, markdown, CSV, JSON, HTML ---------===//

#include "results/Formatters.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>

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

static std::string csvField(llvm::StringRef text) {
  if (text.find_first_of(",\"\n") == llvm::StringRef::npos)
    return text.str();
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
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

static std::string formatNumber(double value, Metric metric) {
  if (isCountMetric(metric) && value == std::floor(value))
    return llvm::formatv("{0}", static_cast<int64_t>(value)).str();
  return llvm::formatv("{0:F3}", value).str();
}

static std::string formatRatio(double ratio) {
  return llvm::formatv("{0:F2}x", ratio).str();
}

std::string formatPivotCell(const PivotCell &cell, Metric metric,
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
  std::string difference;
  if (isCountMetric(metric))
    difference = llvm::formatv(" ({0}{1})", *cell.difference >= 0 ? "+" : "",
                               formatNumber(*cell.difference, metric))
                     .str();
  return (cell.ratio ? formatRatio(*cell.ratio) : std::string("n/a")) +
         difference;
}

static std::string formatSummary(const Summary &summary, Metric metric,
                                 bool relative) {
  if (!summary.geomean)
    return "-";
  std::string text = relative ? formatRatio(*summary.geomean)
                              : llvm::formatv("{0:F2}", *summary.geomean).str();
  if (summary.used < summary.total)
    text += llvm::formatv(" ({0} of {1})", summary.used, summary.total).str();
  return text;
}

TextGrid pivotGrid(const Pivot &pivot) {
  bool relative = pivot.request.baseline.has_value();
  Metric metric = pivot.request.metric;
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
  std::string text =
      llvm::formatv("sweep {0} (#{1}): {2}", pivot.sweep.name, pivot.sweep.id,
                    metricName(pivot.request.metric))
          .str();
  if (pivot.request.baseline)
    text += " relative to " + *pivot.request.baseline +
            (isCountMetric(pivot.request.metric) ? " (ratio and difference)"
                                                 : " (ratio)");
  return text + "; geomean over models";
}

static llvm::json::Value pivotJson(const Pivot &pivot) {
  llvm::json::Array cells;
  for (size_t m = 0; m < pivot.models.size(); ++m)
    for (size_t v = 0; v < pivot.variants.size(); ++v) {
      const PivotCell &cell = pivot.cells[m][v];
      llvm::json::Object object{{"model", pivot.models[m]},
                                {"variant", pivot.variants[v]}};
      switch (cell.kind) {
      case PivotCell::Kind::Value:
        object["value"] = cell.value;
        if (cell.ratio)
          object["ratio"] = *cell.ratio;
        if (cell.difference)
          object["difference"] = *cell.difference;
        break;
      case PivotCell::Kind::Failed:
        object["failure"] = cell.note;
        break;
      case PivotCell::Kind::Unfinished:
        object["state"] = cell.note;
        break;
      case PivotCell::Kind::Missing:
        object["state"] = "missing";
        break;
      }
      cells.push_back(std::move(object));
    }
  llvm::json::Object geomean;
  for (size_t v = 0; v < pivot.variants.size(); ++v) {
    const Summary &summary = pivot.summaries[v];
    geomean[pivot.variants[v]] = llvm::json::Object{
        {"value", summary.geomean ? llvm::json::Value(*summary.geomean)
                                  : llvm::json::Value(nullptr)},
        {"models_used", summary.used},
        {"models", summary.total}};
  }
  llvm::json::Object root{
      {"sweep",
       llvm::json::Object{{"id", pivot.sweep.id}, {"name", pivot.sweep.name}}},
      {"metric", metricName(pivot.request.metric)},
      {"models", llvm::json::Array(pivot.models)},
      {"variants", llvm::json::Array(pivot.variants)},
      {"cells", std::move(cells)},
      {"geomean", std::move(geomean)}};
  if (pivot.request.baseline)
    root["baseline"] = *pivot.request.baseline;
  return root;
}

static std::string htmlEscape(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '&':
      escaped += "&amp;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    default:
      escaped += c;
    }
  }
  return escaped;
}

/// Horizontal bars, one group per model and one bar per variant, each group
/// scaled to its own largest value: models differ by orders of magnitude,
/// and the point is how the variants compare within a model.
static void printBarChart(const Pivot &pivot, llvm::raw_ostream &os) {
  static const char *kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                  "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
  const int labelWidth = 220, barWidth = 400, barHeight = 14, gap = 10;
  size_t variants = pivot.variants.size();
  int groupHeight = static_cast<int>(variants) * barHeight + gap;
  int legendHeight = 20 * static_cast<int>(variants) + 10;
  int height =
      legendHeight + groupHeight * static_cast<int>(pivot.models.size());
  int width = labelWidth + barWidth + 160;
  // Inline SVG in HTML needs no namespace: the page references no URL.
  os << llvm::formatv(
      "<svg width=\"{0}\" height=\"{1}\" font-family=\"sans-serif\" "
      "font-size=\"11\">\n",
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
            htmlEscape(formatPivotCell(cell, pivot.request.metric, false)));
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
          formatPivotCell(cell, pivot.request.metric, false),
          labelWidth + length + 4, y + barHeight - 3);
    }
  }
  os << "</svg>\n";
}

/// Click a header to sort by it; cells carry their number in data-v so
/// "0.83x (-51)" sorts as 0.83 and failures sort last.
static const char *kSortScript = R"(<script>
document.querySelectorAll("table.sortable th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var up = th.dataset.dir !== "asc";
    table.querySelectorAll("th").forEach(function (h) { delete h.dataset.dir; });
    th.dataset.dir = up ? "asc" : "desc";
    var rows = Array.from(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col];
      var nx = parseFloat(x.dataset.v), ny = parseFloat(y.dataset.v);
      var r;
      if (isNaN(nx) || isNaN(ny)) r = isNaN(nx) - isNaN(ny) ||
        x.textContent.localeCompare(y.textContent);
      else r = nx - ny;
      return up ? r : -r;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
</script>
)";

static void printHtml(const Pivot &pivot, llvm::raw_ostream &os) {
  TextGrid grid = pivotGrid(pivot);
  bool relative = pivot.request.baseline.has_value();
  bool modelsDown = pivot.request.rows == Dimension::Model;
  // The number a cell sorts by: its ratio when relative, else its value.
  auto sortKey = [&](size_t row, size_t column) -> std::optional<double> {
    size_t m = modelsDown ? row : column - 1, v = modelsDown ? column - 1 : row;
    if (m >= pivot.models.size() || v >= pivot.variants.size())
      return std::nullopt;
    const PivotCell &cell = pivot.cells[m][v];
    if (cell.kind != PivotCell::Kind::Value)
      return std::nullopt;
    if (relative && !cell.isBaseline)
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
          os << " data-v=\"" << llvm::formatv("{0}", *key) << "\"";
      os << ">" << htmlEscape(grid.rows[r][c]) << "</td>";
    }
    os << "</tr>\n";
  }
  os << (sortable == grid.rows.size() ? "</tbody>\n" : "</tfoot>\n")
     << "</table>\n<h2>" << htmlEscape(metricName(pivot.request.metric))
     << " per model and variant (bars scaled per model)</h2>\n";
  printBarChart(pivot, os);
  os << kSortScript << "</body></html>\n";
}

void printPivot(const Pivot &pivot, OutputFormat format,
                llvm::raw_ostream &os) {
  switch (format) {
  case OutputFormat::Json:
    os << llvm::formatv("{0:2}", pivotJson(pivot)) << "\n";
    return;
  case OutputFormat::Html:
    printHtml(pivot, os);
    return;
  case OutputFormat::Csv:
    printGrid(pivotGrid(pivot), format, os);
    return;
  case OutputFormat::Table:
  case OutputFormat::Markdown:
    os << (format == OutputFormat::Markdown ? "**" : "") << caption(pivot)
       << (format == OutputFormat::Markdown ? "**\n" : "") << "\n";
    printGrid(pivotGrid(pivot), format, os);
    return;
  }
}

} // namespace dispatchlab

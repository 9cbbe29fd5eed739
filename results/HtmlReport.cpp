//===- HtmlReport.cpp - a pivot as a self-contained HTML page -------------===//

#include "results/HtmlReport.h"

#include "results/Formatters.h"
#include "results/HtmlCharts.h"
#include "results/HtmlSections.h"
#include "results/ReportProvenance.h"

#include "llvm/Support/FormatVariadic.h"

namespace dispatchlab {

/// Click a header to sort by it; cells carry their number in data-v so
/// "0.83x (-51)" sorts as 0.83 and failures sort last either way. "#sort=N"
/// (column N from 0, "-desc" for descending) in the URL sorts on load, so a
/// sorted view can be linked; data-sort-ready shows the script ran. Clicking
/// a cell opens its result's details below the charts ("#result-M-V" opens
/// one on load, "#compare-M-V" a comparison).
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
document.querySelectorAll("table.sortable tbody").forEach(function (body) {
  body.addEventListener("click", function (event) {
    var td = event.target.closest("td");
    if (!td || td.cellIndex === 0) return;
    var row = td.parentNode.cells[0].textContent;
    var col = body.closest("table").tHead.rows[0].cells[td.cellIndex].textContent;
    document.querySelectorAll("details.result").forEach(function (d) {
      if (d.dataset.row === row && d.dataset.col === col) {
        d.open = true;
        d.scrollIntoView();
      }
    });
  });
});
var opened = /^#((result|compare)-\d+-\d+)$/.exec(location.hash);
if (opened && document.getElementById(opened[1]))
  document.getElementById(opened[1]).open = true;
var sortBy = /^#sort=(\d+)(-desc)?$/.exec(location.hash);
if (sortBy) {
  var th = document.querySelectorAll("table.sortable thead th")[sortBy[1]];
  if (th) { th.click(); if (sortBy[2]) th.click(); }
}
</script>
)";

namespace {
/// The grid of a pivot and where its cells come from.
struct HtmlTable {
  const Pivot &pivot;
  TextGrid grid = pivotGrid(pivot);
  bool relative = pivot.request.baseline.has_value();
  bool modelsDown = pivot.request.rows == Dimension::Model;
  /// Rows above the geomean row, which stays put below them.
  size_t sortable = modelsDown ? grid.rows.size() - 1 : grid.rows.size();

  /// The pivot cell behind a grid cell; none for labels and summaries.
  const PivotCell *cellAt(size_t row, size_t column) const {
    size_t m = modelsDown ? row : column - 1, v = modelsDown ? column - 1 : row;
    if (row >= sortable || column == 0 || m >= pivot.models.size() ||
        v >= pivot.variants.size())
      return nullptr;
    return &pivot.cells[m][v];
  }

  /// The number a cell sorts by: its ratio when relative, else its value.
  std::optional<double> sortKey(size_t row, size_t column) const {
    const PivotCell *cell = cellAt(row, column);
    if (!cell || cell->kind != PivotCell::Kind::Value)
      return std::nullopt;
    // A column of baseline cells sorts by value; where baseline and variant
    // cells share a column (variants down), all sort by ratio.
    if (relative && (!cell->isBaseline || !modelsDown))
      return cell->ratio;
    return cell->value;
  }
};
} // namespace

static void printHead(llvm::StringRef title, llvm::raw_ostream &os) {
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << title
     << "</title>\n<style>\nbody{font-family:sans-serif;margin:2em}\n"
        "table{border-collapse:collapse}\n"
        "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
        "th{cursor:pointer;background:#eee}\n"
        "td:first-child,th:first-child{text-align:left}\n"
        "tfoot td{font-weight:bold}\n"
        "table.sortable tbody td:not(:first-child){cursor:pointer}\n"
        "th[data-dir=asc]::after{content:\" \\25B2\"}\n"
        "th[data-dir=desc]::after{content:\" \\25BC\"}\n"
        "table.groups td,table.moved td{text-align:left;vertical-align:top}\n"
        "table.groups th,table.moved th,table.options th{cursor:auto}\n"
        ".differs{background:#ffd27f}\n"
        "dl.provenance dt{font-weight:bold}\n"
        "dl.provenance dd{margin:0 0 .5em 1.5em;font-family:monospace;"
        "white-space:pre-wrap;overflow-wrap:anywhere}\n"
        "table.options{margin-bottom:1.5em}\n"
        "details{margin:.3em 0}\n"
        ".side-by-side{display:flex;gap:2em;align-items:flex-start;"
        "overflow-x:auto}\n"
        "</style></head><body>\n<h1>"
     << title << "</h1>\n";
}

/// "not significant" hides the numbers in a latency cell, not from a reader
/// who hovers.
static void printLatencyTitle(const PivotCell &cell, llvm::raw_ostream &os) {
  if (!cell.ratio || !cell.comparison || !cell.comparison->test)
    return;
  const LatencyComparison &comparison = *cell.comparison;
  std::string interval = "none (too few samples)";
  if (comparison.interval)
    interval = llvm::formatv("[{0:F4}, {1:F4}]", comparison.interval->low,
                             comparison.interval->high);
  os << llvm::formatv(
      " title=\"ratio of medians {0:F4}x; {1:F0}% interval {2}; p={3:E2} "
      "({4}); {5} vs {6} samples\"",
      *cell.ratio, 100 * (1 - kSignificanceAlpha), interval,
      comparison.test->pValue,
      comparison.test->exact ? "exact" : "normal approximation",
      comparison.samples, comparison.baselineSamples);
}

static void printTable(const HtmlTable &table, llvm::raw_ostream &os) {
  const TextGrid &grid = table.grid;
  os << "<table class=\"sortable\">\n<thead><tr>";
  for (const std::string &name : grid.header)
    os << "<th>" << htmlEscape(name) << "</th>";
  os << "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    if (r == table.sortable)
      os << "</tbody>\n<tfoot>\n";
    os << "<tr>";
    for (size_t c = 0; c < grid.rows[r].size(); ++c) {
      os << "<td";
      if (std::optional<double> key = table.sortKey(r, c))
        os << " data-v=\"" << llvm::formatv("{0:E9}", *key) << "\"";
      if (const PivotCell *cell = table.cellAt(r, c))
        printLatencyTitle(*cell, os);
      os << ">" << htmlEscape(grid.rows[r][c]) << "</td>";
    }
    os << "</tr>\n";
  }
  os << (table.sortable == grid.rows.size() ? "</tbody>\n" : "</tfoot>\n")
     << "</table>\n";
}

static void printCharts(const Pivot &pivot, const Pivot *dispatches,
                        llvm::raw_ostream &os) {
  bool paired = pivot.request.metric->isSampled && hasPairedCells(pivot);
  if ((pivot.request.baseline && pivot.request.metric->isSampled) || paired) {
    os << "<h2>latency speedup over "
       << htmlEscape(pivot.request.baseline ? *pivot.request.baseline
                                            : *pairedBaseline(pivot))
       << " (baseline / variant median; error bars: "
       << llvm::formatv("{0:F0}", 100 * (1 - kSignificanceAlpha))
       << "% confidence interval; pale: not significant"
       << (paired ? "; paired: timed in the same rounds as their "
                    "comparison's baseline, judged against the noise floor"
                  : "")
       << ")</h2>\n";
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
}

void printHtmlReport(const Pivot &pivot, const HtmlReportInputs &inputs,
                     llvm::raw_ostream &os) {
  std::string title = htmlEscape(pivotCaption(pivot));
  printHead(title, os);
  if (!inputs.jobs.empty())
    printProvenanceSection(collectProvenance(inputs.jobs), os);
  HtmlTable table{pivot};
  printTable(table, os);
  for (const std::string &note : pivot.notes)
    os << "<p class=\"note\">" << htmlEscape(note) << "</p>\n";
  printCharts(pivot, inputs.dispatches, os);
  if (!inputs.jobs.empty()) {
    GraphDrawer graphs;
    printResultDetails(pivot, table.grid, inputs.jobs, graphs, os);
    printVariantComparisons(pivot, inputs.jobs, graphs, os);
  }
  os << kSortScript << "</body></html>\n";
}

} // namespace dispatchlab

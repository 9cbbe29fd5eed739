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

/// One cell as shown in tables: "300", "0.83x (-51)", "timeout", ...
std::string formatPivotCell(const PivotCell &cell, Metric metric,
                            bool relative);

/// The pivot as displayed: models or variants down the side, the geometric
/// mean as the last row (models down) or column (variants down).
TextGrid pivotGrid(const Pivot &pivot);

void printPivot(const Pivot &pivot, OutputFormat format, llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_FORMATTERS_H

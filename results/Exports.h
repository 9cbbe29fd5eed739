//===- Exports.h - typed CSV and JSON for notebooks -------------*- C++ -*-===//
//
// What `report` and `query` write for a program to load: one value per
// cell, numbers as numbers, an empty cell (CSV) or null (JSON) where there
// is none, and units in the column names, so pandas.read_csv or json.load
// gives typed columns without parsing prose. The tables for people stay in
// Formatters.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_EXPORTS_H
#define DISPATCHLAB_RESULTS_EXPORTS_H

#include "results/ReportQueries.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace dispatchlab {

/// One cell: null, a boolean, an integer, a double or a string. Not a
/// json::Value, which cannot tell 1.0 from 1 (CSV must, or pandas loads a
/// column of whole ratios as integers).
using TypedValue =
    std::variant<std::monostate, bool, int64_t, double, std::string>;

struct TypedTable {
  std::vector<std::string> columns;
  std::vector<std::vector<TypedValue>> rows;
};

/// The shortest text that reads back as the same double, with a point or
/// an exponent so that it reads back as a double ("1.0", "0.25", "1e+300").
std::string roundTripText(double value);

/// A header line, then one line per row: null as an empty field, numbers
/// in full precision (a double always with a point or exponent), strings quoted
/// as RFC 4180 needs.
void printTypedCsv(const TypedTable &table, llvm::raw_ostream &os);

/// The rows as JSON objects keyed by column; an error naming the column
/// when two share a name (an object cannot hold both).
llvm::Expected<llvm::json::Array> typedRecords(const TypedTable &table,
                                               bool dropNulls = false);

/// One row per (model, variant) cell: model, variant, state, failure, the
/// metric's column (Metric::column) and, against a baseline, ratio,
/// difference (counts), samples, ci_low, ci_high, p_value, significant
/// (latency). The geomean is left to the JSON export.
TypedTable pivotTable(const Pivot &pivot);

/// The pivot's cells (as pivotTable, without nulls), a units object for
/// every numeric field, the geomean per variant, sweep, metric, notes.
llvm::json::Value pivotJson(const Pivot &pivot);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_EXPORTS_H

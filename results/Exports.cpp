//===- Exports.cpp - typed CSV and JSON for notebooks ---------------------===//

#include "results/Exports.h"

#include "results/Csv.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <charconv>
#include <cmath>

namespace dispatchlab {

namespace fields = export_fields;

std::string roundTripText(double value) {
  if (!std::isfinite(value))
    return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
  char buffer[32];
  std::to_chars_result written =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, written.ptr);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

static std::string csvCell(const TypedValue &value) {
  if (const bool *flag = std::get_if<bool>(&value))
    return *flag ? "true" : "false";
  if (const int64_t *integer = std::get_if<int64_t>(&value))
    return std::to_string(*integer);
  if (const double *number = std::get_if<double>(&value))
    return roundTripText(*number);
  if (const std::string *text = std::get_if<std::string>(&value))
    return csvField(*text);
  return "";
}

static llvm::json::Value jsonOf(const TypedValue &value) {
  return std::visit(
      [](const auto &held) -> llvm::json::Value {
        if constexpr (std::is_same_v<std::decay_t<decltype(held)>,
                                     std::monostate>)
          return nullptr;
        else
          return held;
      },
      value);
}

void printTypedCsv(const TypedTable &table, llvm::raw_ostream &os) {
  for (size_t i = 0; i < table.columns.size(); ++i)
    os << (i ? "," : "") << csvField(table.columns[i]);
  os << "\n";
  for (const std::vector<TypedValue> &row : table.rows) {
    for (size_t i = 0; i < row.size(); ++i)
      os << (i ? "," : "") << csvCell(row[i]);
    os << "\n";
  }
}

llvm::Expected<llvm::json::Array> typedRecords(const TypedTable &table,
                                               bool dropNulls) {
  llvm::StringSet<> seen;
  for (const std::string &column : table.columns)
    if (!seen.insert(column).second)
      return llvm::createStringError(
          "column '" + column +
          "' appears twice; give each its own name (AS) for JSON");
  llvm::json::Array records;
  for (const std::vector<TypedValue> &row : table.rows) {
    llvm::json::Object record;
    for (size_t i = 0; i < row.size(); ++i)
      if (!dropNulls || !std::holds_alternative<std::monostate>(row[i]))
        record[table.columns[i]] = jsonOf(row[i]);
    records.push_back(std::move(record));
  }
  return records;
}

static llvm::json::Value orNull(std::optional<double> value) {
  return value ? llvm::json::Value(*value) : llvm::json::Value(nullptr);
}

/// A metric value: an integer for an integral count, so it loads as one.
static TypedValue metricValue(double value, const Metric &metric) {
  if (metric.isCount && value == std::floor(value))
    return static_cast<int64_t>(value);
  return value;
}

namespace {
/// Which optional columns a pivot's export has.
struct PivotColumns {
  bool relative, counts, sampled;
  /// Latency cells from COMPARE jobs: ratios even without a baseline.
  bool paired;
  explicit PivotColumns(const Pivot &pivot)
      : relative(pivot.request.baseline.has_value()),
        counts(pivot.request.metric->isCount),
        sampled(pivot.request.metric->isSampled),
        paired(sampled && hasPairedCells(pivot)) {}
  /// Cells carry a ratio and, for latency, how it was tested.
  bool compared() const { return relative || paired; }
};
} // namespace

static std::vector<std::string> pivotColumnNames(const Pivot &pivot) {
  PivotColumns has(pivot);
  std::vector<std::string> names = {
      fields::kModel.name.str(), fields::kVariant.name.str(),
      fields::kState.name.str(), fields::kFailure.name.str(),
      pivot.request.metric->column.str()};
  if (has.compared())
    names.push_back(fields::kRatio.name.str());
  if (has.relative && has.counts)
    names.push_back(fields::kDifference.name.str());
  if (has.sampled)
    names.push_back(fields::kSamples.name.str());
  if (has.compared() && has.sampled)
    for (const ExportField *field :
         {&fields::kCiLow, &fields::kCiHigh, &fields::kPValue,
          &fields::kSignificant, &fields::kMethod, &fields::kVerdict})
      names.push_back(field->name.str());
  return names;
}

static TypedValue optionalValue(std::optional<double> value) {
  return value ? TypedValue(*value) : TypedValue();
}

static const char *cellState(const PivotCell &cell) {
  switch (cell.kind) {
  case PivotCell::Kind::Value:
    return "done";
  case PivotCell::Kind::Failed:
    return "failed";
  case PivotCell::Kind::Unfinished:
    return cell.note.c_str();
  case PivotCell::Kind::Missing:
    break;
  }
  return "missing";
}

/// A paired cell's interval, test, method and verdict.
static void appendPaired(const PairedCell &paired,
                         std::vector<TypedValue> &row) {
  const results::PairedRatio *ratio = paired.ratio ? &*paired.ratio : nullptr;
  row.push_back(ratio ? TypedValue(ratio->ci_low()) : TypedValue());
  row.push_back(ratio ? TypedValue(ratio->ci_high()) : TypedValue());
  row.push_back(ratio ? TypedValue(ratio->p_value()) : TypedValue());
  row.push_back(ratio ? TypedValue(paired.verdict == "faster" ||
                                   paired.verdict == "slower")
                      : TypedValue());
  row.push_back(kPairedMethod.str());
  row.push_back(paired.verdict);
}

/// A cell's numbers against its baseline: absent fields stay null.
static void appendComparison(const PivotCell &cell, PivotColumns has,
                             const Metric &metric,
                             std::vector<TypedValue> &row) {
  row.push_back(optionalValue(cell.ratio));
  if (has.counts)
    row.push_back(cell.difference ? metricValue(*cell.difference, metric)
                                  : TypedValue());
  if (!has.sampled)
    return;
  row.push_back(static_cast<int64_t>(cell.samples.size()));
  if (cell.paired) {
    appendPaired(*cell.paired, row);
    return;
  }
  const LatencyComparison *comparison =
      cell.comparison && cell.comparison->test ? &*cell.comparison : nullptr;
  std::optional<Interval> interval =
      comparison ? comparison->interval : std::nullopt;
  row.push_back(interval ? TypedValue(interval->low) : TypedValue());
  row.push_back(interval ? TypedValue(interval->high) : TypedValue());
  row.push_back(comparison ? TypedValue(comparison->test->pValue)
                           : TypedValue());
  row.push_back(comparison ? TypedValue(comparison->significant())
                           : TypedValue());
  row.push_back(comparison ? TypedValue(kUnpairedMethod.str()) : TypedValue());
  row.push_back(TypedValue());
}

static std::vector<TypedValue>
pivotRow(const Pivot &pivot, const PivotCell &cell, size_t m, size_t v) {
  PivotColumns has(pivot);
  const Metric &metric = *pivot.request.metric;
  bool isValue = cell.kind == PivotCell::Kind::Value;
  std::vector<TypedValue> row = {
      pivot.models[m], pivot.variants[v], std::string(cellState(cell)),
      cell.kind == PivotCell::Kind::Failed ? TypedValue(cell.note)
                                           : TypedValue(),
      isValue ? metricValue(cell.value, metric) : TypedValue()};
  if (!isValue) {
    row.resize(pivotColumnNames(pivot).size());
    return row;
  }
  if (has.compared()) {
    appendComparison(cell, has, metric, row);
  } else if (has.sampled) {
    row.push_back(static_cast<int64_t>(cell.samples.size()));
  }
  return row;
}

TypedTable pivotTable(const Pivot &pivot) {
  TypedTable table;
  table.columns = pivotColumnNames(pivot);
  for (size_t m = 0; m < pivot.models.size(); ++m)
    for (size_t v = 0; v < pivot.variants.size(); ++v)
      table.rows.push_back(pivotRow(pivot, pivot.cells[m][v], m, v));
  return table;
}

/// Each numeric field's unit: "1" for a ratio, "count" for a count.
static llvm::json::Object pivotUnits(const Pivot &pivot) {
  PivotColumns has(pivot);
  const Metric &metric = *pivot.request.metric;
  llvm::StringRef metricUnit = metric.unit.empty() ? "count" : metric.unit;
  llvm::json::Object units{{metric.column, metricUnit}};
  if (has.compared())
    units[fields::kRatio.name] = fields::kRatio.unit;
  if (has.relative && has.counts)
    units[fields::kDifference.name] = metricUnit;
  if (has.sampled)
    units[fields::kSamples.name] = "count";
  if (has.compared() && has.sampled)
    for (const ExportField *field :
         {&fields::kCiLow, &fields::kCiHigh, &fields::kPValue})
      units[field->name] = field->unit;
  return units;
}

/// Per variant: the geometric mean (of ratios against a baseline, named
/// "ratio", else of values, named as the metric's column) over the models
/// it uses, with its interval where there is one.
static llvm::json::Object pivotGeomean(const Pivot &pivot) {
  llvm::StringRef name = pivot.request.baseline
                             ? llvm::StringRef(fields::kRatio.name)
                             : llvm::StringRef(pivot.request.metric->column);
  llvm::json::Object geomean;
  for (size_t v = 0; v < pivot.variants.size(); ++v) {
    const Summary &summary = pivot.summaries[v];
    const std::optional<Interval> &interval = summary.interval;
    geomean[pivot.variants[v]] = llvm::json::Object{
        {name, orNull(summary.geomean)},
        {"models_used", summary.used},
        {"models", summary.total},
        {fields::kCiLow.name,
         orNull(interval ? std::optional(interval->low) : std::nullopt)},
        {fields::kCiHigh.name,
         orNull(interval ? std::optional(interval->high) : std::nullopt)}};
  }
  return geomean;
}

llvm::json::Value pivotJson(const Pivot &pivot) {
  // Column names are fixed and distinct: this cannot fail.
  llvm::json::Array cells =
      llvm::cantFail(typedRecords(pivotTable(pivot), /*dropNulls=*/true));
  llvm::json::Object root{
      {"sweep",
       llvm::json::Object{{"id", pivot.sweep.id}, {"name", pivot.sweep.name}}},
      {"metric", pivot.request.metric->name},
      {"units", pivotUnits(pivot)},
      {"models", llvm::json::Array(pivot.models)},
      {"variants", llvm::json::Array(pivot.variants)},
      {"cells", std::move(cells)},
      {"geomean", pivotGeomean(pivot)}};
  if (pivot.request.baseline)
    root["baseline"] = *pivot.request.baseline;
  if (!pivot.notes.empty())
    root["notes"] = llvm::json::Array(pivot.notes);
  return root;
}

} // namespace dispatchlab

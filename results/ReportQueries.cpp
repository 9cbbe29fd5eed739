//===- ReportQueries.cpp - sweep results as pivot tables ------------------===//

#include "results/ReportQueries.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <map>
#include <stdexcept>

namespace dispatchlab {

std::optional<Metric> parseMetric(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Metric>>(name)
      .Case("dispatches", Metric::Dispatches)
      .Case("executables", Metric::Executables)
      .Case("transient_bytes", Metric::TransientBytes)
      .Case("fills", Metric::Fills)
      .Case("copies", Metric::Copies)
      .Case("generic_before", Metric::GenericBefore)
      .Case("generic_after", Metric::GenericAfter)
      .Case("compile_time", Metric::CompileTime)
      .Case("latency", Metric::Latency)
      .Default(std::nullopt);
}

llvm::StringRef metricName(Metric metric) {
  switch (metric) {
  case Metric::Dispatches:
    return "dispatches";
  case Metric::Executables:
    return "executables";
  case Metric::TransientBytes:
    return "transient_bytes";
  case Metric::Fills:
    return "fills";
  case Metric::Copies:
    return "copies";
  case Metric::GenericBefore:
    return "generic_before";
  case Metric::GenericAfter:
    return "generic_after";
  case Metric::CompileTime:
    return "compile_time";
  case Metric::Latency:
    return "latency";
  }
  return "";
}

bool isCountMetric(Metric metric) {
  return metric != Metric::CompileTime && metric != Metric::Latency;
}

std::optional<Dimension> parseDimension(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Dimension>>(name)
      .Case("model", Dimension::Model)
      .Case("variant", Dimension::Variant)
      .Default(std::nullopt);
}

std::optional<SweepRef> findSweep(ResultStore &store,
                                  llvm::StringRef selector) {
  int64_t id = 0;
  Statement *query;
  if (selector.empty()) {
    query = &store.prepare("SELECT id, name FROM sweeps ORDER BY id DESC "
                           "LIMIT 1");
  } else if (!selector.getAsInteger(10, id)) {
    query = &store.prepare("SELECT id, name FROM sweeps WHERE id = ?1");
    query->bind(1, id);
  } else {
    query = &store.prepare("SELECT id, name FROM sweeps WHERE name = ?1 "
                           "ORDER BY id DESC LIMIT 1");
    query->bind(1, selector);
  }
  std::optional<SweepRef> sweep;
  if (query->step())
    sweep = SweepRef{query->getInt(0), query->getText(1)};
  query->reset();
  return sweep;
}

std::vector<JobRecord> loadSweepJobs(ResultStore &store, int64_t sweepId) {
  Statement &query = store.prepare(
      "SELECT j.model_name, j.variant, j.state, COALESCE(j.error, ''), "
      "COALESCE(r.stats_json, ''), r.id, COALESCE(r.wall_seconds, 0) "
      "FROM jobs j LEFT JOIN results r ON r.id = j.result_id "
      "WHERE j.sweep_id = ?1 ORDER BY j.id");
  query.bind(1, sweepId);
  std::vector<JobRecord> jobs;
  while (query.step()) {
    JobRecord job{query.getText(0), query.getText(1), query.getText(2),
                  query.getText(3), query.getText(4)};
    if (!query.isNull(5))
      job.resultId = query.getInt(5);
    job.wallSeconds = query.getDouble(6);
    jobs.push_back(std::move(job));
  }
  query.reset();
  return jobs;
}

std::string classifyFailure(llvm::StringRef error) {
  error = error.split('\n').first.trim();
  if (error.starts_with("timed out"))
    return "timeout";
  if (error.consume_front("killed by signal")) {
    // "killed by signal 11 (Segmentation fault)": the name says more.
    size_t open = error.find('('), close = error.rfind(')');
    if (open != llvm::StringRef::npos && close > open)
      return ("crash (" + error.slice(open + 1, close) + ")").str();
    return ("crash (signal" + error + ")").str();
  }
  // The worker's "exit code N: error: MESSAGE": the message names the cause.
  size_t at = error.find("error: ");
  if (at != llvm::StringRef::npos)
    return ("failed: " + error.substr(at + 7).trim()).str();
  if (error.starts_with("run is not implemented"))
    return "failed: run is not implemented yet";
  return ("failed: " + error).str();
}

std::optional<double> metricValue(const JobRecord &job, Metric metric) {
  if (!job.resultId)
    return std::nullopt;
  if (metric == Metric::CompileTime)
    return job.wallSeconds;
  llvm::Expected<llvm::json::Value> stats = llvm::json::parse(job.statsJson);
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *object = stats->getAsObject();
  if (!object)
    return std::nullopt;
  if (std::optional<double> value = object->getNumber(metricName(metric)))
    return value;
  return std::nullopt;
}

std::optional<double> geometricMean(const std::vector<double> &values) {
  double logSum = 0;
  int count = 0;
  for (double value : values)
    if (value > 0) {
      logSum += std::log(value);
      ++count;
    }
  if (!count)
    return std::nullopt;
  return std::exp(logSum / count);
}

static PivotCell makeCell(const JobRecord &job, Metric metric) {
  PivotCell cell;
  if (job.state == "failed") {
    cell.kind = PivotCell::Kind::Failed;
    cell.note = classifyFailure(job.error);
  } else if (std::optional<double> value = metricValue(job, metric)) {
    cell.kind = PivotCell::Kind::Value;
    cell.value = *value;
  } else if (job.resultId) {
    cell.kind = PivotCell::Kind::Failed;
    cell.note = ("no " + metricName(metric) + " in the stats").str();
  } else {
    // pending or leased: the sweep has not finished.
    cell.kind = PivotCell::Kind::Unfinished;
    cell.note = job.state == "leased" ? "running" : job.state;
  }
  return cell;
}

Pivot buildPivot(const SweepRef &sweep, const std::vector<JobRecord> &jobs,
                 const PivotRequest &request) {
  if (request.metric == Metric::Latency)
    throw std::invalid_argument(
        "latency reports (ratios with confidence intervals and a U test "
        "over the raw samples) are not implemented yet; run jobs store their "
        "measurement under \"run\" in each result's stats (see "
        "`dispatchlab show`)");
  Pivot pivot;
  pivot.sweep = sweep;
  pivot.request = request;
  std::map<std::string, size_t> modelIndex, variantIndex;
  for (const JobRecord &job : jobs) {
    if (modelIndex.emplace(job.model, pivot.models.size()).second)
      pivot.models.push_back(job.model);
    if (variantIndex.emplace(job.variant, pivot.variants.size()).second)
      pivot.variants.push_back(job.variant);
  }
  pivot.cells.assign(pivot.models.size(),
                     std::vector<PivotCell>(pivot.variants.size()));
  for (const JobRecord &job : jobs)
    pivot.cells[modelIndex[job.model]][variantIndex[job.variant]] =
        makeCell(job, request.metric);

  std::optional<size_t> baseline;
  if (request.baseline) {
    auto it = variantIndex.find(*request.baseline);
    if (it == variantIndex.end())
      throw std::invalid_argument(
          "no variant '" + *request.baseline + "' in sweep '" + sweep.name +
          "' (variants: " + llvm::join(pivot.variants, ", ") + ")");
    baseline = it->second;
  }

  for (size_t v = 0; v < pivot.variants.size(); ++v) {
    std::vector<double> values;
    Summary summary;
    for (std::vector<PivotCell> &row : pivot.cells) {
      PivotCell &cell = row[v];
      ++summary.total;
      if (cell.kind != PivotCell::Kind::Value)
        continue;
      if (!baseline) {
        values.push_back(cell.value);
        continue;
      }
      cell.isBaseline = v == *baseline;
      const PivotCell &base = row[*baseline];
      if (base.kind != PivotCell::Kind::Value)
        continue;
      cell.difference = cell.value - base.value;
      // 0 -> 0 is "no change"; anything -> from 0 has no ratio.
      if (base.value != 0)
        cell.ratio = cell.value / base.value;
      else if (cell.value == 0)
        cell.ratio = 1.0;
      if (cell.ratio)
        values.push_back(*cell.ratio);
    }
    summary.geomean = geometricMean(values);
    for (double value : values)
      summary.used += value > 0;
    pivot.summaries.push_back(summary);
  }
  return pivot;
}

} // namespace dispatchlab

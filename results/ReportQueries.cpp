//===- ReportQueries.cpp - sweep results as pivot tables ------------------===//

#include "results/ReportQueries.h"

#include "results/PairedCells.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace dispatchlab {

std::optional<Dimension> parseDimension(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Dimension>>(name)
      .Case("model", Dimension::Model)
      .Case("variant", Dimension::Variant)
      .Default(std::nullopt);
}

llvm::Expected<std::optional<SweepRef>> findSweep(ResultStore &store,
                                                  llvm::StringRef selector) {
  // Digits name an id when one exists, else a sweep of that name.
  int64_t id = -1;
  if (selector.getAsInteger(10, id))
    id = -1;
  llvm::Expected<Statement &> query =
      selector.empty()
          ? store.query("SELECT id, name FROM sweeps ORDER BY id DESC LIMIT 1")
          : store.query("SELECT id, name FROM sweeps WHERE id = ?1 OR name = "
                        "?2 ORDER BY id = ?1 DESC, id DESC LIMIT 1",
                        id, selector);
  if (!query)
    return query.takeError();
  std::optional<SweepRef> sweep;
  if (llvm::Error error = query->firstRow([&](const Statement &row) {
        sweep = SweepRef{row.getInt(0), row.getText(1)};
      }))
    return std::move(error);
  return sweep;
}

llvm::Expected<std::string> describeMissingSweep(ResultStore &store,
                                                 llvm::StringRef selector,
                                                 llvm::StringRef databasePath) {
  const int64_t kListed = 8;
  llvm::Expected<Statement &> query =
      store.query("SELECT id, name, (SELECT COUNT(*) FROM sweeps) FROM sweeps "
                  "ORDER BY id DESC LIMIT ?1",
                  kListed);
  if (!query)
    return query.takeError();
  std::vector<std::string> listed;
  int64_t total = 0;
  if (llvm::Error error = query->forEachRow([&](const Statement &row) {
        listed.push_back(
            llvm::formatv("{0} (#{1})", row.getText(1), row.getInt(0)));
        total = row.getInt(2);
      }))
    return std::move(error);
  std::string text = selector.empty() ? "no sweeps in " + databasePath.str()
                                      : "no sweep '" + selector.str() +
                                            "' in " + databasePath.str();
  if (listed.empty())
    return selector.empty() ? text : text + ", which holds no sweeps";
  text += "; it holds " + llvm::join(listed, ", ");
  if (total > kListed)
    text += llvm::formatv(" and {0} older", total - kListed).str();
  return text;
}

llvm::Expected<SweepRef> requireSweep(ResultStore &store,
                                      llvm::StringRef selector,
                                      llvm::StringRef databasePath) {
  llvm::Expected<std::optional<SweepRef>> found = findSweep(store, selector);
  if (!found)
    return found.takeError();
  if (*found)
    return std::move(**found);
  llvm::Expected<std::string> missing =
      describeMissingSweep(store, selector, databasePath);
  if (!missing)
    return missing.takeError();
  return llvm::createStringError(*missing);
}

/// A job of the row `loadSweepJobs` selects.
static JobRecord jobRecord(const Statement &row) {
  JobRecord job{row.getText(0), row.getText(1), row.getText(2), row.getText(3),
                row.getText(4)};
  if (!row.isNull(5))
    job.resultId = row.getInt(5);
  job.wallSeconds = row.getDouble(6);
  job.preset = row.getText(7);
  job.options = row.getText(8);
  job.provenanceJson = row.getText(9);
  job.createdAt = row.getDouble(10);
  return job;
}

llvm::Expected<std::vector<JobRecord>> loadSweepJobs(ResultStore &store,
                                                     int64_t sweepId) {
  llvm::Expected<Statement &> query = store.query(
      "SELECT j.model_name, j.variant, j.state, COALESCE(j.error, ''), "
      "COALESCE(r.stats_json, ''), r.id, COALESCE(r.wall_seconds, 0), "
      "j.preset, j.options, "
      "COALESCE(r.provenance_json, j.provenance_json, ''), "
      "COALESCE(r.created_at, 0), "
      "CASE WHEN json_valid(r.stats_json) THEN "
      "json_type(r.stats_json, '$.comparison') = 'object' END "
      "FROM jobs j LEFT JOIN results r ON r.id = j.result_id "
      "WHERE j.sweep_id = ?1 ORDER BY j.id",
      sweepId);
  if (!query)
    return query.takeError();
  std::vector<JobRecord> jobs;
  std::vector<size_t> comparisons;
  if (llvm::Error error = query->forEachRow([&](const Statement &row) {
        if (!row.isNull(11) && row.getInt(11))
          comparisons.push_back(jobs.size());
        jobs.push_back(jobRecord(row));
      }))
    return std::move(error);
  for (size_t index : comparisons) {
    llvm::Expected<std::optional<NoiseFloor>> floor =
        store.noiseFloorFor(*jobs[index].resultId);
    if (!floor)
      return floor.takeError();
    jobs[index].noiseFloor = std::move(*floor);
  }
  return jobs;
}

std::optional<std::string> pairedBaseline(const Pivot &pivot) {
  for (const std::vector<PivotCell> &row : pivot.cells)
    for (const PivotCell &cell : row)
      if (cell.paired)
        return cell.paired->baseline;
  return std::nullopt;
}

bool hasPairedCells(const Pivot &pivot) {
  return pairedBaseline(pivot).has_value();
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

static PivotCell makeCell(const JobRecord &job, const Metric &metric) {
  PivotCell cell;
  if (job.state == "failed") {
    cell.kind = PivotCell::Kind::Failed;
    cell.note = classifyFailure(job.error);
  } else if (std::optional<LatencyRecord> latency =
                 metric.isSampled ? latencyOf(job) : std::nullopt) {
    cell.kind = PivotCell::Kind::Value;
    cell.value = latency->medianMs;
    cell.samples = std::move(latency->samplesMs);
  } else if (std::optional<double> value = metric.valueOf(job)) {
    cell.kind = PivotCell::Kind::Value;
    cell.value = *value;
  } else if (job.resultId && metric.isSampled) {
    cell.kind = PivotCell::Kind::Failed;
    cell.note = "no latency (not a run job)";
  } else if (job.resultId) {
    cell.kind = PivotCell::Kind::Failed;
    cell.note = ("no " + metric.name + " in the stats").str();
  } else {
    // pending or leased: the sweep has not finished.
    cell.kind = PivotCell::Kind::Unfinished;
    cell.note = job.state == "leased" ? "running" : job.state;
  }
  return cell;
}

/// What the reader must know to trust the latency cells: results without
/// raw samples get no test, few samples make the test weak, and a ratio of
/// medians outside its interval (which assumes the variant's distribution is
/// the baseline's scaled) means the samples differ in shape, e.g. one side
/// is multimodal because the machine was busy.
static void addLatencyNotes(Pivot &pivot, size_t baseline) {
  bool unsampled = false;
  size_t fewest = std::numeric_limits<size_t>::max();
  std::vector<std::string> unstable;
  for (size_t m = 0; m < pivot.models.size(); ++m)
    for (size_t v = 0; v < pivot.variants.size(); ++v) {
      const PivotCell &cell = pivot.cells[m][v];
      if (v == baseline || cell.kind != PivotCell::Kind::Value || !cell.ratio ||
          cell.paired)
        continue;
      if (!cell.comparison) {
        unsampled = true;
        continue;
      }
      fewest = std::min(
          {fewest, cell.comparison->samples, cell.comparison->baselineSamples});
      if (const std::optional<Interval> &interval = cell.comparison->interval)
        if (*cell.ratio < interval->low || *cell.ratio > interval->high)
          unstable.push_back(pivot.models[m] + " / " + pivot.variants[v]);
    }
  pivot.notes.push_back(llvm::formatv("latency: median ratio to {0} with a "
                                      "{1:F0}% confidence interval; two-sided "
                                      "Mann-Whitney U test, alpha {2:F2}; "
                                      "unpaired: each cell was measured in a "
                                      "job of its own, so drift between jobs "
                                      "is not in the interval (`dispatchlab "
                                      "compare` pairs variants in rounds)",
                                      pivot.variants[baseline],
                                      100 * (1 - kSignificanceAlpha),
                                      kSignificanceAlpha)
                            .str());
  if (llvm::any_of(pivot.summaries,
                   [](const Summary &summary) { return summary.interval; }))
    pivot.notes.push_back(
        llvm::formatv("geomean: {0:F0}% percentile-bootstrap interval ({1} "
                      "resamples of every model's repetitions, fixed seed); "
                      "it covers measurement noise on these models, not the "
                      "choice of models",
                      100 * (1 - kSignificanceAlpha), kBootstrapResamples)
            .str());
  if (fewest < kRecommendedSamples)
    pivot.notes.push_back(
        llvm::formatv("warning: as few as {0} samples per cell; the U test "
                      "needs about {1} repetitions to detect a change",
                      fewest, kRecommendedSamples)
            .str());
  if (unsampled)
    pivot.notes.push_back("\"no samples\": the result has no raw samples, so "
                          "only the ratio of medians is shown, untested");
  if (!unstable.empty())
    pivot.notes.push_back(
        "warning: ratio of medians outside its interval, so the samples "
        "differ by more than a scale factor (noise? measure again on a quiet "
        "machine): " +
        llvm::join(unstable, ", "));
}

/// The (variant, cell) pairs of `job`: one, or one per compared variant
/// of a COMPARE job's result.
static std::vector<std::pair<std::string, PivotCell>>
cellsOf(const JobRecord &job, const Metric &metric) {
  if (std::optional<results::Comparison> comparison = comparisonOf(job))
    return pairedCells(job, *comparison, metric);
  return {{job.variant, makeCell(job, metric)}};
}

/// A paired latency cell's ratio is the comparison's, whatever the
/// report's baseline: its baseline was timed in the same rounds.
static void setPairedRatio(PivotCell &cell) {
  const PairedCell &paired = *cell.paired;
  cell.isBaseline = !paired.ratio && !paired.identicalTo;
  cell.ratio = paired.ratio ? paired.ratio->median() : 1.0;
}

/// Variant `v`'s summary over the models, setting its cells' ratios (to
/// `baseline`'s cells, or a paired cell's own) on the way.
static Summary summarizeVariant(Pivot &pivot, size_t v,
                                std::optional<size_t> baseline,
                                const Metric &metric) {
  std::vector<double> values;
  // The raw samples behind the ratios the geomean uses.
  std::vector<RatioSamples> samples;
  Summary summary;
  // The bootstrap interval resamples unpaired cells only.
  bool hasPaired = false;
  for (std::vector<PivotCell> &row : pivot.cells) {
    PivotCell &cell = row[v];
    ++summary.total;
    if (cell.kind != PivotCell::Kind::Value)
      continue;
    if (cell.paired && metric.isSampled) {
      setPairedRatio(cell);
      values.push_back(baseline ? *cell.ratio : cell.value);
      hasPaired = true;
      continue;
    }
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
    if (metric.isSampled && !cell.isBaseline && !cell.samples.empty() &&
        !base.samples.empty())
      cell.comparison = compareLatency(base.samples, cell.samples);
    if (cell.ratio && *cell.ratio > 0)
      samples.push_back({base.samples, cell.samples});
  }
  summary.geomean = geometricMean(values);
  if (baseline && v != *baseline && metric.isSampled && !hasPaired)
    summary.interval = geomeanRatioInterval(samples);
  for (double value : values)
    summary.used += value > 0;
  return summary;
}

llvm::Expected<Pivot> buildPivot(const SweepRef &sweep,
                                 const std::vector<JobRecord> &jobs,
                                 const PivotRequest &request) {
  Pivot pivot;
  pivot.sweep = sweep;
  pivot.request = request;
  std::map<std::string, size_t> modelIndex, variantIndex;
  std::vector<std::tuple<size_t, size_t, PivotCell>> placed;
  for (const JobRecord &job : jobs) {
    if (modelIndex.emplace(job.model, pivot.models.size()).second)
      pivot.models.push_back(job.model);
    for (auto &[variant, cell] : cellsOf(job, *request.metric)) {
      if (variantIndex.emplace(variant, pivot.variants.size()).second)
        pivot.variants.push_back(variant);
      placed.emplace_back(modelIndex[job.model], variantIndex[variant],
                          std::move(cell));
    }
  }
  pivot.cells.assign(pivot.models.size(),
                     std::vector<PivotCell>(pivot.variants.size()));
  for (auto &[model, variant, cell] : placed)
    pivot.cells[model][variant] = std::move(cell);

  std::optional<size_t> baseline;
  if (request.baseline) {
    auto it = variantIndex.find(*request.baseline);
    if (it == variantIndex.end())
      return llvm::createStringError(
          "no variant '" + *request.baseline + "' in sweep '" + sweep.name +
          "' (variants: " + llvm::join(pivot.variants, ", ") + ")");
    baseline = it->second;
  }

  for (size_t v = 0; v < pivot.variants.size(); ++v)
    pivot.summaries.push_back(
        summarizeVariant(pivot, v, baseline, *request.metric));
  if (!request.metric->isSampled)
    return pivot;
  bool unpaired = llvm::any_of(pivot.cells, [](const auto &row) {
    return llvm::any_of(row, [](const PivotCell &cell) {
      return cell.kind == PivotCell::Kind::Value && !cell.paired;
    });
  });
  if (baseline && unpaired)
    addLatencyNotes(pivot, *baseline);
  for (std::string &note : pairedNotes(jobs))
    pivot.notes.push_back(std::move(note));
  std::optional<std::string> pairedTo = pairedBaseline(pivot);
  if (request.baseline && pairedTo && *pairedTo != *request.baseline)
    pivot.notes.push_back("paired cells stay relative to " + *pairedTo +
                          ", not --baseline " + *request.baseline +
                          ": only it was timed in the same rounds");
  return pivot;
}

} // namespace dispatchlab

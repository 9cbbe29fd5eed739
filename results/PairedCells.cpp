//===- PairedCells.cpp - a COMPARE job's result as pivot cells ------------===//

#include "results/PairedCells.h"

#include "core/support/PairedStatistics.h"
#include "proto/ProtoJson.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace dispatchlab {

std::optional<results::Comparison> comparisonOf(const JobRecord &job) {
  std::optional<results::CompileStats> stats = job.stats();
  if (!stats || !stats->has_comparison())
    return std::nullopt;
  return stats->comparison();
}

namespace {
PairedRatio toPairedRatio(const results::PairedRatio &ratio) {
  PairedRatio paired;
  paired.rounds = ratio.rounds();
  paired.median = ratio.median();
  paired.low = ratio.ci_low();
  paired.high = ratio.ci_high();
  paired.pValue = ratio.p_value();
  return paired;
}

/// The stored verdict, or, when the comparison measured no A/A of its own,
/// the verdict against the host's stored floor (the child judged by the
/// minimum effect alone).
std::string verdictOf(const JobRecord &job,
                      const results::Comparison &comparison,
                      const results::ComparedVariant &variant) {
  if (!variant.has_ratio() || comparison.has_noise_floor() || !job.noiseFloor)
    return variant.verdict();
  PairedRatio floor;
  floor.median = job.noiseFloor->median;
  floor.low = job.noiseFloor->low;
  floor.high = job.noiseFloor->high;
  double band = noiseBand(comparison.min_effect_percent() / 100, floor);
  return judgeRatio(toPairedRatio(variant.ratio()), band).str();
}

/// The variant as a job of its own with only its counts, for metrics other
/// than latency.
PivotCell countsCell(const JobRecord &job,
                     const results::ComparedVariant &variant,
                     const Metric &metric) {
  results::CompileStats stats;
  stats.set_dispatches(variant.dispatches());
  JobRecord alone = job;
  alone.statsJson =
      llvm::formatv("{0}", llvm::json::Value(protoToJson(stats))).str();
  PivotCell cell;
  if (std::optional<double> value = metric.valueOf(alone)) {
    cell.kind = PivotCell::Kind::Value;
    cell.value = *value;
  } else {
    cell.kind = PivotCell::Kind::Failed;
    cell.note = ("no " + metric.name + " in a comparison").str();
  }
  return cell;
}
} // namespace

std::vector<std::pair<std::string, PivotCell>>
pairedCells(const JobRecord &job, const results::Comparison &comparison,
            const Metric &metric) {
  std::vector<std::pair<std::string, PivotCell>> cells;
  std::map<std::string, double> medians;
  const std::string &baseline = comparison.variants().empty()
                                    ? std::string()
                                    : comparison.variants(0).name();
  for (const results::ComparedVariant &variant : comparison.variants()) {
    if (!metric.isSampled) {
      cells.push_back({variant.name(), countsCell(job, variant, metric)});
      continue;
    }
    PivotCell cell;
    cell.kind = PivotCell::Kind::Value;
    PairedCell paired{baseline, std::nullopt,
                      verdictOf(job, comparison, variant), std::nullopt};
    if (variant.has_identical_to()) {
      // Untimed: the latency is the one it is identical to.
      paired.identicalTo = variant.identical_to();
      cell.value = medians[variant.identical_to()];
    } else {
      cell.value = variant.median_ms();
      for (double seconds : variant.samples_seconds())
        cell.samples.push_back(seconds * 1e3);
    }
    medians[variant.name()] = cell.value;
    if (variant.has_ratio())
      paired.ratio = variant.ratio();
    cell.paired = std::move(paired);
    cells.push_back({variant.name(), std::move(cell)});
  }
  return cells;
}

std::vector<std::string> pairedNotes(const std::vector<JobRecord> &jobs) {
  std::vector<std::string> notes;
  for (const JobRecord &job : jobs) {
    std::optional<results::Comparison> comparison = comparisonOf(job);
    if (!comparison)
      continue;
    if (notes.empty())
      notes.push_back(
          "paired: ratio to the comparison's baseline timed in the same "
          "rounds (" +
          comparison->method() +
          "), so drift between jobs cancels; verdicts count a difference "
          "only beyond the minimum effect and the noise floor");
    std::string floor = "none measured (measurement.aa), verdicts by the "
                        "minimum effect alone";
    if (const std::optional<NoiseFloor> &stored = job.noiseFloor)
      floor = llvm::formatv("{0:F3}x [{1:F3}, {2:F3}] over {3} rounds, {4} "
                            "(result #{5})",
                            stored->median, stored->low, stored->high,
                            stored->rounds,
                            stored->resultId == *job.resultId
                                ? "A/A of this comparison"
                                : "newest A/A of host " + stored->hostname +
                                      ", CPU " + stored->cpuClass,
                            stored->resultId);
    notes.push_back(
        llvm::formatv("noise floor of {0}: {1}; minimum effect "
                      "{2:F2}%; {3} rounds, stopped by {4}",
                      job.model, floor, comparison->min_effect_percent(),
                      comparison->rounds(), comparison->stopped_by())
            .str());
  }
  return notes;
}

} // namespace dispatchlab

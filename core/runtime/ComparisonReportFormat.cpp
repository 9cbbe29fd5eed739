//===- ComparisonReportFormat.cpp - a comparison as JSON or a table -------===//

#include "core/runtime/ComparisonReportFormat.h"

#include "core/analysis/StatsJson.h"
#include "proto/ProtoJson.h"

#include "llvm/Support/FormatVariadic.h"

namespace dispatchlab {

namespace {
void setConditions(const HostConditions &conditions,
                   results::HostConditions &record) {
  if (conditions.loadAverage)
    record.set_load_average(*conditions.loadAverage);
  if (conditions.otherRunnableTasks)
    record.set_other_runnable_tasks(*conditions.otherRunnableTasks);
  if (conditions.governor)
    record.set_governor(*conditions.governor);
  if (conditions.frequencyMhz)
    record.set_frequency_mhz(*conditions.frequencyMhz);
  if (conditions.throttleCount)
    record.set_throttle_count(*conditions.throttleCount);
}

void setRatio(const PairedRatio &ratio, results::PairedRatio &record) {
  record.set_rounds(ratio.rounds);
  record.set_median(ratio.median);
  record.set_ci_low(ratio.low);
  record.set_ci_high(ratio.high);
  record.set_p_value(ratio.pValue);
  record.set_half_width_percent(ratio.halfWidthPercent());
}

/// What it cost to have the variant: compiling, its inputs.
void setCosts(const ComparedVariant &variant,
              results::ComparedVariant &record) {
  record.set_code_cache(stringify(variant.codeCache).str());
  if (variant.relinkedFrom)
    record.set_relinked_from(*variant.relinkedFrom);
  record.set_compile_seconds(variant.compileSeconds);
  results::CompilePhases &phases = *record.mutable_compile_phases_seconds();
  phases.set_import(variant.importSeconds);
  phases.set_formation(variant.formationSeconds);
  phases.set_codegen(variant.codegenSeconds);
  phases.set_jit(variant.jitSeconds);
  record.set_inputs_seconds(variant.inputsSeconds);
  record.set_input_bytes(variant.inputBytes);
}

void setVariant(const ComparedVariant &variant,
                const std::optional<PairedRatio> &floor, double minEffect,
                results::ComparedVariant &record) {
  record.set_name(variant.name);
  record.set_options(variant.options);
  record.set_dispatches(variant.dispatches);
  if (variant.identicalTo)
    record.set_identical_to(*variant.identicalTo);
  record.set_verdict(verdict(variant, floor, minEffect).str());
  for (double seconds : variant.samplesSeconds)
    record.add_samples_seconds(seconds);
  record.set_median_ms(variant.stats.medianMs);
  record.set_cv(variant.stats.cv);
  record.set_output_difference(variant.outputDifference);
  for (const std::vector<double> &samples : variant.copySamplesSeconds) {
    results::LinkedCopySamples &copy = *record.add_copy_samples();
    for (double seconds : samples)
      copy.add_samples_seconds(seconds);
  }
  if (variant.ratio)
    setRatio(*variant.ratio, *record.mutable_ratio());
  setCosts(variant, record);
}

std::string describe(const HostConditions &conditions) {
  auto text = [](const auto &value, const char *format) -> std::string {
    return value ? llvm::formatv(format, *value).str() : "unknown";
  };
  return llvm::formatv("load {0}, {1} other runnable task(s), {2} MHz, "
                       "governor {3}",
                       text(conditions.loadAverage, "{0:F2}"),
                       text(conditions.otherRunnableTasks, "{0}"),
                       text(conditions.frequencyMhz, "{0:F0}"),
                       conditions.governor.value_or("unknown"))
      .str();
}

std::string formatRatio(const ComparedVariant &variant) {
  if (!variant.ratio)
    return llvm::formatv("{0,-8} {1,-18} {2,-8}", "-", "-", "-");
  const PairedRatio &ratio = *variant.ratio;
  std::string p = ratio.pValue < 0.001
                      ? "<0.001"
                      : llvm::formatv("{0:F3}", ratio.pValue).str();
  return llvm::formatv(
      "{0,-8} {1,-18} {2,-8}", llvm::formatv("{0:F3}x", ratio.median),
      llvm::formatv("[{0:F3}, {1:F3}]", ratio.low, ratio.high), p);
}
} // namespace

/// How the rounds went: their number, batching, why they stopped.
static void setRounds(const CompareOptions &options,
                      const ComparisonReport &report,
                      results::Comparison &record) {
  record.set_rounds(report.rounds);
  record.set_calls_per_sample(report.callsPerSample);
  record.set_min_sample_ms(options.minSampleSeconds * 1000);
  record.set_stopped_by(stringify(report.stop).str());
  record.set_rounds_seconds(report.roundsSeconds);
  record.set_order_seed(report.orderSeed);
  record.set_target_ci_percent(options.targetCiPercent);
  record.set_min_effect_percent(options.minEffect * 100);
  record.set_budget_seconds(options.budgetSeconds);
}

results::Comparison toRecord(const CompareOptions &options,
                             const ComparisonReport &report) {
  std::optional<PairedRatio> floor = noiseFloor(report);
  results::Comparison record;
  record.set_model(options.run.modelPath);
  record.set_schedule(stringify(options.schedule).str());
  record.set_injected_drift(options.injectDrift);
  record.set_method(methodOf(options.schedule, report.copies));
  record.set_copies(report.copies);
  record.set_compiles(report.compiles);
  setRounds(options, report, record);
  record.set_threads(options.run.codegen.threads);
  for (int cpu : report.pinnedCpus)
    record.add_pinned_cpus(cpu);
  setConditions(report.before, *record.mutable_host_before());
  setConditions(report.after, *record.mutable_host_after());
  if (floor)
    setRatio(*floor, *record.mutable_noise_floor());
  for (const ComparedVariant &variant : report.variants)
    setVariant(variant, floor, options.minEffect, *record.add_variants());
  *record.mutable_provenance() = currentProvenanceRecord();
  return record;
}

llvm::json::Value toJson(const CompareOptions &options,
                         const ComparisonReport &report) {
  return protoToJson(toRecord(options, report));
}

void printTable(const CompareOptions &options, const ComparisonReport &report,
                llvm::raw_ostream &os) {
  std::optional<PairedRatio> floor = noiseFloor(report);
  os << llvm::formatv(
      "{0}: {1} rounds of {7} call(s) per variant in {2:F3} s "
      "(stopped by {3}; target +-{4}%), order seed {5}, pinned "
      "to CPU {6}\n",
      options.run.modelPath, report.rounds, report.roundsSeconds,
      stringify(report.stop), options.targetCiPercent, report.orderSeed,
      llvm::join(llvm::map_range(report.pinnedCpus,
                                 [](int cpu) { return std::to_string(cpu); }),
                 ","),
      report.callsPerSample);
  os << "method: " << methodOf(options.schedule, report.copies) << "\n";
  os << "host before: " << describe(report.before) << "\n";
  os << "host after:  " << describe(report.after) << "\n";
  os << llvm::formatv(
      "{0,-24} {1,10} {2,12} {3,7}  {4,-8} {5,-18} {6,-8} {7}\n", "variant",
      "dispatches", "median", "cv", "ratio", "95% interval", "p", "verdict");
  for (const ComparedVariant &variant : report.variants) {
    std::string median =
        variant.identicalTo ? "-"
        : variant.stats.medianMs < 1
            ? llvm::formatv("{0:F3} us", variant.stats.medianMs * 1000).str()
            : llvm::formatv("{0:F3} ms", variant.stats.medianMs).str();
    std::string cv =
        variant.identicalTo
            ? "-"
            : llvm::formatv("{0:F1}%", variant.stats.cv * 100).str();
    std::string verdictText = verdict(variant, floor, options.minEffect).str();
    if (variant.identicalTo)
      verdictText += " to " + *variant.identicalTo;
    os << llvm::formatv("{0,-24} {1,10} {2,12} {3,7}  {4} {5}\n", variant.name,
                        variant.dispatches, median, cv, formatRatio(variant),
                        verdictText);
  }
}

} // namespace dispatchlab

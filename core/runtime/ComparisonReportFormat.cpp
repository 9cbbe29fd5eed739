//===- ComparisonReportFormat.cpp - a comparison as JSON or a table -------===//

#include "core/runtime/ComparisonReportFormat.h"

#include "core/support/Provenance.h"

#include "llvm/Support/FormatVariadic.h"

namespace dispatchlab {

namespace {
llvm::json::Value toJson(const HostConditions &conditions) {
  return llvm::json::Object{
      {"load_average", conditions.loadAverage},
      {"other_runnable_tasks", conditions.otherRunnableTasks},
      {"governor", conditions.governor},
      {"frequency_mhz", conditions.frequencyMhz},
      {"throttle_count", conditions.throttleCount}};
}

llvm::json::Value toJson(const PairedRatio &ratio) {
  return llvm::json::Object{{"rounds", ratio.rounds},
                            {"median", ratio.median},
                            {"ci_low", ratio.low},
                            {"ci_high", ratio.high},
                            {"p_value", ratio.pValue},
                            {"half_width_percent", ratio.halfWidthPercent()}};
}

llvm::json::Value toJson(const ComparedVariant &variant,
                         const std::optional<PairedRatio> &floor,
                         double minEffect) {
  llvm::json::Object object{{"name", variant.name},
                            {"options", variant.options},
                            {"dispatches", variant.dispatches},
                            {"identical_to", variant.identicalTo},
                            {"verdict", verdict(variant, floor, minEffect)},
                            {"samples_seconds", variant.samplesSeconds},
                            {"median_ms", variant.stats.medianMs},
                            {"cv", variant.stats.cv},
                            {"output_difference", variant.outputDifference}};
  llvm::json::Array copies;
  for (const std::vector<double> &samples : variant.copySamplesSeconds)
    copies.push_back(llvm::json::Object{{"samples_seconds", samples}});
  if (!copies.empty())
    object["copy_samples"] = std::move(copies);
  object["ratio"] = variant.ratio ? toJson(*variant.ratio) : nullptr;
  object["code_cache"] = stringify(variant.codeCache);
  object["relinked_from"] = variant.relinkedFrom;
  object["compile_seconds"] = variant.compileSeconds;
  object["compile_phases_seconds"] =
      llvm::json::Object{{"import", variant.importSeconds},
                         {"formation", variant.formationSeconds},
                         {"codegen", variant.codegenSeconds},
                         {"jit", variant.jitSeconds}};
  object["inputs_seconds"] = variant.inputsSeconds;
  object["input_bytes"] = variant.inputBytes;
  return object;
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

llvm::json::Value toJson(const CompareOptions &options,
                         const ComparisonReport &report) {
  std::optional<PairedRatio> floor = noiseFloor(report);
  llvm::json::Array variants;
  for (const ComparedVariant &variant : report.variants)
    variants.push_back(toJson(variant, floor, options.minEffect));
  return llvm::json::Object{
      {"model", options.run.modelPath},
      {"schedule", stringify(options.schedule)},
      {"injected_drift", options.injectDrift},
      {"method", methodOf(options.schedule, report.copies)},
      {"copies", int64_t(report.copies)},
      {"compiles", report.compiles},
      {"rounds", report.rounds},
      {"calls_per_sample", int64_t(report.callsPerSample)},
      {"min_sample_ms", options.minSampleSeconds * 1000},
      {"stopped_by", stringify(report.stop)},
      {"rounds_seconds", report.roundsSeconds},
      {"order_seed", int64_t(report.orderSeed)},
      {"target_ci_percent", options.targetCiPercent},
      {"min_effect_percent", options.minEffect * 100},
      {"budget_seconds", options.budgetSeconds},
      {"threads", int64_t(options.run.codegen.threads)},
      {"pinned_cpus", report.pinnedCpus},
      {"host_before", toJson(report.before)},
      {"host_after", toJson(report.after)},
      {"noise_floor", floor ? toJson(*floor) : nullptr},
      {"variants", std::move(variants)},
      {"provenance", Provenance::current().toJson()}};
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

//===- RunReportFormat.cpp - a run's report as JSON or a table ------------===//

#include "core/runtime/RunReportFormat.h"

#include "core/analysis/StatsJson.h"
#include "core/support/Provenance.h"
#include "proto/ProtoJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace dispatchlab {

namespace {
llvm::json::Array signatureJson(const std::vector<TensorSignature> &tensors,
                                const std::vector<InputSource> *sources) {
  llvm::json::Array array;
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    llvm::json::Object object{
        {"name", tensor.name},
        {"dtype", getElementTypeName(tensor.type)},
        {"shape", llvm::json::Array(tensor.shape)},
    };
    if (sources)
      object["source"] = stringify((*sources)[index]);
    array.push_back(std::move(object));
  }
  return array;
}

/// The part of the run JSON that sweep reports read back: its keys are
/// results.proto's Latency.
llvm::json::Object latencyJson(const LatencyMeasurement &measurement) {
  const LatencyStats &latency = measurement.stats;
  results::Latency record;
  record.set_repetitions(latency.repetitions);
  record.set_median_ms(latency.medianMs);
  record.set_mean_ms(latency.meanMs);
  record.set_stddev_ms(latency.stddevMs);
  record.set_cv(latency.cv);
  record.set_min_ms(latency.minMs);
  for (double seconds : measurement.samplesSeconds)
    record.add_samples_ms(seconds * 1e3);
  record.mutable_warmup()->set_calls(measurement.warmupCalls);
  record.mutable_warmup()->set_seconds(measurement.warmupSeconds);
  return protoToJson(record);
}

llvm::json::Object precisionJson(const PrecisionBasis &basis) {
  return llvm::json::Object{{"element_type", basis.elementType},
                            {"unit_roundoff", basis.unitRoundoff},
                            {"rounding_steps", basis.roundingSteps}};
}

llvm::json::Value dispatchProfileJson(const DispatchProfile &profile) {
  llvm::json::Array dispatches;
  for (const DispatchTiming &timing : profile.dispatches)
    dispatches.push_back(llvm::json::Object{{"index", int64_t(timing.index)},
                                            {"dispatch", timing.dispatch},
                                            {"root_op", timing.rootOp},
                                            {"calls", timing.calls},
                                            {"median_ms", timing.medianMs},
                                            {"share", timing.share}});
  return std::move(dispatches);
}

llvm::json::Object dispatchProfileSummaryJson(const DispatchProfile &profile) {
  return llvm::json::Object{{"repetitions", profile.repetitions},
                            {"model_median_ms", profile.modelMedianMs},
                            {"dispatch_total_ms", profile.dispatchTotalMs},
                            {"host_overhead_ms", profile.hostOverheadMs},
                            {"codegen_pipeline", profile.pipeline}};
}

/// The dispatches by time, the slowest first.
void printDispatchProfile(const DispatchProfile &profile,
                          llvm::raw_ostream &os) {
  os << llvm::formatv("Dispatch profile (instrumented build, {0} runs; us): "
                      "model median {1:f2}  dispatches {2:f2}  host overhead "
                      "{3:f2}\n",
                      profile.repetitions, profile.modelMedianMs * 1e3,
                      profile.dispatchTotalMs * 1e3,
                      profile.hostOverheadMs * 1e3);
  std::vector<const DispatchTiming *> sorted;
  for (const DispatchTiming &timing : profile.dispatches)
    sorted.push_back(&timing);
  llvm::stable_sort(sorted,
                    [](const DispatchTiming *a, const DispatchTiming *b) {
                      return a->medianMs > b->medianMs;
                    });
  size_t nameWidth = 8, rootWidth = 7;
  for (const DispatchTiming *timing : sorted) {
    nameWidth = std::max(nameWidth, timing->dispatch.size());
    rootWidth = std::max(rootWidth, timing->rootOp.size());
  }
  auto printRow = [&](llvm::StringRef name, llvm::StringRef root,
                      llvm::StringRef calls, llvm::StringRef median,
                      llvm::StringRef share) {
    os << llvm::formatv(
        "  {0}  {1}  {2}  {3}  {4}\n",
        llvm::fmt_align(name, llvm::AlignStyle::Left, nameWidth),
        llvm::fmt_align(root, llvm::AlignStyle::Left, rootWidth),
        llvm::fmt_align(calls, llvm::AlignStyle::Right, 5),
        llvm::fmt_align(median, llvm::AlignStyle::Right, 9),
        llvm::fmt_align(share, llvm::AlignStyle::Right, 6));
  };
  printRow("dispatch", "root op", "calls", "median us", "share");
  for (const DispatchTiming *timing : sorted)
    printRow(timing->dispatch, timing->rootOp, std::to_string(timing->calls),
             llvm::formatv("{0:f2}", timing->medianMs * 1e3).str(),
             llvm::formatv("{0:f1}%", timing->share * 100).str());
}

/// The run's summary, without the dispatch profile.
void printSummary(const RunOptions &options, const RunReport &report,
                  llvm::raw_ostream &os) {
  const CompiledVariant &variant = report.variant;
  const ReferenceOutputs *reference =
      report.reference ? &*report.reference : nullptr;
  const ModelInputs &inputs = report.inputs;
  const Measurement &measurement = report.measurement;
  const LatencyStats &latency = measurement.latency.stats;
  const CompiledModel &model = variant.model;
  os << "Model: " << options.modelPath << "\n";
  os << "Dispatches: " << variant.stats.dispatches
     << "  Executables: " << variant.stats.executables;
  if (reference)
    os << "  (reference " << kReferencePreset
       << " with loops: " << reference->dispatches << " dispatches)";
  os << "\n";
  os << llvm::formatv("Compile (s): import {0:f4}  preprocessing {1:f4}  "
                      "formation {2:f4}  codegen {3:f4}  jit {4:f4}\n",
                      variant.importSeconds, variant.preprocessingSeconds,
                      variant.formationSeconds, model.codegenSeconds,
                      model.jitSeconds);
  if (!options.cacheDirectory.empty())
    os << "Cache: reference " << stringify(report.referenceCache) << ", code "
       << (report.variant.model.objectCacheHit.value_or(false) ? "hit" : "miss")
       << " (" << options.cacheDirectory << ")\n";
  // Microseconds: small models take well under one.
  os << llvm::formatv("Latency (us, {0} runs): median {1:f2}  mean {2:f2}  "
                      "stddev {3:f2}  cv {4:f3}  min {5:f2}\n",
                      latency.repetitions, latency.medianMs * 1e3,
                      latency.meanMs * 1e3, latency.stddevMs * 1e3, latency.cv,
                      latency.minMs * 1e3);
  os << "Pinned to CPU(s): "
     << llvm::join(llvm::map_range(measurement.pinnedCpus,
                                   [](int cpu) { return std::to_string(cpu); }),
                   ",")
     << "  (warm-up: " << measurement.latency.warmupCalls << " calls)\n";
  os << "Memory (bytes): peak RSS " << measurement.peakRssBytes
     << "  code size " << model.codeSizeBytes << "  transient peak "
     << model.transientPeakBytes << "  packed weights " << model.packedBytes
     << "\n";
  int64_t random = llvm::count(inputs.sources, InputSource::Random);
  int64_t packed = llvm::count(inputs.sources, InputSource::Packed);
  os << "Inputs: " << model.inputs.size() - packed << " (" << random
     << " random, " << llvm::count(inputs.sources, InputSource::File)
     << " from files, " << llvm::count(inputs.sources, InputSource::Parameter)
     << " model weights)";
  if (packed)
    os << llvm::formatv("; the initializer packs {0} weight(s) in {1:F1} ms",
                        packed, measurement.initializerSeconds * 1e3);
  os << "\n";
  for (const DispatchTemporaries &temporaries : model.temporaries)
    if (temporaries.allocations)
      os << "Temporaries: " << temporaries.dispatch << " allocates "
         << temporaries.bytes << " bytes in " << temporaries.allocations
         << " buffer(s)\n";
  for (const OutputCheck &check : report.checks)
    os << llvm::formatv("Output {0} vs {1}: max |a-b| {2:e2}, relative "
                        "{3:e2} ({4})\n",
                        check.name, check.against, check.difference.maxAbsDiff,
                        check.difference.relative,
                        check.passed() ? "ok" : "MISMATCH");
}

llvm::json::Array checksJson(const std::vector<OutputCheck> &checks) {
  llvm::json::Array checkJson;
  for (const OutputCheck &check : checks)
    checkJson.push_back(llvm::json::Object{
        {"output", check.name},
        {"against", check.against},
        {"max_abs_diff", check.difference.maxAbsDiff},
        {"max_abs_reference", check.difference.maxAbsReference},
        {"relative_diff", std::isfinite(check.difference.relative)
                              ? llvm::json::Value(check.difference.relative)
                              : llvm::json::Value(nullptr)},
        {"non_finite", check.difference.nonFinite},
        {"tolerance", check.tolerance},
        {"passed", check.passed()}});
  return checkJson;
}

llvm::json::Array temporariesJson(const CompiledModel &model) {
  llvm::json::Array temporaries;
  for (const DispatchTemporaries &entry : model.temporaries)
    temporaries.push_back(
        llvm::json::Object{{"dispatch", entry.dispatch},
                           {"bytes", entry.bytes},
                           {"allocations", entry.allocations}});
  return temporaries;
}

llvm::json::Value referenceJson(const RunReport &report) {
  if (!report.reference)
    return "self";
  return llvm::json::Object{{"preset", kReferencePreset},
                            {"codegen", stringify(CodegenMode::Loops)},
                            {"dispatches", report.reference->dispatches}};
}

llvm::json::Object cacheJson(const RunOptions &options,
                             const RunReport &report) {
  llvm::json::Object json{{"code", stringify(codeCacheUse(report))},
                          {"reference", stringify(report.referenceCache)}};
  if (!options.cacheDirectory.empty())
    json["directory"] = options.cacheDirectory;
  return json;
}

llvm::json::Object wallSecondsJson(const RunPhases &phases) {
  return llvm::json::Object{{"compile", phases.compile},
                            {"inputs", phases.inputs},
                            {"reference", phases.reference},
                            {"measure", phases.measure},
                            {"profile", phases.profile}};
}

llvm::json::Object compileSecondsJson(const CompiledVariant &variant) {
  return llvm::json::Object{{"import", variant.importSeconds},
                            {"preprocessing", variant.preprocessingSeconds},
                            {"formation", variant.formationSeconds},
                            {"codegen", variant.model.codegenSeconds},
                            {"jit", variant.model.jitSeconds}};
}
} // namespace

llvm::json::Value toJson(const RunOptions &options, const RunReport &report) {
  const CompiledVariant &variant = report.variant;
  const CompiledModel &model = variant.model;
  const Measurement &measurement = report.measurement;
  llvm::json::Object json{
      {"model", options.modelPath},
      {"compile", toJson(variant.stats)},
      {"codegen", stringify(options.codegen.mode)},
      {"reference", referenceJson(report)},
      {"compile_seconds", compileSecondsJson(variant)},
      {"latency", latencyJson(measurement.latency)},
      {"threads", options.codegen.threads},
      {"pinned_cpus", llvm::json::Array(measurement.pinnedCpus)},
      {"allocator", measurement.allocator},
      {"peak_rss_bytes", measurement.peakRssBytes},
      {"code_size_bytes", model.codeSizeBytes},
      {"transient_peak_bytes", model.transientPeakBytes},
      {"packed_weight_bytes", model.packedBytes},
      {"initializer_seconds", measurement.initializerSeconds},
      {"inputs", signatureJson(model.inputs, &report.inputs.sources)},
      {"outputs", signatureJson(model.outputs, nullptr)},
      {"checks", checksJson(report.checks)},
      {"tolerance", options.tolerance},
      {"precision", precisionJson(variant.precision)},
      {"target", llvm::json::Object{{"cpu", model.targetCpu},
                                    {"features", model.targetFeatures},
                                    {"vector_width", model.vectorWidth}}},
      {"seed", options.seed},
      {"temporaries", temporariesJson(model)},
      {"codegen_pipeline", model.pipeline},
      {"provenance", Provenance::current().toJson()},
      {"cache", cacheJson(options, report)},
      {"wall_seconds", wallSecondsJson(report.phases)},
  };
  if (report.profile) {
    json["dispatch_profile"] = dispatchProfileJson(*report.profile);
    json["dispatch_profile_summary"] =
        dispatchProfileSummaryJson(*report.profile);
  }
  return std::move(json);
}

void printTable(const RunOptions &options, const RunReport &report,
                llvm::raw_ostream &os) {
  printSummary(options, report, os);
  if (report.profile)
    printDispatchProfile(*report.profile, os);
}

} // namespace dispatchlab

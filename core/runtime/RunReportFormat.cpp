//===- RunReportFormat.cpp - a run's report as JSON or a table ------------===//

#include "core/runtime/RunReportFormat.h"

#include "core/analysis/StatsJson.h"
#include "proto/ProtoJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace dispatchlab {

namespace {
void addSignature(
    const std::vector<TensorSignature> &tensors,
    const std::vector<InputSource> *sources,
    google::protobuf::RepeatedPtrField<results::TensorSignature> &records) {
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    results::TensorSignature &record = *records.Add();
    record.set_name(tensor.name);
    record.set_dtype(getElementTypeName(tensor.type).str());
    for (int64_t dim : tensor.shape)
      record.add_shape(dim);
    if (sources)
      record.set_source(stringify((*sources)[index]).str());
  }
}

void setLatency(const LatencyMeasurement &measurement,
                results::Latency &record) {
  const LatencyStats &latency = measurement.stats;
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
}

void setPrecision(const PrecisionBasis &basis,
                  results::PrecisionBasis &record) {
  record.set_element_type(basis.elementType);
  record.set_unit_roundoff(basis.unitRoundoff);
  record.set_rounding_steps(basis.roundingSteps);
}

void setDispatchProfile(const DispatchProfile &profile,
                        results::RunResult &record) {
  for (const DispatchTiming &timing : profile.dispatches) {
    results::DispatchTiming &entry = *record.add_dispatch_profile();
    entry.set_index(timing.index);
    entry.set_dispatch(timing.dispatch);
    entry.set_root_op(timing.rootOp);
    entry.set_calls(timing.calls);
    entry.set_median_ms(timing.medianMs);
    entry.set_share(timing.share);
  }
  results::DispatchProfileSummary &summary =
      *record.mutable_dispatch_profile_summary();
  summary.set_repetitions(profile.repetitions);
  summary.set_model_median_ms(profile.modelMedianMs);
  summary.set_dispatch_total_ms(profile.dispatchTotalMs);
  summary.set_host_overhead_ms(profile.hostOverheadMs);
  summary.set_codegen_pipeline(profile.pipeline);
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
       << model.objectCacheHits.value_or(0) << " of " << model.codeObjects
       << " objects (" << options.cacheDirectory << ")\n";
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
    os << llvm::formatv("; the initializer computes {0} weight(s) in {1:F1} ms",
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

void addChecks(const std::vector<OutputCheck> &checks,
               results::RunResult &record) {
  for (const OutputCheck &check : checks) {
    results::OutputCheck &entry = *record.add_checks();
    entry.set_output(check.name);
    entry.set_against(check.against);
    entry.set_max_abs_diff(check.difference.maxAbsDiff);
    entry.set_max_abs_reference(check.difference.maxAbsReference);
    if (std::isfinite(check.difference.relative))
      entry.set_relative_diff(check.difference.relative);
    entry.set_non_finite(check.difference.nonFinite);
    entry.set_tolerance(check.tolerance);
    entry.set_passed(check.passed());
  }
}

void setReference(const RunReport &report, google::protobuf::Value &value) {
  if (!report.reference) {
    value.set_string_value("self");
    return;
  }
  auto &fields = *value.mutable_struct_value()->mutable_fields();
  fields["preset"].set_string_value(kReferencePreset.str());
  fields["codegen"].set_string_value(stringify(CodegenMode::Loops).str());
  fields["dispatches"].set_number_value(report.reference->dispatches);
}

void setCache(const RunOptions &options, const RunReport &report,
              results::CacheUse &record) {
  record.set_code(stringify(codeCacheUse(report)).str());
  record.set_reference(stringify(report.referenceCache).str());
  if (!options.cacheDirectory.empty())
    record.set_directory(options.cacheDirectory);
  const CompiledModel &model = report.variant.model;
  if (model.objectCacheHits) {
    record.set_code_objects(model.codeObjects);
    record.set_code_object_hits(*model.objectCacheHits);
  }
}

void setPhases(const RunReport &report, results::RunResult &record) {
  const RunPhases &phases = report.phases;
  results::RunPhases &wall = *record.mutable_wall_seconds();
  wall.set_compile(phases.compile);
  wall.set_inputs(phases.inputs);
  wall.set_reference(phases.reference);
  wall.set_measure(phases.measure);
  wall.set_profile(phases.profile);
  const CompiledVariant &variant = report.variant;
  results::CompilePhases &compile = *record.mutable_compile_seconds();
  compile.set_import(variant.importSeconds);
  compile.set_preprocessing(variant.preprocessingSeconds);
  compile.set_formation(variant.formationSeconds);
  compile.set_codegen(variant.model.codegenSeconds);
  compile.set_jit(variant.model.jitSeconds);
}

/// The compiled model: its target, code, memory and signature.
void setModel(const RunReport &report, results::RunResult &record) {
  const CompiledModel &model = report.variant.model;
  record.set_code_size_bytes(model.codeSizeBytes);
  record.set_transient_peak_bytes(model.transientPeakBytes);
  record.set_packed_weight_bytes(model.packedBytes);
  record.set_codegen_pipeline(model.pipeline);
  results::CodegenTarget &target = *record.mutable_target();
  target.set_cpu(model.targetCpu);
  target.set_features(model.targetFeatures);
  target.set_vector_width(model.vectorWidth);
  addSignature(model.inputs, &report.inputs.sources, *record.mutable_inputs());
  addSignature(model.outputs, nullptr, *record.mutable_outputs());
  for (const DispatchTemporaries &entry : model.temporaries) {
    results::DispatchTemporaries &temporaries = *record.add_temporaries();
    temporaries.set_dispatch(entry.dispatch);
    temporaries.set_bytes(entry.bytes);
    temporaries.set_allocations(entry.allocations);
  }
}

void setMeasurement(const Measurement &measurement,
                    results::RunResult &record) {
  setLatency(measurement.latency, *record.mutable_latency());
  for (int cpu : measurement.pinnedCpus)
    record.add_pinned_cpus(cpu);
  record.set_allocator(measurement.allocator);
  record.set_peak_rss_bytes(measurement.peakRssBytes);
  record.set_initializer_seconds(measurement.initializerSeconds);
}

} // namespace

results::RunResult toRecord(const RunOptions &options,
                            const RunReport &report) {
  results::RunResult record;
  record.set_model(options.modelPath);
  *record.mutable_compile() = toRecord(report.variant.stats);
  record.set_codegen(stringify(options.codegen.mode).str());
  setReference(report, *record.mutable_reference());
  record.set_threads(options.codegen.threads);
  record.set_tolerance(options.tolerance);
  record.set_seed(options.seed);
  setPrecision(report.variant.precision, *record.mutable_precision());
  setModel(report, record);
  setMeasurement(report.measurement, record);
  addChecks(report.checks, record);
  *record.mutable_provenance() = currentProvenanceRecord();
  setCache(options, report, *record.mutable_cache());
  setPhases(report, record);
  if (report.profile)
    setDispatchProfile(*report.profile, record);
  return record;
}

llvm::json::Value toJson(const RunOptions &options, const RunReport &report) {
  return protoToJson(toRecord(options, report));
}

void printTable(const RunOptions &options, const RunReport &report,
                llvm::raw_ostream &os) {
  printSummary(options, report, os);
  if (report.profile)
    printDispatchProfile(*report.profile, os);
}

} // namespace dispatchlab

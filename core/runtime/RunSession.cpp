//===- RunSession.cpp - one `dispatchlab run`, as a library call ----------===//

#include "core/runtime/RunSession.h"

#include "core/onnx/OnnxModelFile.h"
#include "core/pipeline/DispatchCreationPipeline.h"
#include "core/pipeline/ModelLoader.h"
#include "core/pipeline/Registration.h"
#include "core/runtime/DispatchProfiler.h"
#include "core/runtime/ParameterData.h"
#include "core/support/ContentCache.h"
#include "core/support/HostMemory.h"
#include "core/support/HostPinning.h"
#include "core/support/Timing.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <sys/resource.h>

using namespace mlir;

namespace dispatchlab {

namespace {
/// A failure the diagnostics already reported.
llvm::Error reported() { return llvm::createStringError(""); }

/// The cache directory's subdirectory of reference outputs.
constexpr llvm::StringLiteral kReferenceCacheKind = "reference";

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

FailureOr<CompiledVariant> compileVariant(const RunOptions &run,
                                          const HeuristicOptions &options,
                                          CodegenOptions codegen) {
  // Every build of the run (variant, reference, instrumented) shares it.
  codegen.objectCacheDirectory = run.cacheDirectory;
  codegen.objectCacheMaxBytes = run.cacheMaxBytes;
  CompiledVariant variant;
  DialectRegistry registry;
  registerDialects(registry);
  registerCodegenDialects(registry);
  registerPasses();
  variant.context = std::make_unique<MLIRContext>(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, variant.context.get());

  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module =
      loadModel(run.modelPath, *variant.context, sourceMgr, run.import);
  if (!module)
    return failure();
  variant.importSeconds = secondsSince(start);

  FailureOr<DispatchCreationResult> result =
      runDispatchCreation(*module, options);
  if (failed(result))
    return failure();
  variant.preprocessingSeconds = result->prepareSeconds;
  variant.formationSeconds = result->fuseSeconds + result->formSeconds;
  variant.stats = computeCompileStats(*module);
  variant.stats.model = run.modelPath;
  variant.stats.options = options.toString();
  variant.stats.genericBefore = result->genericBefore;
  variant.stats.genericAfter = result->genericAfter;
  variant.precision = analyzePrecision(*module);

  FailureOr<CompiledModel> compiled = compileForHost(*module, codegen);
  if (failed(compiled))
    return failure();
  variant.model = std::move(*compiled);
  return variant;
}

/// The process's peak resident set so far (compilation included).
int64_t getPeakRssBytes() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return -1;
  // Linux reports kilobytes.
  return int64_t(usage.ru_maxrss) * 1024;
}

/// Pins the process for the run's threads, then times the model's calls
/// (outputs land in `outputs`).
llvm::Expected<Measurement> measure(const RunOptions &options,
                                    const CompiledModel &model,
                                    std::vector<HostArray> &inputs,
                                    std::vector<HostArray> &outputs) {
  unsigned threads = options.codegen.threads;
  Measurement measurement;
  measurement.allocator = retainFreedMemory().str();
  llvm::Expected<std::vector<int>> pinned = pinForThreads(threads);
  if (!pinned)
    return fail(llvm::formatv("pinning to {0} CPU(s) failed: {1}", threads,
                              llvm::toString(pinned.takeError())));
  measurement.pinnedCpus = std::move(*pinned);
  if (measurement.pinnedCpus.size() < threads && options.warn)
    options.warn(llvm::formatv("--threads={0} but this process may only use "
                               "{1} CPU(s)",
                               threads, measurement.pinnedCpus.size()));
  llvm::Expected<PreparedCall> call =
      PreparedCall::create(model, inputs, outputs);
  if (!call)
    return fail("calling the model failed: " +
                llvm::toString(call.takeError()));
  measurement.initializerSeconds = call->getInitializerSeconds();
  llvm::Expected<LatencyMeasurement> latency = measureLatency(
      [&]() -> llvm::Error {
        (*call)();
        return llvm::Error::success();
      },
      options.repetitions, options.warmupSeconds);
  if (!latency)
    return fail("calling the model failed: " +
                llvm::toString(latency.takeError()));
  measurement.latency = std::move(*latency);
  measurement.peakRssBytes = getPeakRssBytes();
  return measurement;
}

/// One check per output against the reference's outputs.
llvm::Error checkAgainstReference(RunReport &report, double tolerance) {
  const CompiledModel &model = report.variant.model;
  const std::vector<HostArray> &referenceOutputs = report.reference->outputs;
  if (referenceOutputs.size() != model.outputs.size())
    return fail(llvm::Twine("the ") + kReferencePreset +
                " reference has another signature");
  for (auto [index, output] : llvm::enumerate(model.outputs))
    report.checks.push_back(
        {output.name, kReferencePreset.str(),
         compareArrays(report.outputs[index], referenceOutputs[index]),
         tolerance});
  return llvm::Error::success();
}

llvm::Error checkExpectedOutputs(const RunOptions &options, RunReport &report,
                                 double tolerance) {
  const CompiledModel &model = report.variant.model;
  for (const auto &[name, array] : options.expectedOutputs) {
    auto it = llvm::find_if(model.outputs, [&](const TensorSignature &output) {
      return output.name == name;
    });
    if (it == model.outputs.end())
      return llvm::createStringError(
          std::make_error_code(std::errc::invalid_argument),
          "--expected-output names '" + name +
              "', which is no output of the model (outputs are resultN)");
    report.checks.push_back(
        {name, "expected-output",
         compareArrays(report.outputs[it - model.outputs.begin()], array),
         tolerance});
  }
  return llvm::Error::success();
}

/// Per-dispatch medians of the instrumented calls, in program order.
DispatchProfile summarizeProfile(const CompiledVariant &variant,
                                 const DispatchProfiler &profiler,
                                 std::vector<double> modelSeconds) {
  llvm::StringMap<std::string> rootOps;
  for (const DispatchGroupStats &group : variant.stats.groups)
    rootOps[group.name] = group.rootOp;
  DispatchProfile profile;
  profile.repetitions = modelSeconds.size();
  profile.pipeline = variant.model.pipeline;
  for (auto [index, name] : llvm::enumerate(variant.model.profiledDispatches)) {
    DispatchTiming timing;
    timing.index = index;
    timing.dispatch = name;
    timing.rootOp = rootOps.lookup(name);
    timing.calls = profiler.getCalls(index);
    timing.medianMs = summarizeLatencies(profiler.getSamples(index)).medianMs;
    profile.dispatchTotalMs += timing.medianMs;
    profile.dispatches.push_back(std::move(timing));
  }
  for (DispatchTiming &timing : profile.dispatches)
    timing.share = profile.dispatchTotalMs > 0
                       ? timing.medianMs / profile.dispatchTotalMs
                       : 0;
  profile.modelMedianMs = summarizeLatencies(modelSeconds).medianMs;
  profile.hostOverheadMs = profile.modelMedianMs - profile.dispatchTotalMs;
  return profile;
}

/// Compiles the model again with a clock read around every dispatch call
/// and times `repetitions` calls on `inputs` after a warm-up. Its outputs
/// go into `outputs` so that the caller can check the instrumented code.
llvm::Expected<DispatchProfile>
measureDispatchProfile(const RunOptions &options,
                       std::vector<HostArray> &inputs,
                       std::vector<HostArray> &outputs) {
  CodegenOptions codegen = options.codegen;
  codegen.profileDispatches = true;
  codegen.dispatchBegin = &DispatchProfiler::begin;
  codegen.dispatchEnd = &DispatchProfiler::end;
  FailureOr<CompiledVariant> variant =
      compileVariant(options, options.heuristics, codegen);
  if (failed(variant))
    return fail("compiling the instrumented model failed");
  llvm::Expected<PreparedCall> call =
      PreparedCall::create(variant->model, inputs, outputs);
  if (!call)
    return call.takeError();

  DispatchProfiler profiler(variant->model.profiledDispatches.size());
  profiler.activate();
  auto warmupStart = std::chrono::steady_clock::now();
  do
    (*call)();
  while (secondsSince(warmupStart) < options.warmupSeconds);
  profiler.reset();
  std::vector<double> modelSeconds;
  for (unsigned i = 0; i < options.repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    (*call)();
    modelSeconds.push_back(secondsSince(start));
    profiler.finishModelCall();
  }
  if (profiler.getMismatches() != 0)
    return fail(llvm::formatv("{0} dispatch hook call(s) matched no dispatch",
                              profiler.getMismatches()));
  return summarizeProfile(*variant, profiler, std::move(modelSeconds));
}

/// After the timed calls, so that the latency stays uninstrumented; the
/// instrumented code is checked against the uninstrumented outputs.
llvm::Error profileDispatches(const RunOptions &options, RunReport &report,
                              double tolerance) {
  std::vector<HostArray> profiledOutputs;
  llvm::Expected<DispatchProfile> profile =
      measureDispatchProfile(options, report.inputs.arrays, profiledOutputs);
  if (!profile)
    return fail("profiling dispatches failed: " +
                llvm::toString(profile.takeError()));
  report.profile = std::move(*profile);
  for (auto [index, output] : llvm::enumerate(report.variant.model.outputs))
    report.checks.push_back(
        {output.name, "uninstrumented",
         compareArrays(profiledOutputs[index], report.outputs[index]),
         tolerance});
  return llvm::Error::success();
}

/// The reference is the simplest code: one dispatch per root, scalar
/// loops, in f32.
bool needsReference(const RunOptions &options) {
  FailureOr<HeuristicOptions> referenceOptions =
      HeuristicOptions::fromPreset(kReferencePreset);
  return !(*referenceOptions == options.heuristics &&
           options.codegen.mode == CodegenMode::Loops);
}

llvm::Expected<CompiledVariant> compileReference(const RunOptions &options) {
  FailureOr<HeuristicOptions> referenceOptions =
      HeuristicOptions::fromPreset(kReferencePreset);
  CodegenOptions codegen{CodegenMode::Loops, options.codegen.threads};
  codegen.widenFloats = true;
  FailureOr<CompiledVariant> reference =
      compileVariant(options, *referenceOptions, codegen);
  if (failed(reference))
    return reported();
  return std::move(*reference);
}

/// The reference's outputs for the variant's inputs.
llvm::Expected<ReferenceOutputs> callReference(const CompiledVariant &reference,
                                               const RunReport &report) {
  const CompiledModel &model = reference.model;
  if (model.outputs.size() != report.variant.model.outputs.size())
    return fail(llvm::Twine("the ") + kReferencePreset +
                " reference has another signature");
  // The widened reference takes f32 where the model takes f16.
  std::vector<HostArray> inputs;
  for (auto [array, signature] : llvm::zip(report.inputs.arrays, model.inputs))
    inputs.push_back(convertArray(array, signature.type));
  ReferenceOutputs result;
  result.dispatches = reference.stats.dispatches;
  if (llvm::Error error = invokeModel(model, inputs, result.outputs))
    return fail("calling the reference failed: " +
                llvm::toString(std::move(error)));
  return result;
}

/// The reference's outputs from the cache, or nothing: a damaged entry is
/// a miss (with a warning).
std::optional<ReferenceOutputs> lookupReference(const RunOptions &options,
                                                ContentCache &cache,
                                                llvm::StringRef key) {
  llvm::Expected<std::optional<std::string>> payload =
      cache.lookup(kReferenceCacheKind, key);
  if (!payload) {
    if (options.warn)
      options.warn(llvm::toString(payload.takeError()));
    return std::nullopt;
  }
  if (!*payload)
    return std::nullopt;
  llvm::Expected<ReferenceOutputs> reference = parseReferenceEntry(**payload);
  if (!reference) {
    if (options.warn)
      options.warn("cache " + cache.getDirectory() + ": " +
                   llvm::toString(reference.takeError()) +
                   "; computing it again");
    return std::nullopt;
  }
  return std::move(*reference);
}

/// The reference's outputs for `report`'s inputs: read from the cache when
/// it holds them, else compiled (before the timed calls, as without a
/// cache) and called after them by finishReference.
struct ReferenceStep {
  std::optional<ContentCache> cache;
  std::string key;
  std::optional<CompiledVariant> compiled;
};

llvm::Expected<ReferenceStep> startReference(const RunOptions &options,
                                             RunReport &report) {
  ReferenceStep step;
  if (!options.cacheDirectory.empty()) {
    llvm::Expected<std::string> key = getReferenceKey(options, report.inputs);
    if (!key)
      return key.takeError();
    step.key = std::move(*key);
    step.cache.emplace(options.cacheDirectory, options.cacheMaxBytes);
    report.reference = lookupReference(options, *step.cache, step.key);
    report.referenceCache = report.reference ? CacheUse::Hit : CacheUse::Miss;
    if (report.reference)
      return step;
  }
  llvm::Expected<CompiledVariant> compiled = compileReference(options);
  if (!compiled)
    return compiled.takeError();
  step.compiled = std::move(*compiled);
  return step;
}

llvm::Error finishReference(const RunOptions &options, ReferenceStep &step,
                            RunReport &report) {
  if (!step.compiled)
    return llvm::Error::success();
  llvm::Expected<ReferenceOutputs> reference =
      callReference(*step.compiled, report);
  if (!reference)
    return reference.takeError();
  report.reference = std::move(*reference);
  if (step.cache)
    if (llvm::Error error =
            step.cache->store(kReferenceCacheKind, step.key,
                              formatReferenceEntry(*report.reference)))
      if (options.warn)
        options.warn("cannot cache the reference's outputs: " +
                     llvm::toString(std::move(error)));
  return llvm::Error::success();
}

/// Every check of the outputs, then the profile when asked for.
llvm::Error checkOutputs(const RunOptions &options, RunReport &report) {
  double tolerance =
      deriveTolerance(report.variant.precision, options.tolerance);
  if (report.reference)
    if (llvm::Error error = checkAgainstReference(report, tolerance))
      return error;
  if (llvm::Error error = checkExpectedOutputs(options, report, tolerance))
    return error;
  if (!options.profileDispatches)
    return llvm::Error::success();
  auto start = std::chrono::steady_clock::now();
  llvm::Error error = profileDispatches(options, report, tolerance);
  report.phases.profile = secondsSince(start);
  return error;
}
} // namespace

/// The weights of an ONNX model, read and derived before compiling: a file
/// without them fails in a moment rather than after the compile.
llvm::Expected<std::optional<ParameterData>>
openWeights(const RunOptions &options) {
  if (!options.modelWeights || !onnx_import::isOnnxPath(options.modelPath))
    return std::nullopt;
  llvm::Expected<ParameterData> parameters =
      ParameterData::open(options.modelPath);
  if (!parameters)
    return parameters.takeError();
  if (std::optional<std::string> stripped =
          parameters->findStrippedInitializer())
    return fail("initializer '" + *stripped +
                "' carries no data (stripped weights); --parameters=random "
                "runs without the model's weights");
  CodegenOptions cache;
  cache.objectCacheDirectory = options.cacheDirectory;
  cache.objectCacheMaxBytes = options.cacheMaxBytes;
  if (llvm::Error error = parameters->deriveWeights(options.import, cache))
    return std::move(error);
  return std::optional<ParameterData>(std::move(*parameters));
}

llvm::Expected<RunReport> compileRun(const RunOptions &options) {
  auto start = std::chrono::steady_clock::now();
  FailureOr<CompiledVariant> variant =
      compileVariant(options, options.heuristics, options.codegen);
  if (failed(variant))
    return reported();
  RunReport report{std::move(*variant)};
  report.phases.compile = secondsSince(start);
  return report;
}

/// The variant compiled and its inputs made.
llvm::Expected<RunReport> prepareRun(const RunOptions &options,
                                     const ParameterData *parameters) {
  llvm::Expected<RunReport> compiled = compileRun(options);
  if (!compiled)
    return compiled.takeError();
  RunReport report = std::move(*compiled);
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<ModelInputs> inputs = makeInputs(
      report.variant.model, options.inputs, parameters, options.seed);
  if (!inputs) {
    std::string message = llvm::toString(inputs.takeError());
    // Only a weight that cannot be read is helped by random ones, not a
    // wrong --input file (makeInputs names a weight "parameter '...'").
    bool weightFailed =
        parameters && llvm::StringRef(message).starts_with("parameter '");
    return fail(message + (weightFailed ? " (--parameters=random runs without "
                                          "the model's weights)"
                                        : ""));
  }
  report.inputs = std::move(*inputs);
  report.phases.inputs = secondsSince(start);
  return report;
}

CacheUse codeCacheUse(const RunReport &report) {
  const CompiledModel &model = report.variant.model;
  if (!model.objectCacheHits)
    return CacheUse::Off;
  return *model.objectCacheHits == model.codeObjects ? CacheUse::Hit
                                                     : CacheUse::Miss;
}

llvm::StringRef stringify(CacheUse use) {
  switch (use) {
  case CacheUse::Off:
    return "off";
  case CacheUse::Hit:
    return "hit";
  case CacheUse::Miss:
    return "miss";
  }
  llvm_unreachable("unknown cache use");
}

llvm::Expected<RunReport> runModel(const RunOptions &options) {
  auto weightsStart = std::chrono::steady_clock::now();
  llvm::Expected<std::optional<ParameterData>> parameters =
      openWeights(options);
  if (!parameters)
    return parameters.takeError();
  double weightSeconds = secondsSince(weightsStart);
  llvm::Expected<RunReport> report =
      prepareRun(options, *parameters ? &**parameters : nullptr);
  if (!report)
    return report.takeError();
  // Deriving the weights is part of making the inputs.
  report->phases.inputs += weightSeconds;

  auto start = std::chrono::steady_clock::now();
  std::optional<ReferenceStep> reference;
  if (needsReference(options)) {
    llvm::Expected<ReferenceStep> step = startReference(options, *report);
    if (!step)
      return step.takeError();
    reference = std::move(*step);
  }
  report->phases.reference = secondsSince(start);

  start = std::chrono::steady_clock::now();
  llvm::Expected<Measurement> measurement = measure(
      options, report->variant.model, report->inputs.arrays, report->outputs);
  if (!measurement)
    return measurement.takeError();
  report->measurement = std::move(*measurement);
  report->phases.measure = secondsSince(start);

  start = std::chrono::steady_clock::now();
  if (reference)
    if (llvm::Error error = finishReference(options, *reference, *report))
      return std::move(error);
  report->phases.reference += secondsSince(start);
  if (llvm::Error error = checkOutputs(options, *report))
    return std::move(error);
  return report;
}

} // namespace dispatchlab

//===- RunSession.cpp - one `dispatchlab run`, as a library call ----------===//

#include "core/runtime/RunSession.h"

#include "core/onnx/OnnxModelFile.h"
#include "core/pipeline/DispatchCreationPipeline.h"
#include "core/pipeline/ModelLoader.h"
#include "core/pipeline/Registration.h"
#include "core/runtime/DispatchProfiler.h"
#include "core/runtime/ParameterData.h"
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

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

FailureOr<CompiledVariant> compileVariant(const RunOptions &run,
                                          const HeuristicOptions &options,
                                          const CodegenOptions &codegen) {
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

/// The weights of an ONNX model, read before compiling: a file without
/// them fails in a moment rather than after the compile.
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
  return std::optional<ParameterData>(std::move(*parameters));
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

/// The reference's outputs for the same inputs, one check per output.
llvm::Error checkAgainstReference(RunReport &report, double tolerance) {
  const CompiledModel &model = report.variant.model;
  const CompiledModel &reference = report.reference->model;
  if (reference.outputs.size() != model.outputs.size())
    return fail(llvm::Twine("the ") + kReferencePreset +
                " reference has another signature");
  // The widened reference takes f32 where the model takes f16.
  std::vector<HostArray> referenceInputs;
  for (auto [array, signature] :
       llvm::zip(report.inputs.arrays, reference.inputs))
    referenceInputs.push_back(convertArray(array, signature.type));
  std::vector<HostArray> referenceOutputs;
  if (llvm::Error error =
          invokeModel(reference, referenceInputs, referenceOutputs))
    return fail("calling the reference failed: " +
                llvm::toString(std::move(error)));
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
/// loops, in f32. None when the variant is that already.
llvm::Expected<std::optional<CompiledVariant>>
compileReference(const RunOptions &options) {
  FailureOr<HeuristicOptions> referenceOptions =
      HeuristicOptions::fromPreset(kReferencePreset);
  if (*referenceOptions == options.heuristics &&
      options.codegen.mode == CodegenMode::Loops)
    return std::nullopt;
  CodegenOptions codegen{CodegenMode::Loops, options.codegen.threads};
  codegen.widenFloats = true;
  FailureOr<CompiledVariant> reference =
      compileVariant(options, *referenceOptions, codegen);
  if (failed(reference))
    return reported();
  return std::optional<CompiledVariant>(std::move(*reference));
}
} // namespace

llvm::Expected<RunReport> runModel(const RunOptions &options) {
  llvm::Expected<std::optional<ParameterData>> parameters =
      openWeights(options);
  if (!parameters)
    return parameters.takeError();
  FailureOr<CompiledVariant> variant =
      compileVariant(options, options.heuristics, options.codegen);
  if (failed(variant))
    return reported();
  llvm::Expected<std::optional<CompiledVariant>> reference =
      compileReference(options);
  if (!reference)
    return reference.takeError();

  RunReport report{std::move(*variant), std::move(*reference)};
  llvm::Expected<ModelInputs> inputs =
      makeInputs(report.variant.model, options.inputs,
                 *parameters ? &**parameters : nullptr, options.seed);
  if (!inputs)
    return fail(llvm::toString(inputs.takeError()) +
                (*parameters ? " (--parameters=random runs without "
                               "the model's weights)"
                             : ""));
  report.inputs = std::move(*inputs);

  llvm::Expected<Measurement> measurement = measure(
      options, report.variant.model, report.inputs.arrays, report.outputs);
  if (!measurement)
    return measurement.takeError();
  report.measurement = std::move(*measurement);

  double tolerance =
      deriveTolerance(report.variant.precision, options.tolerance);
  if (report.reference)
    if (llvm::Error error = checkAgainstReference(report, tolerance))
      return std::move(error);
  if (llvm::Error error = checkExpectedOutputs(options, report, tolerance))
    return std::move(error);
  if (options.profileDispatches)
    if (llvm::Error error = profileDispatches(options, report, tolerance))
      return std::move(error);
  return report;
}

} // namespace dispatchlab

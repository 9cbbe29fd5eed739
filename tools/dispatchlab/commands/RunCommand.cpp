//===- RunCommand.cpp - `dispatchlab run` ---------------------------------===//
//
// Forms dispatches under one heuristic variant, compiles every dispatch for
// the host CPU, runs the model and times it; checks the outputs against the
// no-fusion variant (and against expected .npy files when given).
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/RunCommand.h"

#include "tools/dispatchlab/commands/CompileCommand.h"
#include "core/analysis/CompileStats.h"
#include "core/pipeline/DispatchCreationPipeline.h"
#include "core/runtime/DispatchProfiler.h"
#include "core/support/HostMemory.h"
#include "core/support/HostPinning.h"
#include "tools/dispatchlab/commands/ImportCommand.h"
#include "core/runtime/LatencyBenchmark.h"
#include "core/pipeline/ModelLoader.h"
#include "core/runtime/ModelRunner.h"
#include "core/analysis/NumericTolerance.h"
#include "core/support/Provenance.h"
#include "core/pipeline/Registration.h"
#include "core/analysis/StatsJson.h"
#include "core/codegen/CodegenPipeline.h"
#include "core/onnx/OnnxModelFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <cmath>
#include <sys/resource.h>

using namespace mlir;
namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getRunSubcommand() {
  static cl::SubCommand command(
      "run", "Compile every dispatch for the host CPU, run the model and "
             "time it, checking outputs against the no-fusion variant");
  return command;
}

namespace {
constexpr const char *kCommand = "dispatchlab run";
constexpr const char *kReferencePreset = "no-fusion";

cl::OptionCategory runCategory("Running");

cl::opt<std::string> modelPath(cl::Positional,
                               cl::desc("MODEL.mlir|MODEL.onnx"), cl::Required,
                               cl::sub(getRunSubcommand()));
cl::list<std::string>
    inputFiles("input",
               cl::desc("Values of a model input (argument name, or argN)"),
               cl::value_desc("NAME=FILE.npy"), cl::cat(runCategory),
               cl::sub(getRunSubcommand()));
cl::list<std::string> expectedFiles(
    "expected-output",
    cl::desc("Check output NAME (resultN) against FILE.npy as well, with "
             "the same tolerance"),
    cl::value_desc("NAME=FILE.npy"), cl::cat(runCategory),
    cl::sub(getRunSubcommand()));
cl::opt<std::string> parameterMode(
    "parameters",
    cl::desc("Weights of an ONNX model: model (the initializers of the file; "
             "an error when stripped) or random (seeded like inputs)"),
    cl::init("model"), cl::cat(runCategory), cl::sub(getRunSubcommand()));
cl::opt<uint64_t> seed("seed",
                       cl::desc("Seed of the pseudo-random inputs; input N "
                                "uses SEED+N"),
                       cl::init(0), cl::cat(runCategory),
                       cl::sub(getRunSubcommand()));
cl::opt<unsigned>
    repetitions("repetitions",
                cl::desc("Latency samples after the warm-up, one model call "
                         "each (Google Benchmark repetitions)"),
                cl::init(10), cl::cat(runCategory),
                cl::sub(getRunSubcommand()));
cl::opt<double> warmupSeconds(
    "warmup-seconds",
    cl::desc("Untimed calls before the samples: at least one, and until this "
             "many seconds have passed"),
    cl::init(0.1), cl::cat(runCategory), cl::sub(getRunSubcommand()));
cl::opt<unsigned>
    threads("threads",
            cl::desc("Threads that the tiles of each dispatch are spread over "
                     "(dispatches run in order)"),
            cl::init(1), cl::cat(runCategory), cl::sub(getRunSubcommand()));
cl::opt<double>
    tolerance("tolerance",
              cl::desc("Largest accepted max|out - ref| / max|ref| per output "
                       "(a floor: a model computing in f16 or bf16 gets the "
                       "larger bound its roundings allow)"),
              cl::init(1e-4), cl::cat(runCategory),
              cl::sub(getRunSubcommand()));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Write each output as NAME.npy here"),
                               cl::value_desc("DIR"), cl::cat(runCategory),
                               cl::sub(getRunSubcommand()));
cl::opt<std::string> codegenMode(
    "codegen",
    cl::desc("tiled (tile, fuse and vectorize each dispatch) or loops "
             "(scalar loops per op; what the reference always uses)"),
    cl::init("tiled"), cl::cat(runCategory), cl::sub(getRunSubcommand()));
cl::opt<bool> profileDispatches(
    "profile-dispatches",
    cl::desc("Also time each dispatch call: a second build of the model with "
             "a clock read around every dispatch call, called --repetitions "
             "times after a warm-up (latency stays uninstrumented)"),
    cl::init(false), cl::cat(runCategory), cl::sub(getRunSubcommand()));
cl::opt<std::string>
    emitKind("emit",
             cl::desc("json (one object) or table (default on a terminal)"),
             cl::cat(runCategory), cl::sub(getRunSubcommand()));

/// One heuristic variant, compiled. The context outlives the engine.
struct CompiledVariant {
  std::unique_ptr<MLIRContext> context;
  CompiledModel model;
  CompileStats stats;
  /// What the outputs' tolerance is derived from (analyzePrecision).
  PrecisionBasis precision;
  double importSeconds = 0;
  double preprocessingSeconds = 0;
  double formationSeconds = 0;
};

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), kCommand);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

FailureOr<CompiledVariant> compileVariant(const HeuristicOptions &options,
                                          const OnnxImportOptions &import,
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
      loadModel(modelPath, *variant.context, sourceMgr, import);
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
  variant.stats.model = modelPath;
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

/// Splits NAME=FILE.npy flags and reads the files.
std::optional<std::map<std::string, HostArray>>
readNamedArrays(const cl::list<std::string> &flags, llvm::StringRef flag) {
  std::map<std::string, HostArray> arrays;
  for (const std::string &text : flags) {
    auto [name, path] = llvm::StringRef(text).split('=');
    if (name.empty() || path.empty()) {
      error() << "--" << flag << " expects NAME=FILE.npy, got '" << text
              << "'\n";
      return std::nullopt;
    }
    std::string message;
    std::optional<HostArray> array = readNpy(path, message);
    if (!array) {
      error() << message << "\n";
      return std::nullopt;
    }
    arrays[name.str()] = std::move(*array);
  }
  return arrays;
}

struct OutputCheck {
  std::string name;
  std::string against;
  Difference difference;
  double tolerance = 0;
  bool passed() const { return difference.relative <= tolerance; }
};

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

llvm::json::Object latencyJson(const LatencyMeasurement &measurement) {
  const LatencyStats &latency = measurement.stats;
  llvm::json::Array samples;
  for (double seconds : measurement.samplesSeconds)
    samples.push_back(seconds * 1e3);
  return llvm::json::Object{
      {"repetitions", latency.repetitions},
      {"median_ms", latency.medianMs},
      {"mean_ms", latency.meanMs},
      {"stddev_ms", latency.stddevMs},
      {"cv", latency.cv},
      {"min_ms", latency.minMs},
      {"samples_ms", std::move(samples)},
      {"warmup", llvm::json::Object{{"calls", measurement.warmupCalls},
                                    {"seconds", measurement.warmupSeconds}}}};
}

llvm::json::Object precisionJson(const PrecisionBasis &basis) {
  return llvm::json::Object{{"element_type", basis.elementType},
                            {"unit_roundoff", basis.unitRoundoff},
                            {"rounding_steps", basis.roundingSteps}};
}

/// The process's peak resident set so far (compilation included).
int64_t getPeakRssBytes() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return -1;
  // Linux reports kilobytes.
  return int64_t(usage.ru_maxrss) * 1024;
}

/// What was measured besides the outputs.
struct Measurement {
  LatencyMeasurement latency;
  std::vector<int> pinnedCpus;
  /// How freed host memory is treated between calls (retainFreedMemory).
  std::string allocator;
  /// The initializer's one run before the timed calls (packing weights).
  double initializerSeconds = 0;
  int64_t peakRssBytes = 0;
};

/// One dispatch call site of the instrumented build.
struct DispatchTiming {
  size_t index = 0;
  std::string dispatch;
  std::string rootOp;
  int64_t calls = 0;
  /// Median over model calls of the time in this dispatch.
  double medianMs = 0;
  /// medianMs over the sum of every dispatch's medianMs.
  double share = 0;
};

/// What --profile-dispatches measured.
struct DispatchProfile {
  /// In program order.
  std::vector<DispatchTiming> dispatches;
  int64_t repetitions = 0;
  /// Median of the instrumented model calls, the summed dispatch medians,
  /// and what the host function adds around them (their difference).
  double modelMedianMs = 0;
  double dispatchTotalMs = 0;
  double hostOverheadMs = 0;
  std::string pipeline;
};

/// Compiles the model again with a clock read around every dispatch call
/// and times `repetitions` calls on `inputs` after a warm-up. Its outputs
/// go into `outputs` so that the caller can check the instrumented code.
FailureOr<DispatchProfile>
measureDispatchProfile(const HeuristicOptions &options,
                       const OnnxImportOptions &import, CodegenOptions codegen,
                       std::vector<HostArray> &inputs,
                       std::vector<HostArray> &outputs, std::string &message) {
  codegen.profileDispatches = true;
  codegen.dispatchBegin = &DispatchProfiler::begin;
  codegen.dispatchEnd = &DispatchProfiler::end;
  FailureOr<CompiledVariant> variant = compileVariant(options, import, codegen);
  if (failed(variant)) {
    message = "compiling the instrumented model failed";
    return failure();
  }
  const CompiledModel &model = variant->model;
  std::optional<PreparedCall> call =
      PreparedCall::create(model, inputs, outputs, message);
  if (!call)
    return failure();

  DispatchProfiler profiler(model.profiledDispatches.size());
  profiler.activate();
  auto warmupStart = std::chrono::steady_clock::now();
  do
    (*call)();
  while (secondsSince(warmupStart) < warmupSeconds);
  profiler.reset();
  std::vector<double> modelSeconds;
  for (unsigned i = 0; i < repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    (*call)();
    modelSeconds.push_back(secondsSince(start));
    profiler.finishModelCall();
  }
  if (profiler.getMismatches() != 0) {
    message = llvm::formatv("{0} dispatch hook call(s) matched no dispatch",
                            profiler.getMismatches());
    return failure();
  }

  llvm::StringMap<std::string> rootOps;
  for (const DispatchGroupStats &group : variant->stats.groups)
    rootOps[group.name] = group.rootOp;
  DispatchProfile profile;
  profile.repetitions = repetitions;
  profile.pipeline = model.pipeline;
  for (auto [index, name] : llvm::enumerate(model.profiledDispatches)) {
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

void printTable(const CompiledVariant &variant,
                const CompiledVariant *reference, const ModelInputs &inputs,
                const Measurement &measurement,
                const std::vector<OutputCheck> &checks, llvm::raw_ostream &os) {
  const LatencyStats &latency = measurement.latency.stats;
  const CompiledModel &model = variant.model;
  os << "Model: " << modelPath << "\n";
  os << "Dispatches: " << variant.stats.dispatches
     << "  Executables: " << variant.stats.executables;
  if (reference)
    os << "  (reference " << kReferencePreset
       << " with loops: " << reference->stats.dispatches << " dispatches)";
  os << "\n";
  os << llvm::formatv("Compile (s): import {0:f4}  preprocessing {1:f4}  "
                      "formation {2:f4}  codegen {3:f4}  jit {4:f4}\n",
                      variant.importSeconds, variant.preprocessingSeconds,
                      variant.formationSeconds, model.codegenSeconds,
                      model.jitSeconds);
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
  for (const OutputCheck &check : checks)
    os << llvm::formatv("Output {0} vs {1}: max |a-b| {2:e2}, relative "
                        "{3:e2} ({4})\n",
                        check.name, check.against, check.difference.maxAbsDiff,
                        check.difference.relative,
                        check.passed() ? "ok" : "MISMATCH");
}
} // namespace

int runRunCommand() {
  FailureOr<HeuristicOptions> options = resolveHeuristicOptions(kCommand);
  if (failed(options))
    return 2;
  FailureOr<OnnxImportOptions> importOptions = getImportOptions(kCommand);
  if (failed(importOptions))
    return 2;
  std::string kind = emitKind;
  if (kind.empty())
    kind = llvm::sys::Process::StandardOutIsDisplayed() ? "table" : "json";
  if (kind != "json" && kind != "table") {
    error() << "unknown --emit kind '" << kind
            << "' (expected json or table)\n";
    return 2;
  }
  if (parameterMode != "model" && parameterMode != "random") {
    error() << "unknown --parameters '" << parameterMode
            << "' (expected model or random)\n";
    return 2;
  }
  if (codegenMode != "tiled" && codegenMode != "loops") {
    error() << "unknown --codegen '" << codegenMode
            << "' (expected tiled or loops)\n";
    return 2;
  }
  CodegenMode mode =
      codegenMode == "tiled" ? CodegenMode::Tiled : CodegenMode::Loops;
  if (repetitions == 0) {
    error() << "--repetitions must be at least 1\n";
    return 2;
  }
  if (!(warmupSeconds >= 0)) {
    error() << "--warmup-seconds must be a number >= 0, got "
            << warmupSeconds.getValue() << "\n";
    return 2;
  }
  if (threads == 0) {
    error() << "--threads must be at least 1\n";
    return 2;
  }
  CodegenOptions codegen{mode, threads};
  std::optional<std::map<std::string, HostArray>> files =
      readNamedArrays(inputFiles, "input");
  std::optional<std::map<std::string, HostArray>> expected =
      readNamedArrays(expectedFiles, "expected-output");
  if (!files || !expected)
    return 1;

  // The weights are read before compiling: a file without them fails in
  // a moment rather than after the compile.
  std::optional<ParameterData> parameters;
  std::string message;
  if (parameterMode == "model" && onnx_import::isOnnxPath(modelPath)) {
    parameters = ParameterData::open(modelPath, message);
    if (!parameters) {
      error() << message << "\n";
      return 1;
    }
    if (std::optional<std::string> stripped =
            parameters->findStrippedInitializer()) {
      error() << "initializer '" << *stripped
              << "' carries no data (stripped weights); --parameters=random "
                 "runs without the model's weights\n";
      return 1;
    }
  }

  FailureOr<CompiledVariant> variant =
      compileVariant(*options, *importOptions, codegen);
  if (failed(variant))
    return 1;
  FailureOr<HeuristicOptions> referenceOptions =
      HeuristicOptions::fromPreset(kReferencePreset);
  // The reference is the simplest code: one dispatch per root, scalar loops.
  bool selfReference =
      *referenceOptions == *options && mode == CodegenMode::Loops;
  FailureOr<CompiledVariant> reference = failure();
  if (!selfReference) {
    CodegenOptions referenceCodegen{CodegenMode::Loops, threads};
    referenceCodegen.widenFloats = true;
    reference =
        compileVariant(*referenceOptions, *importOptions, referenceCodegen);
    if (failed(reference))
      return 1;
  }
  const CompiledModel &model = variant->model;
  std::optional<ModelInputs> inputs = makeInputs(
      model, *files, parameters ? &*parameters : nullptr, seed, message);
  if (!inputs) {
    error() << message
            << (parameters ? " (--parameters=random runs without the model's "
                             "weights)"
                           : "")
            << "\n";
    return 1;
  }

  Measurement measurement;
  measurement.allocator = retainFreedMemory().str();
  std::optional<std::vector<int>> pinned = pinForThreads(threads, message);
  if (!pinned) {
    error() << "pinning to " << threads << " CPU(s) failed: " << message
            << "\n";
    return 1;
  }
  measurement.pinnedCpus = std::move(*pinned);
  if (measurement.pinnedCpus.size() < threads)
    llvm::WithColor::warning(llvm::errs(), kCommand)
        << "--threads=" << threads << " but this process may only use "
        << measurement.pinnedCpus.size() << " CPU(s)\n";
  std::vector<HostArray> outputs;
  std::optional<PreparedCall> call =
      PreparedCall::create(model, inputs->arrays, outputs, message);
  std::optional<LatencyMeasurement> latency;
  if (call) {
    measurement.initializerSeconds = call->getInitializerSeconds();
    latency = measureLatency(
        [&](std::string &) {
          (*call)();
          return true;
        },
        repetitions, warmupSeconds, message);
  }
  if (!latency) {
    error() << "calling the model failed: " << message << "\n";
    return 1;
  }
  measurement.latency = std::move(*latency);
  measurement.peakRssBytes = getPeakRssBytes();

  double outputTolerance = deriveTolerance(variant->precision, tolerance);
  std::vector<OutputCheck> checks;
  if (!selfReference) {
    if (reference->model.outputs.size() != model.outputs.size()) {
      error() << "the " << kReferencePreset
              << " reference has another signature\n";
      return 1;
    }
    // The widened reference takes f32 where the model takes f16.
    std::vector<HostArray> referenceInputs;
    for (auto [array, signature] :
         llvm::zip(inputs->arrays, reference->model.inputs))
      referenceInputs.push_back(convertArray(array, signature.type));
    std::vector<HostArray> referenceOutputs;
    if (!invokeModel(reference->model, referenceInputs, referenceOutputs,
                     message)) {
      error() << "calling the reference failed: " << message << "\n";
      return 1;
    }
    for (auto [index, output] : llvm::enumerate(model.outputs))
      checks.push_back(
          {output.name, kReferencePreset,
           compareArrays(outputs[index], referenceOutputs[index]),
           outputTolerance});
  }
  for (const auto &[name, array] : *expected) {
    auto it = llvm::find_if(model.outputs, [&](const TensorSignature &output) {
      return output.name == name;
    });
    if (it == model.outputs.end()) {
      error() << "--expected-output names '" << name
              << "', which is no output of the model (outputs are resultN)\n";
      return 2;
    }
    checks.push_back(
        {name, "expected-output",
         compareArrays(outputs[it - model.outputs.begin()], array),
         outputTolerance});
  }

  // After the timed calls, so that the latency above stays uninstrumented;
  // the instrumented code is checked against the uninstrumented outputs.
  std::optional<DispatchProfile> profile;
  if (profileDispatches) {
    std::vector<HostArray> profiledOutputs;
    FailureOr<DispatchProfile> measured =
        measureDispatchProfile(*options, *importOptions, codegen,
                               inputs->arrays, profiledOutputs, message);
    if (failed(measured)) {
      error() << "profiling dispatches failed: " << message << "\n";
      return 1;
    }
    profile = std::move(*measured);
    for (auto [index, output] : llvm::enumerate(model.outputs))
      checks.push_back({output.name, "uninstrumented",
                        compareArrays(profiledOutputs[index], outputs[index]),
                        outputTolerance});
  }

  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      error() << outputDir << ": " << ec.message() << "\n";
      return 1;
    }
    for (auto [index, output] : llvm::enumerate(model.outputs)) {
      llvm::SmallString<128> path(outputDir);
      llvm::sys::path::append(path, output.name + ".npy");
      if (!writeNpy(path, outputs[index], message)) {
        error() << message << "\n";
        return 1;
      }
    }
  }

  if (kind == "table") {
    printTable(*variant, selfReference ? nullptr : &*reference, *inputs,
               measurement, checks, llvm::outs());
    if (profile)
      printDispatchProfile(*profile, llvm::outs());
  } else {
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
    llvm::json::Array temporaries;
    for (const DispatchTemporaries &entry : model.temporaries)
      temporaries.push_back(
          llvm::json::Object{{"dispatch", entry.dispatch},
                             {"bytes", entry.bytes},
                             {"allocations", entry.allocations}});
    llvm::json::Object json{
        {"model", modelPath.getValue()},
        {"compile", toJson(variant->stats)},
        {"codegen", stringify(mode)},
        {"reference", selfReference
                          ? llvm::json::Value("self")
                          : llvm::json::Value(llvm::json::Object{
                                {"preset", kReferencePreset},
                                {"codegen", stringify(CodegenMode::Loops)},
                                {"dispatches", reference->stats.dispatches}})},
        {"compile_seconds",
         llvm::json::Object{{"import", variant->importSeconds},
                            {"preprocessing", variant->preprocessingSeconds},
                            {"formation", variant->formationSeconds},
                            {"codegen", model.codegenSeconds},
                            {"jit", model.jitSeconds}}},
        {"latency", latencyJson(measurement.latency)},
        {"threads", threads.getValue()},
        {"pinned_cpus", llvm::json::Array(measurement.pinnedCpus)},
        {"allocator", measurement.allocator},
        {"peak_rss_bytes", measurement.peakRssBytes},
        {"code_size_bytes", model.codeSizeBytes},
        {"transient_peak_bytes", model.transientPeakBytes},
        {"packed_weight_bytes", model.packedBytes},
        {"initializer_seconds", measurement.initializerSeconds},
        {"inputs", signatureJson(model.inputs, &inputs->sources)},
        {"outputs", signatureJson(model.outputs, nullptr)},
        {"checks", std::move(checkJson)},
        {"tolerance", tolerance.getValue()},
        {"precision", precisionJson(variant->precision)},
        {"target", llvm::json::Object{{"cpu", model.targetCpu},
                                      {"features", model.targetFeatures}}},
        {"seed", seed.getValue()},
        {"temporaries", std::move(temporaries)},
        {"codegen_pipeline", model.pipeline},
        {"provenance", Provenance::current().toJson()},
    };
    if (profile) {
      json["dispatch_profile"] = dispatchProfileJson(*profile);
      json["dispatch_profile_summary"] = dispatchProfileSummaryJson(*profile);
    }
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(json)))
                 << "\n";
  }

  // The report first, then the verdict, also when both go to one pipe.
  llvm::outs().flush();
  for (const OutputCheck &check : checks)
    if (!check.passed()) {
      if (check.difference.nonFinite > 0) {
        error() << llvm::formatv(
            "output {0} has {1} NaN or infinite value(s) here or in {2}\n",
            check.name, check.difference.nonFinite, check.against);
        return 1;
      }
      error() << llvm::formatv(
          "output {0} differs from {1} by {2:e2} relative (max |a-b| = "
          "{3:e2}, max |ref| = {4:e2}; tolerance {5:e2})\n",
          check.name, check.against, check.difference.relative,
          check.difference.maxAbsDiff, check.difference.maxAbsReference,
          check.tolerance);
      return 1;
    }
  return 0;
}

} // namespace dispatchlab

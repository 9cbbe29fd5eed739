//===- RunCommand.cpp - `dispatchlab run` ---------------------------------===//
//
// Forms dispatches under one heuristic variant, compiles every dispatch for
// the host CPU, runs the model and times it; checks the outputs against the
// no-fusion variant (and against expected .npy files when given).
//
//===----------------------------------------------------------------------===//

#include "core/RunCommand.h"

#include "core/CompileCommand.h"
#include "core/CompileStats.h"
#include "core/DispatchCreationPipeline.h"
#include "core/ImportCommand.h"
#include "core/ModelLoader.h"
#include "core/ModelRunner.h"
#include "core/Provenance.h"
#include "core/Registration.h"
#include "core/StatsJson.h"
#include "core/codegen/CodegenPipeline.h"
#include "core/onnx/OnnxModelFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

#include <chrono>

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
cl::opt<unsigned> repetitions("repetitions",
                              cl::desc("Timed calls after one warm-up call"),
                              cl::init(10), cl::cat(runCategory),
                              cl::sub(getRunSubcommand()));
cl::opt<double>
    tolerance("tolerance",
              cl::desc("Largest accepted max|out - ref| / max|ref| per output"),
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
cl::opt<std::string>
    emitKind("emit",
             cl::desc("json (one object) or table (default on a terminal)"),
             cl::cat(runCategory), cl::sub(getRunSubcommand()));

/// One heuristic variant, compiled. The context outlives the engine.
struct CompiledVariant {
  std::unique_ptr<MLIRContext> context;
  CompiledModel model;
  CompileStats stats;
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
                                          CodegenMode mode) {
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

  FailureOr<CompiledModel> compiled = compileForHost(*module, mode);
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

llvm::json::Object latencyJson(const LatencyStats &latency) {
  return llvm::json::Object{{"repetitions", latency.repetitions},
                            {"median_ms", latency.medianMs},
                            {"mean_ms", latency.meanMs},
                            {"stddev_ms", latency.stddevMs},
                            {"min_ms", latency.minMs}};
}

void printTable(const CompiledVariant &variant,
                const CompiledVariant *reference, const ModelInputs &inputs,
                const LatencyStats &latency,
                const std::vector<OutputCheck> &checks, llvm::raw_ostream &os) {
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
  os << llvm::formatv("Latency (ms, {0} runs): median {1:f4}  mean {2:f4}  "
                      "stddev {3:f4}  min {4:f4}\n",
                      latency.repetitions, latency.medianMs, latency.meanMs,
                      latency.stddevMs, latency.minMs);
  int64_t random = llvm::count(inputs.sources, InputSource::Random);
  os << "Inputs: " << model.inputs.size() << " (" << random << " random, "
     << llvm::count(inputs.sources, InputSource::File) << " from files, "
     << llvm::count(inputs.sources, InputSource::Parameter)
     << " model weights)\n";
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
  std::optional<std::map<std::string, HostArray>> files =
      readNamedArrays(inputFiles, "input");
  std::optional<std::map<std::string, HostArray>> expected =
      readNamedArrays(expectedFiles, "expected-output");
  if (!files || !expected)
    return 1;

  FailureOr<CompiledVariant> variant =
      compileVariant(*options, *importOptions, mode);
  if (failed(variant))
    return 1;
  FailureOr<HeuristicOptions> referenceOptions =
      HeuristicOptions::fromPreset(kReferencePreset);
  // The reference is the simplest code: one dispatch per root, scalar loops.
  bool selfReference =
      *referenceOptions == *options && mode == CodegenMode::Loops;
  FailureOr<CompiledVariant> reference = failure();
  if (!selfReference) {
    reference =
        compileVariant(*referenceOptions, *importOptions, CodegenMode::Loops);
    if (failed(reference))
      return 1;
  }
  const CompiledModel &model = variant->model;

  std::optional<ParameterData> parameters;
  std::string message;
  if (parameterMode == "model" && onnx_import::isOnnxPath(modelPath)) {
    parameters = ParameterData::open(modelPath, message);
    if (!parameters) {
      error() << message << "\n";
      return 1;
    }
  }
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

  std::vector<HostArray> outputs;
  if (!invokeModel(model, inputs->arrays, outputs, message)) {
    error() << "calling the model failed: " << message << "\n";
    return 1;
  }
  std::vector<double> seconds;
  for (unsigned i = 0; i < repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (!invokeModel(model, inputs->arrays, outputs, message)) {
      error() << "calling the model failed: " << message << "\n";
      return 1;
    }
    seconds.push_back(secondsSince(start));
  }
  LatencyStats latency = summarizeLatencies(seconds);

  std::vector<OutputCheck> checks;
  if (!selfReference) {
    if (reference->model.outputs.size() != model.outputs.size()) {
      error() << "the " << kReferencePreset
              << " reference has another signature\n";
      return 1;
    }
    std::vector<HostArray> referenceOutputs;
    if (!invokeModel(reference->model, inputs->arrays, referenceOutputs,
                     message)) {
      error() << "calling the reference failed: " << message << "\n";
      return 1;
    }
    for (auto [index, output] : llvm::enumerate(model.outputs))
      checks.push_back(
          {output.name, kReferencePreset,
           compareArrays(outputs[index], referenceOutputs[index])});
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
         compareArrays(outputs[it - model.outputs.begin()], array)});
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
               latency, checks, llvm::outs());
  } else {
    llvm::json::Array checkJson;
    for (const OutputCheck &check : checks)
      checkJson.push_back(llvm::json::Object{
          {"output", check.name},
          {"against", check.against},
          {"max_abs_diff", check.difference.maxAbsDiff},
          {"max_abs_reference", check.difference.maxAbsReference},
          {"relative_diff", check.difference.relative},
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
        {"latency", latencyJson(latency)},
        {"inputs", signatureJson(model.inputs, &inputs->sources)},
        {"outputs", signatureJson(model.outputs, nullptr)},
        {"checks", std::move(checkJson)},
        {"tolerance", tolerance.getValue()},
        {"seed", seed.getValue()},
        {"temporaries", std::move(temporaries)},
        {"codegen_pipeline", model.pipeline},
        {"provenance", Provenance::current().toJson()},
    };
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(json)))
                 << "\n";
  }

  // The report first, then the verdict, also when both go to one pipe.
  llvm::outs().flush();
  for (const OutputCheck &check : checks)
    if (!check.passed()) {
      error() << llvm::formatv(
          "output {0} differs from {1} by {2:e2} relative (max |a-b| = "
          "{3:e2}, max |ref| = {4:e2}; tolerance {5:e2})\n",
          check.name, check.against, check.difference.relative,
          check.difference.maxAbsDiff, check.difference.maxAbsReference,
          tolerance.getValue());
      return 1;
    }
  return 0;
}

} // namespace dispatchlab

//===- RunSession.h - one `dispatchlab run`, as a library call --*- C++ -*-===//
//
// Forms dispatches under one heuristic variant, compiles every dispatch for
// the host CPU, runs the model and times it, and checks its outputs against
// the no-fusion variant compiled to scalar loops (and against expected
// arrays when given). The CLI, a worker or a test builds a RunOptions and
// reads the RunReport; nothing here parses flags or prints a report.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_RUNSESSION_H
#define DISPATCHLAB_CORE_RUNTIME_RUNSESSION_H

#include "core/analysis/CompileStats.h"
#include "core/analysis/NumericTolerance.h"
#include "core/codegen/CodegenPipeline.h"
#include "core/onnx/OnnxImporter.h"
#include "core/runtime/LatencyBenchmark.h"
#include "core/runtime/ModelRunner.h"
#include "core/runtime/ReferenceCache.h"
#include "heuristics/HeuristicOptions.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

/// The variant outputs are checked against: one dispatch per root, scalar
/// loops, f32 where the model computes in f16 or bf16.
inline constexpr llvm::StringLiteral kReferencePreset = "no-fusion";

/// Everything one run is asked to do.
struct RunOptions {
  std::string modelPath;
  HeuristicOptions heuristics;
  OnnxImportOptions import;
  CodegenOptions codegen;
  /// Inputs and expected outputs by name (argN / resultN for MLIR models).
  std::map<std::string, HostArray> inputs;
  std::map<std::string, HostArray> expectedOutputs;
  /// The ONNX file's own weights (--parameters=model) or seeded ones.
  bool modelWeights = true;
  uint64_t seed = 0;
  unsigned repetitions = 10;
  double warmupSeconds = 0.1;
  /// The accepted relative difference for f32 outputs (deriveTolerance).
  double tolerance = 1e-4;
  bool profileDispatches = false;
  /// Where the reference's outputs are kept across runs (ReferenceCache.h);
  /// empty: computed by every run.
  std::string cacheDirectory;
  /// The bound of that directory; 0: unbounded.
  uint64_t cacheMaxBytes = 0;
  /// Told what the run notices but carries on with.
  llvm::function_ref<void(const llvm::Twine &)> warn;
};

/// One heuristic variant, compiled. The context outlives the engine.
struct CompiledVariant {
  std::unique_ptr<mlir::MLIRContext> context;
  CompiledModel model;
  CompileStats stats;
  /// What the outputs' tolerance is derived from (analyzePrecision).
  PrecisionBasis precision;
  double importSeconds = 0;
  double preprocessingSeconds = 0;
  double formationSeconds = 0;
};

struct OutputCheck {
  std::string name;
  std::string against;
  Difference difference;
  double tolerance = 0;
  bool passed() const { return difference.relative <= tolerance; }
};

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

/// What RunOptions::profileDispatches measured.
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

/// Whether a cached result was used: off without a cache directory.
enum class CacheUse { Off, Hit, Miss };
llvm::StringRef stringify(CacheUse use);

/// Wall seconds of each step of the run, so that a sweep's results say
/// where its time went.
struct RunPhases {
  double compile = 0;
  /// Reading, drawing or loading the inputs and weights.
  double inputs = 0;
  /// Compiling and calling the reference, or reading it from the cache.
  double reference = 0;
  /// The warm-up and the timed calls.
  double measure = 0;
  double profile = 0;
};

struct RunReport {
  CompiledVariant variant;
  /// None when the variant is the reference itself (no-fusion, loops).
  std::optional<ReferenceOutputs> reference;
  CacheUse referenceCache = CacheUse::Off;
  RunPhases phases;
  ModelInputs inputs;
  std::vector<HostArray> outputs;
  Measurement measurement;
  std::vector<OutputCheck> checks;
  std::optional<DispatchProfile> profile;
};

/// Whether the variant's compiled code came from the cache.
CacheUse codeCacheUse(const RunReport &report);

/// The weights of an ONNX model when `options` asks for the model's own,
/// read (and those derived from them computed) before compiling so that a
/// file without them fails at once.
llvm::Expected<std::optional<ParameterData>>
openWeights(const RunOptions &options);

/// The variant of `options` compiled, its inputs not made yet.
llvm::Expected<RunReport> compileRun(const RunOptions &options);

/// The variant of `options` compiled and its inputs made: a report with
/// nothing measured or checked yet.
llvm::Expected<RunReport> prepareRun(const RunOptions &options,
                                     const ParameterData *parameters);

/// Runs `options`. An error's message is one line naming what failed, or
/// empty when the compile's diagnostics already said it; an option that
/// names what the model lacks is an `std::errc::invalid_argument` error.
llvm::Expected<RunReport> runModel(const RunOptions &options);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_RUNSESSION_H

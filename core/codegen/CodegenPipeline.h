//===- CodegenPipeline.h - dispatches to host machine code ------*- C++ -*-===//
//
// Turns a module after dispatch formation into code for the host CPU: each
// dispatch.region is outlined into its own function, bufferized, lowered to
// the LLVM dialect, compiled (-O3, host CPU and features) into one object per
// dispatch and one for the host, each compiled in parallel or taken from a
// cache, and linked into the process (HostJit);
// its entry point is the model's host function.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_CODEGENPIPELINE_H
#define DISPATCHLAB_CORE_CODEGEN_CODEGENPIPELINE_H

#include "core/support/Npy.h"

#include "core/codegen/HostJit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

/// One tensor argument or result of the host function.
struct TensorSignature {
  /// The argument's name (from its NameLoc; `argN` otherwise) or `resultN`.
  std::string name;
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  /// For a weight argument, its `dispatchlab.parameter` tag (the
  /// initializer's name) or its `dispatchlab.parameter_result` tag (the
  /// result of the importer's parameter function that derives it).
  std::string parameter;
  std::optional<unsigned> parameterResult;
  /// For a weight in a packed layout: the result of the initializer that
  /// computes it (CompiledModel::initializer).
  std::optional<unsigned> packedResult;
};

/// Buffers a dispatch still allocates after bufferization, beyond its
/// arguments and results (which the caller passes in). Counted per
/// allocation site: one inside a tile loop counts once, at its tile size.
struct DispatchTemporaries {
  std::string dispatch;
  int64_t bytes = 0;
  int64_t allocations = 0;
};

struct CompiledModel {
  /// Shared so that a copy can link the same objects again (HostJit::relink)
  /// and keep every other field: PairedComparison's A/A copy.
  std::shared_ptr<HostJit> engine;
  /// Symbol to pass to ExecutionEngine::invokePacked: the C interface of the
  /// host function, taking one memref descriptor pointer per input, then one
  /// per output (results were turned into out-parameters).
  std::string entrySymbol;
  std::vector<TensorSignature> inputs;
  std::vector<TensorSignature> outputs;
  /// Symbol (for invokePacked) of the function computing the packed weight
  /// layouts from the weights, run once before timed calls (IREE's
  /// initializers); empty when nothing is packed. It takes `inputs[i]` for
  /// each i of `initializerArguments`, then one out-parameter per packed
  /// input, in packedResult order.
  std::string initializerSymbol;
  std::vector<unsigned> initializerArguments;
  /// Bytes of the packed layouts: memory the model holds beside its
  /// weights.
  int64_t packedBytes = 0;
  std::vector<DispatchTemporaries> temporaries;
  /// Peak total of the host function's buffers between dispatches
  /// (computeTransientPeakBytes).
  int64_t transientPeakBytes = 0;
  /// Bytes of JIT-compiled machine code (measureObjectCodeSize).
  int64_t codeSizeBytes = 0;
  /// The pass pipeline that lowered the module, for provenance.
  std::string pipeline;
  /// Seconds in the MLIR pipeline (outlining to LLVM dialect) and in LLVM
  /// (translation, -O3, machine code, linking; or reading the object from
  /// the cache).
  double codegenSeconds = 0;
  double jitSeconds = 0;
  /// The CPU and the enabled features (sorted, comma-separated) the machine
  /// code was generated for.
  std::string targetCpu;
  std::string targetFeatures;
  /// f32 lanes per vector the tiles were sized for: the host's widest
  /// (getHostF32VectorWidth).
  int64_t vectorWidth = 0;
  /// Objects the machine code was compiled into: one per distinct dispatch
  /// and the host's (ModuleParts.h).
  int64_t codeObjects = 0;
  /// How many of them CodegenOptions::objectCacheDirectory held; none
  /// without a cache.
  std::optional<int64_t> objectCacheHits;
  /// With CodegenOptions::profileDispatches: the dispatch each hook index
  /// stands for (the callee before deduplication), in program order.
  std::vector<std::string> profiledDispatches;
};

/// Dialects, interfaces and translations the pipeline needs, on top of
/// registerDialects().
void registerCodegenDialects(mlir::DialectRegistry &registry);

enum class CodegenMode {
  /// Tile and fuse each dispatch, vectorize, then bufferize and lower.
  Tiled,
  /// Bufferize and lower each Linalg op to scalar loops: the simplest
  /// correct code, a baseline for the tiled mode.
  Loops,
};
llvm::StringRef stringify(CodegenMode mode);

struct CodegenOptions {
  CodegenMode mode = CodegenMode::Tiled;
  /// Threads the tiles of one dispatch are spread over; dispatches still run
  /// one after another, as in IREE's task system.
  unsigned threads = 1;
  /// Computes what the model computes in f16 or bf16 in f32 instead
  /// (dispatchlab-widen-low-precision-floats): the reference's numerics.
  bool widenFloats = false;
  /// Wraps each dispatch call of the host function in calls to
  /// `dispatchBegin` and `dispatchEnd` with the call site's index
  /// (dispatchlab-instrument-dispatch-calls); both must be set then.
  bool profileDispatches = false;
  void (*dispatchBegin)(int64_t) = nullptr;
  void (*dispatchEnd)(int64_t) = nullptr;
  /// Where objects are kept by a hash of their LLVM IR before -O3, the
  /// target (triple, CPU, features) and the LLVM version (ContentCache);
  /// empty: every compile runs LLVM.
  std::string objectCacheDirectory;
  /// The bound of that directory; 0: unbounded.
  uint64_t objectCacheMaxBytes = 0;
};

/// Compiles `module` (consumed: it is lowered in place). It must hold
/// exactly one public function, the host function; every tensor it takes or
/// returns must be statically shaped. Errors go to the context's
/// diagnostics.
mlir::FailureOr<CompiledModel> compileForHost(mlir::ModuleOp module,
                                              const CodegenOptions &options);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_CODEGENPIPELINE_H

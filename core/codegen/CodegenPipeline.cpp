//===- CodegenPipeline.cpp - dispatches to host machine code --------------===//

#include "core/codegen/CodegenPipeline.h"

#include "compat/UtilCompatDialect.h"

#include "core/codegen/CodeSize.h"
#include "core/codegen/HostJit.h"
#include "core/codegen/HostTaskRuntime.h"
#include "core/codegen/ModuleParts.h"
#include "core/codegen/ParameterInitializer.h"
#include "core/codegen/PartCompiler.h"
#include "core/codegen/Passes.h"
#include "core/codegen/TransientMemory.h"
#include "core/support/ContentCache.h"
#include "core/support/HostVectorWidth.h"
#include "core/support/Timing.h"

#include "compat/CompatDialects.h"
#include "heuristics/OpClassification.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include <chrono>

using namespace mlir;

namespace dispatchlab {

namespace {
/// Encodings (data-tiling=fusion) are laid out for the host's vectors
/// before anything else.
std::string getMaterializeEncodingsPipeline(int64_t vectorWidth) {
  return "dispatchlab-materialize-encoding-for-host{vector-width=" +
         std::to_string(vectorWidth) + "}";
}
/// The reference's f32 twin of a low-precision model, before anything else.
constexpr const char *kWidenFloatsPipeline =
    "dispatchlab-widen-low-precision-floats";
/// Tensor-level work: one function per dispatch; in tiled mode each is
/// tiled for vectors of `vectorWidth` f32, fused and vectorized, with
/// accumulators hoisted out of reduction loops so they stay in registers.
/// The cache directory's subdirectory of compiled objects.
/// Aggregated ops (linalg.softmax) are decomposed once outlined: neither
/// tiling nor the scalar loops handle them.
/// The packs materialization left between dispatches run first where IREE
/// runs them: in the initializer for weights, in a dispatch of their own
/// otherwise.
constexpr const char *kOutlinePipeline =
    "dispatchlab-place-encoding-packs,"
    "func.func(dispatchlab-drop-padding-taps,dispatchlab-fill-padding-borders),"
    "dispatchlab-outline-dispatch-regions,"
    "func.func(dispatchlab-decompose-aggregated-ops)";
std::string getTilePipeline(int64_t vectorWidth) {
  return "func.func(dispatchlab-transpose-weights),"
         "dispatchlab-hoist-parameter-packing,"
         "func.func(dispatchlab-factor-repeated-gathers,"
         "dispatchlab-tile-data-tiled-dispatches{vector-width=" +
         std::to_string(vectorWidth) +
         "},dispatchlab-tile-and-fuse-dispatches{vector-width=" +
         std::to_string(vectorWidth) +
         "},canonicalize),"
         "dispatchlab-pack-weight-panels,"
         "func.func(canonicalize,cse,dispatchlab-decompose-depthwise-convs,"
         "dispatchlab-skip-padding-taps,dispatchlab-vectorize-dispatches,"
         "canonicalize,cse,"
         "loop-invariant-subset-hoisting,canonicalize,cse)";
}

/// Packs and unpacks no tile vectorized, as plain tensor ops.
constexpr const char *kDecomposePackUnpackPipeline =
    "func.func(dispatchlab-decompose-pack-unpack)";

/// Tensors to buffers. Function results become out-parameters so the caller
/// (the host function, and the runner for it) owns every buffer; a dispatch
/// writing its result straight into the caller's buffer is what IREE's
/// bindings do.
constexpr const char *kBufferizePipeline =
    "dispatchlab-eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    // Forwards loop-carried buffers, so a dispatch returns its alloc directly
    // and the out-parameter conversion can reuse the caller's buffer.
    "cse,canonicalize,"
    // A dispatch that updated its argument in place (a slice inserted into
    // a padded tensor) returns that buffer: the caller reads the argument
    // instead of a full copy of it, as IREE's read-write bindings do.
    "drop-equivalent-buffer-results,"
    "buffer-results-to-out-params{hoist-static-allocs=true "
    "modify-public-functions=true},canonicalize,cse";

/// Buffers to the LLVM dialect. Math ops go to LLVM intrinsics or libm
/// before vectors are lowered: libm calls scalarize vector operands with
/// vector ops.
std::string getLoweringPipeline(int64_t vectorWidth) {
  return "func.func(dispatchlab-lower-vectors{vector-width=" +
         std::to_string(vectorWidth) +
         "},"
         "convert-vector-to-scf{full-unroll=true},"
         "dispatchlab-lower-strided-copies,convert-linalg-to-loops),"
         "convert-bufferization-to-memref,expand-strided-metadata,lower-affine,"
         // convert-scf-to-cf lowers a loop body's allocas inside the loop,
         // where LLVM allocates them anew every iteration: out of loops they
         // get one place in the frame (IREE's HoistStaticallyBoundAllocations).
         "func.func(buffer-loop-hoisting),"
         "convert-scf-to-cf,convert-math-to-llvm,convert-math-to-libm,"
         "convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,"
         "convert-cf-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
         "convert-func-to-llvm,reconcile-unrealized-casts,"
         "dispatchlab-keep-dispatches-out-of-line";
}

/// The tile loops (scf.forall) of each dispatch: sequential loops for one
/// thread; otherwise one contiguous block of tiles per thread
/// (BlockTileLoopsPerThread says why) handed through the MLIR async
/// runtime's C API to our pool (HostTaskRuntime.h), the dispatch returning
/// once all are done (IREE's task system runs a dispatch's workgroups the
/// same way). The tiles get one linear index first (LinearizeTileLoops says
/// why). Deallocation runs in between: it does not know async ops.
std::string getForallPipeline(unsigned threads) {
  if (threads <= 1)
    return "func.func(scf-forall-to-for,"
           "dispatchlab-promote-tile-temporaries-to-stack,"
           "dispatchlab-prefetch-weight-panels),"
           "buffer-deallocation-pipeline,"
           "func.func(dispatchlab-free-buffers-after-last-use)";
  return "func.func(dispatchlab-serialize-small-tile-loops,"
         "scf-forall-to-parallel,dispatchlab-linearize-tile-loops,"
         "dispatchlab-block-tile-loops-per-thread{threads=" +
         std::to_string(threads) +
         "},dispatchlab-promote-tile-temporaries-to-stack,"
         // Folds the linearization's index arithmetic, so panel indices
         // read as the tile loop's induction variable divided.
         "canonicalize,dispatchlab-prefetch-weight-panels),"
         "buffer-deallocation-pipeline,"
         "func.func(dispatchlab-free-buffers-after-last-use),"
         "async-parallel-for{num-workers=" +
         std::to_string(threads) +
         " min-task-size=1},"
         "async-to-async-runtime,async-runtime-ref-counting,"
         "async-runtime-ref-counting-opt,convert-async-to-llvm";
}

LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return module.emitError("invalid codegen pipeline '")
           << pipeline << "': " << error;
  return pm.run(module);
}

std::optional<ElementType> getElementType(Type type) {
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF64())
    return ElementType::F64;
  if (type.isInteger(1))
    return ElementType::Bool;
  if (type.isInteger(8))
    return ElementType::I8;
  if (type.isInteger(32))
    return ElementType::I32;
  if (type.isInteger(64))
    return ElementType::I64;
  return std::nullopt;
}

FailureOr<TensorSignature> getSignature(Type type, std::string name,
                                        Location loc) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return emitError(loc) << "'" << name << "' has type " << type
                          << "; run supports statically shaped tensors only";
  std::optional<ElementType> element = getElementType(tensor.getElementType());
  if (!element)
    return emitError(loc)
           << "'" << name << "' has element type " << tensor.getElementType()
           << "; run supports f16, bf16, f32, f64, i1, i8, i32, i64";
  TensorSignature signature;
  signature.name = std::move(name);
  signature.type = *element;
  signature.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return signature;
}

FailureOr<func::FuncOp> getModelFunction(ModuleOp module) {
  SmallVector<func::FuncOp> candidates;
  for (auto function : module.getOps<func::FuncOp>())
    if (function.isPublic() && !function.isDeclaration())
      candidates.push_back(function);
  if (candidates.size() != 1)
    return module.emitError("run needs exactly one public function with a "
                            "body (the model), found ")
           << candidates.size();
  return candidates.front();
}

LogicalResult readSignature(func::FuncOp host, CompiledModel &compiled) {
  for (BlockArgument argument : host.getArguments()) {
    // Hoisted values come last; the initializer computes them
    // (readPackedInputs).
    if (host.getArgAttr(argument.getArgNumber(), kPackedAttr))
      break;
    std::string name = "arg" + std::to_string(argument.getArgNumber());
    if (auto nameLoc = dyn_cast<NameLoc>(argument.getLoc()))
      name = nameLoc.getName().str();
    FailureOr<TensorSignature> signature =
        getSignature(argument.getType(), name, argument.getLoc());
    if (failed(signature))
      return failure();
    unsigned index = argument.getArgNumber();
    if (auto tag = host.getArgAttrOfType<StringAttr>(index, kParameterAttr))
      signature->parameter = tag.str();
    if (auto tag =
            host.getArgAttrOfType<IntegerAttr>(index, kParameterResultAttr))
      signature->parameterResult = tag.getInt();
    compiled.inputs.push_back(std::move(*signature));
  }
  for (auto [index, type] : llvm::enumerate(host.getResultTypes())) {
    FailureOr<TensorSignature> signature =
        getSignature(type, "result" + std::to_string(index), host.getLoc());
    if (failed(signature))
      return failure();
    compiled.outputs.push_back(std::move(*signature));
  }
  return success();
}

/// The packed weights HoistParameterPacking gave the host (arguments after
/// its own), each named after its weight, and the initializer computing
/// them.
LogicalResult readPackedInputs(ModuleOp module, StringRef hostName,
                               CompiledModel &compiled) {
  auto host = module.lookupSymbol<func::FuncOp>(hostName);
  func::FuncOp initializer = findInitializer(module, hostName);
  if (!initializer)
    return success();
  compiled.initializerSymbol = "_mlir_ciface_" + initializer.getName().str();
  for (unsigned index = 0; index < initializer.getNumArguments(); ++index)
    compiled.initializerArguments.push_back(
        initializer.getArgAttrOfType<IntegerAttr>(index, kHostArgumentAttr)
            .getInt());
  Operation *terminator = initializer.front().getTerminator();
  for (unsigned index = compiled.inputs.size(); index < host.getNumArguments();
       ++index) {
    BlockArgument argument = host.getArgument(index);
    std::optional<unsigned> result = getPackedResult(argument);
    if (!result || *result >= terminator->getNumOperands())
      return host.emitError("argument ")
             << index << " was added by codegen but is no packed weight";
    // Named after the weight its transposes and reshapes start from.
    std::string name = "packed" + std::to_string(*result);
    Value source = terminator->getOperand(*result);
    while (Operation *op = source.getDefiningOp()) {
      if (!isa<linalg::TransposeOp, tensor::ExpandShapeOp,
               tensor::CollapseShapeOp>(op))
        break;
      source = op->getOperand(0);
    }
    if (auto weight = dyn_cast<BlockArgument>(source))
      name =
          compiled.inputs[compiled.initializerArguments[weight.getArgNumber()]]
              .name +
          ".packed";
    FailureOr<TensorSignature> signature =
        getSignature(argument.getType(), name, argument.getLoc());
    if (failed(signature))
      return failure();
    signature->packedResult = *result;
    int64_t bytes = getElementBytes(signature->type);
    for (int64_t dim : signature->shape)
      bytes *= dim;
    compiled.packedBytes += bytes;
    compiled.inputs.push_back(std::move(*signature));
  }
  return success();
}

/// Static allocations left in each dispatch function: the temporaries a
/// fused dispatch materializes (seed 004's full-size matmul result is one).
std::vector<DispatchTemporaries> measureTemporaries(ModuleOp module) {
  std::vector<DispatchTemporaries> result;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!function->hasAttr(kDispatchFunctionAttr))
      continue;
    DispatchTemporaries temporaries;
    temporaries.dispatch = function.getName().str();
    function.walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      auto type = cast<MemRefType>(op->getResult(0).getType());
      ++temporaries.allocations;
      temporaries.bytes += getStaticByteSize(type);
    });
    result.push_back(std::move(temporaries));
  }
  return result;
}

/// The enabled features of `features` (LLVM's "+a,-b,..."), sorted.
std::string getEnabledFeatures(StringRef features) {
  SmallVector<StringRef> all, enabled;
  features.split(all, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef feature : all)
    if (feature.consume_front("+"))
      enabled.push_back(feature);
  llvm::sort(enabled);
  return llvm::join(enabled, ",");
}

/// The names of `module`'s dispatch functions (after lowering to LLVM).
std::vector<std::string> getDispatchNames(ModuleOp module) {
  std::vector<std::string> names;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (function->hasAttr(kDispatchFunctionAttr) && !function.isExternal())
      names.push_back(function.getName().str());
  return names;
}

/// Machine code for `llvmModule`, one object per part (ModuleParts.h), each
/// compiled or read from the options' cache.
FailureOr<std::vector<std::unique_ptr<llvm::MemoryBuffer>>>
getObjects(ModuleOp module, llvm::Module &llvmModule,
           const llvm::TargetMachine &machine, const CodegenOptions &options,
           CompiledModel &compiled) {
  std::vector<std::string> entries;
  if (!compiled.initializerSymbol.empty())
    entries.push_back(getPackedEntryPoint(compiled.initializerSymbol));
  llvm::Expected<std::vector<std::string>> parts =
      splitIntoParts(llvmModule, getDispatchNames(module), entries);
  if (!parts)
    return module.emitError("JIT compilation failed: ")
           << llvm::toString(parts.takeError());
  std::optional<ContentCache> cache;
  if (!options.objectCacheDirectory.empty())
    cache.emplace(options.objectCacheDirectory, options.objectCacheMaxBytes);
  llvm::Expected<CompiledParts> objects =
      compileParts(*parts, machine, cache ? &*cache : nullptr);
  if (!objects)
    return module.emitError("JIT compilation failed: ")
           << llvm::toString(objects.takeError());
  for (const std::string &warning : objects->warnings)
    module.emitWarning(warning);
  compiled.codeObjects = parts->size();
  if (cache)
    compiled.objectCacheHits = objects->cacheHits;
  return std::move(objects->objects);
}

/// `module` in LLVM IR for `machine`, exporting only the packed wrappers of
/// `compiled`'s entry points, which lookups go through. Translation reports
/// what it could not translate as diagnostics of its own; they are folded into
/// the one error line.
FailureOr<std::unique_ptr<llvm::Module>>
translateForHost(ModuleOp module, llvm::LLVMContext &context,
                 llvm::TargetMachine &machine, const CompiledModel &compiled) {
  std::string translationError;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error &&
          translationError.empty())
        translationError = diag.str();
      return success();
    });
    llvmModule = translateModuleToLLVMIR(module, context);
  }
  if (!llvmModule)
    return module.emitError("JIT compilation failed: could not convert to "
                            "LLVM IR (")
           << translationError << ")";
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(), &machine);
  SmallVector<StringRef, 2> entries = {compiled.entrySymbol};
  if (!compiled.initializerSymbol.empty())
    entries.push_back(compiled.initializerSymbol);
  if (llvm::Error error = exportPackedEntryPoints(*llvmModule, entries))
    return module.emitError("JIT compilation failed: ")
           << llvm::toString(std::move(error));
  return std::move(llvmModule);
}

/// `symbols` (name, address) are what the code calls besides the runtime
/// libraries.
FailureOr<std::unique_ptr<HostJit>>
createEngine(ModuleOp module, const CodegenOptions &options,
             ArrayRef<std::pair<StringRef, void *>> symbols,
             CompiledModel &compiled) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostMachine();
  if (!machine)
    return module.emitError("JIT compilation failed: ")
           << llvm::toString(machine.takeError());
  compiled.targetCpu = (*machine)->getTargetCPU().str();
  compiled.targetFeatures =
      getEnabledFeatures((*machine)->getTargetFeatureString());

  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  {
    llvm::LLVMContext context;
    FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
        translateForHost(module, context, **machine, compiled);
    if (failed(llvmModule))
      return failure();
    FailureOr<std::vector<std::unique_ptr<llvm::MemoryBuffer>>> compiledParts =
        getObjects(module, **llvmModule, **machine, options, compiled);
    if (failed(compiledParts))
      return failure();
    objects = std::move(*compiledParts);
  }
  // memref.copy of strided views calls memrefCopy from the C runner utils.
  std::string runtime =
      std::string(DISPATCHLAB_MLIR_RUNTIME_DIR) + "/libmlir_c_runner_utils.so";
  SmallVector<StringRef> libraries = {runtime};
  llvm::Expected<std::unique_ptr<HostJit>> engine =
      HostJit::create(std::move(objects), libraries, symbols);
  if (!engine)
    return module.emitError("JIT compilation failed: ")
           << llvm::toString(engine.takeError());
  return std::move(*engine);
}
} // namespace

void registerCodegenDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

StringRef stringify(CodegenMode mode) {
  return mode == CodegenMode::Tiled ? "tiled" : "loops";
}

// IREE's ops (compat/) parse for dispatch formation only; they have no
// lowering here, so say which op stops `run` rather than fail deep in
// bufferization.
static LogicalResult checkNoCompatOps(ModuleOp module) {
  WalkResult result = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (!isCompatOp(op))
      return WalkResult::advance();
    op->emitOpError("has no lowering in dispatchlab's codegen: `dispatchlab "
                    "run` cannot execute it (`dispatchlab compile` can)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The initializers HoistIntoGlobals made (util.func, so that dispatch
/// creation left them alone) become the ones weight packing extends and the
/// runtime calls once before the host.
static void adoptHoistedInitializers(ModuleOp module) {
  convertUtilFuncsToFunc(module);
  for (auto function : module.getOps<func::FuncOp>())
    if (function->hasAttr(kInitializerOfAttr))
      function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                        UnitAttr::get(module.getContext()));
}

/// The model's function, its signature read into `compiled` and marked for
/// the C interface; arguments stay read-only (they are the caller's).
static FailureOr<func::FuncOp> prepareHostFunction(ModuleOp module,
                                                   CompiledModel &compiled) {
  FailureOr<func::FuncOp> host = getModelFunction(module);
  if (failed(host) || failed(readSignature(*host, compiled)))
    return failure();
  compiled.entrySymbol = "_mlir_ciface_" + host->getName().str();
  (*host)->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   UnitAttr::get(module.getContext()));
  for (unsigned i = 0, e = host->getNumArguments(); i < e; ++i)
    host->setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                     BoolAttr::get(module.getContext(), false));
  return host;
}

namespace {
/// The pass pipelines before and after bufferization.
struct HostPipelines {
  std::string tensor;
  std::string lowering;
};
} // namespace

static FailureOr<HostPipelines> buildPipelines(ModuleOp module,
                                               const CodegenOptions &options,
                                               CompiledModel &compiled) {
  HostPipelines pipelines;
  pipelines.tensor = kOutlinePipeline;
  if (options.mode == CodegenMode::Tiled)
    pipelines.tensor += "," + getTilePipeline(compiled.vectorWidth);
  pipelines.tensor += "," + std::string(kDecomposePackUnpackPipeline);
  // Deduplication after the per-dispatch measurements: from here on each
  // distinct dispatch is compiled once.
  pipelines.lowering = "dispatchlab-deduplicate-dispatches," +
                       getForallPipeline(options.threads) + "," +
                       getLoweringPipeline(compiled.vectorWidth);
  // Before deduplication: hook indices and names stay per call site.
  if (options.profileDispatches) {
    if (!options.dispatchBegin || !options.dispatchEnd)
      return module.emitError("dispatch profiling needs both hooks");
    pipelines.lowering =
        "dispatchlab-instrument-dispatch-calls," + pipelines.lowering;
  }
  compiled.pipeline =
      (options.widenFloats ? std::string(kWidenFloatsPipeline) + "," : "") +
      pipelines.tensor + "," + kBufferizePipeline + "," + pipelines.lowering;
  return pipelines;
}

/// JIT-compiles the lowered module into `compiled`, with the profiling hooks
/// if asked for, and measures its code size.
static LogicalResult jitCompile(ModuleOp module, const CodegenOptions &options,
                                CompiledModel &compiled) {
  auto start = std::chrono::steady_clock::now();
  SmallVector<std::pair<StringRef, void *>> symbols;
  if (options.profileDispatches) {
    symbols.emplace_back(kDispatchBeginFunction,
                         reinterpret_cast<void *>(options.dispatchBegin));
    symbols.emplace_back(kDispatchEndFunction,
                         reinterpret_cast<void *>(options.dispatchEnd));
  }
  // The tile tasks' async runtime: ours, which stays hot between dispatches.
  if (options.threads > 1) {
    reserveHostTaskWorkers(options.threads);
    llvm::append_range(symbols, getHostTaskRuntimeSymbols());
  }
  FailureOr<std::unique_ptr<HostJit>> engine =
      createEngine(module, options, symbols, compiled);
  if (failed(engine))
    return failure();
  compiled.engine = std::move(*engine);
  compiled.jitSeconds = secondsSince(start);
  compiled.codeSizeBytes = 0;
  for (const std::unique_ptr<llvm::MemoryBuffer> &object :
       compiled.engine->getObjects()) {
    llvm::Expected<int64_t> codeSize =
        measureObjectCodeSize(object->getMemBufferRef());
    if (!codeSize)
      return module.emitError(llvm::toString(codeSize.takeError()));
    compiled.codeSizeBytes += *codeSize;
  }
  return success();
}

FailureOr<CompiledModel> compileForHost(ModuleOp module,
                                        const CodegenOptions &options) {
  static bool registered = [] {
    registerAllPasses();
    registerCodegenPasses();
    // Codegen's first step for the fusion route lives with the other
    // encoding passes.
    registerMaterializeEncodingForHostPass();
    return true;
  }();
  (void)registered;

  // A failing pass or translation names the op; printing it would dump
  // whole dispatches (or the module) into the one-line error.
  MLIRContext *context = module.getContext();
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  llvm::scope_exit restore([&] { context->printOpOnDiagnostic(printOp); });

  CompiledModel compiled;
  compiled.vectorWidth = getHostF32VectorWidth();
  adoptHoistedInitializers(module);
  if (failed(runPipeline(
          module, getMaterializeEncodingsPipeline(compiled.vectorWidth))) ||
      failed(checkNoCompatOps(module)))
    return failure();
  auto start = std::chrono::steady_clock::now();
  if (options.widenFloats && failed(runPipeline(module, kWidenFloatsPipeline)))
    return failure();
  FailureOr<func::FuncOp> host = prepareHostFunction(module, compiled);
  if (failed(host))
    return failure();
  FailureOr<HostPipelines> pipelines =
      buildPipelines(module, options, compiled);
  if (failed(pipelines))
    return failure();
  std::string hostName = host->getName().str();
  if (failed(runPipeline(module, pipelines->tensor)) ||
      failed(readPackedInputs(module, hostName, compiled)) ||
      failed(runPipeline(module, kBufferizePipeline)))
    return failure();
  // The runner passes one descriptor per input, then per output.
  auto bufferized = module.lookupSymbol<func::FuncOp>(hostName);
  if (bufferized.getNumResults() != 0 ||
      bufferized.getNumArguments() !=
          compiled.inputs.size() + compiled.outputs.size())
    return bufferized.emitError("host function not in out-parameter form "
                                "after bufferization: ")
           << bufferized.getFunctionType();
  compiled.temporaries = measureTemporaries(module);
  compiled.transientPeakBytes = computeTransientPeakBytes(bufferized);
  if (failed(runPipeline(module, pipelines->lowering)))
    return failure();
  if (auto callees = module->getAttrOfType<ArrayAttr>(kDispatchCallsAttr)) {
    for (auto callee : callees.getAsRange<StringAttr>())
      compiled.profiledDispatches.push_back(callee.str());
    module->removeAttr(kDispatchCallsAttr);
  }
  compiled.codegenSeconds = secondsSince(start);
  if (failed(jitCompile(module, options, compiled)))
    return failure();
  return compiled;
}

} // namespace dispatchlab

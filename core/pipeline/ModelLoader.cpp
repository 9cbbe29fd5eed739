//===- ModelLoader.cpp - read a model into linalg-on-tensors IR -----------===//

#include "core/pipeline/ModelLoader.h"

#include "compat/UtilCompatDialect.h"
#include "core/onnx/OnnxModelFile.h"
#include "core/pipeline/ConvertUtilGlobals.h"
#include "core/pipeline/Passes.h"
#include "core/support/InputFile.h"
#include "heuristics/OpClassification.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

namespace dispatchlab {

/// Attaches the source's SSA result names to the ops defining them. The
/// parser drops names; its AsmParserState still records where each result
/// group was defined, and the text there is the name.
static void attachSourceNames(const AsmParserState &state) {
  for (const AsmParserState::OperationDefinition &def : state.getOpDefs()) {
    if (def.resultGroups.empty())
      continue;
    llvm::SMRange range = def.resultGroups.front().definition.loc;
    StringRef text(range.Start.getPointer(),
                   range.End.getPointer() - range.Start.getPointer());
    text.consume_front("%");
    if (text.empty())
      continue;
    Operation *op = def.op;
    op->setLoc(
        NameLoc::get(StringAttr::get(op->getContext(), text), op->getLoc()));
  }
}

/// parseAsmSourceFile, recovering from a crash in it: upstream parsers of
/// some ops' custom syntax (linalg.transpose, broadcast and reduce with a
/// non-integer `permutation`/`dimensions`) store a null attribute and crash
/// on malformed input. A crashed parse leaves `block` and `state` half
/// built, so they are leaked rather than destroyed.
static LogicalResult
parseRecoveringFromCrash(llvm::SourceMgr &sourceMgr,
                         std::unique_ptr<Block> &block,
                         std::unique_ptr<AsmParserState> &state,
                         const ParserConfig &config, StringRef path) {
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  LogicalResult parsed = failure();
  if (recovery.RunSafely([&] {
        parsed =
            parseAsmSourceFile(sourceMgr, block.get(), config, state.get());
      }))
    return parsed;
  (void)block.release();
  (void)state.release();
  emitError(FileLineColLoc::get(config.getContext(), path, 0, 0))
      << "the MLIR parser crashed on this input (an upstream parser bug, "
         "usually a malformed attribute in an op's custom syntax)";
  return failure();
}

/// IREE runs a function's `#util.preprocessing_pipeline` before dispatch
/// creation; we do not, and the dispatches may differ, so say so.
static void warnOfPreprocessingPipelines(ModuleOp module) {
  module.walk([](Operation *op) {
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (auto pipeline =
              dyn_cast<util::PreprocessingPipelineAttr>(attr.getValue()))
        emitWarning(op->getLoc(), "preprocessing pipeline '")
            << pipeline.getPipeline() << "' is not run by dispatchlab";
  });
}

OwningOpRef<ModuleOp> loadMlirModel(StringRef path, MLIRContext &context,
                                    llvm::SourceMgr &sourceMgr) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readInputFile(path, /*isText=*/true);
  if (!file) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << "cannot read model: " << llvm::toString(file.takeError());
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());

  auto block = std::make_unique<Block>();
  auto state = std::make_unique<AsmParserState>();
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  if (failed(parseRecoveringFromCrash(sourceMgr, block, state, config, path)))
    return nullptr;

  OwningOpRef<ModuleOp> module;
  if (block->getOperations().size() == 1 && isa<ModuleOp>(block->front())) {
    auto parsed = cast<ModuleOp>(&block->front());
    parsed->remove();
    module = parsed;
  } else {
    module = ModuleOp::create(FileLineColLoc::get(&context, path, 0, 0));
    module->getBody()->getOperations().splice(module->getBody()->begin(),
                                              block->getOperations());
  }
  attachSourceNames(*state);
  context.getOrLoadDialect<func::FuncDialect>();
  warnOfPreprocessingPipelines(*module);
  convertUtilFuncsToFunc(*module);
  if (failed(convertUtilGlobals(*module)))
    return nullptr;
  // Also verifies the module, whether or not it holds a pre-formed region.
  PassManager preformed(&context);
  preformed.addPass(createConvertPreformedRegionsPass());
  if (failed(preformed.run(*module)))
    return nullptr;
  // Byte counts of larger tensors would overflow int64_t in the stats.
  WalkResult sizes = module->walk([](Operation *op) {
    for (Type type : op->getResultTypes())
      if (!hasSupportedByteSize(type)) {
        emitError(op->getLoc(), "a tensor of more than 256 TiB: ") << type;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (sizes.wasInterrupted())
    return nullptr;
  // An empty file or module would report 0 dispatches as if it were a model.
  if (module->getOps<FunctionOpInterface>().empty()) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << "the model has no function to compile";
    return nullptr;
  }
  return module;
}

OwningOpRef<ModuleOp> loadModel(StringRef path, MLIRContext &context,
                                llvm::SourceMgr &sourceMgr,
                                const OnnxImportOptions &importOptions) {
  OwningOpRef<ModuleOp> module;
  if (onnx_import::isOnnxPath(path)) {
    FailureOr<OwningOpRef<ModuleOp>> imported =
        importOnnxModel(path, context, importOptions);
    if (failed(imported))
      return nullptr;
    module = std::move(*imported);
  } else {
    module = loadMlirModel(path, context, sourceMgr);
  }
  // Dispatch creation, the stats and the codegen work on every function of
  // the module; the weights' initializer is the runtime's (ParameterData.h),
  // and nothing of it is the model's compile.
  if (module)
    if (func::FuncOp parameters = findParameterFunction(*module))
      parameters.erase();
  return module;
}

} // namespace dispatchlab

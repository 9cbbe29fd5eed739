//===- DispatchCreationPipeline.cpp - the pipeline compile runs -----------===//

#include "core/pipeline/DispatchCreationPipeline.h"

#include "core/support/HostVectorWidth.h"
#include "core/support/Timing.h"
#include "globalopt/Passes.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <chrono>

using namespace mlir;

namespace dispatchlab {

namespace {
void addCleanup(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

// IREE's GlobalOptimization steps before named-op generalization, in its
// order (GlobalOptimization/Passes.cpp): pipeline=iree only.
void buildGlobalOptStage(OpPassManager &pm, const HeuristicOptions &options) {
  addCleanup(pm);
  if (options.detachElementwise)
    pm.addPass(globalopt::createDetachElementwiseFromNamedOpsPass());
  if (options.eraseUnusedOperands)
    pm.addPass(globalopt::createEraseUnusedLinalgOperandsPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  if (options.raiseSpecialOps)
    pm.addPass(globalopt::createRaiseSpecialOpsPass());
  if (options.decomposeConcat) {
    globalopt::DecomposeConcatPassOptions concat;
    concat.outerDimConcat = options.outerDimConcat;
    pm.addPass(globalopt::createDecomposeConcatPass(concat));
  }
}

// The demotion knobs as the pass's options (the pass takes the knobs' enums).
globalopt::DemoteContractionInputsPassOptions
demoteOptions(const HeuristicOptions &options) {
  globalopt::DemoteContractionInputsPassOptions demote;
  demote.demoteType = options.demoteContractionType;
  demote.demoteOperation = options.demoteContractionOperations;
  return demote;
}

// IREE's GlobalOptimization steps between FoldUnitExtentDims and the final
// generalization, in its order: DemoteContractionInputs,
// FuseDequantizationMatmul (opt-in), cleanup,
// ConvertBatchMatmulToMatmul (before transpose propagation, so that it sees
// pure broadcasts), PropagateLinalgTranspose, cleanup,
// ConvertStridedContractionToContraction, then GeneralizeLinalgNamedOps for
// the transposes propagation leaves, as the DispatchCreation steps expect
// generics. pipeline=iree only.
void buildLateGlobalOptStage(OpPassManager &pm,
                             const HeuristicOptions &options) {
  if (options.demoteContractionOperations != DemoteContractionOps::None)
    pm.addPass(
        globalopt::createDemoteContractionInputsPass(demoteOptions(options)));
  if (options.quantizedMatmulReassociation)
    pm.addPass(globalopt::createFuseDequantizationMatmulPass());
  addCleanup(pm);
  if (options.batchMatmulToMatmul)
    pm.addPass(globalopt::createConvertBatchMatmulToMatmulPass());
  if (options.propagateTransposes) {
    globalopt::PropagateLinalgTransposePassOptions propagation;
    propagation.aggressivePropagation = options.aggressiveTransposePropagation;
    pm.addPass(globalopt::createPropagateLinalgTransposePass(propagation));
  }
  addCleanup(pm);
  if (options.stridedContractionToContraction)
    pm.addPass(globalopt::createConvertStridedContractionToContractionPass());
  if (options.generalizeNamedOps)
    pm.addPass(createGeneralizeNamedOpsPass());
}

// IREE's late data-tiling route (GlobalOptimization/Passes.cpp under
// --iree-global-opt-data-tiling): hint and encode the contractions, then
// materialize the encodings for the host as MaterializeHomogeneousEncodings
// does for one CPU target, clean up, and simplify and propagate the packs.
void buildLateDataTilingStage(OpPassManager &pm) {
  pm.addPass(createAnnotateDataTilingHintsPass());
  pm.addPass(createSetEncodingPass());
  MaterializeEncodingForHostPassOptions materialize;
  materialize.vectorWidth = getHostF32VectorWidth();
  pm.addPass(createMaterializeEncodingForHostPass(materialize));
  addCleanup(pm);
  pm.addPass(globalopt::createSimplifyPackUnpackPass());
  pm.addPass(globalopt::createDataLayoutPropagationPass());
}

// The end of the prepare stage: the last raising, pads, IREE's
// FusionPreprocessing.
void buildFusionPreprocessing(OpPassManager &pm,
                              const HeuristicOptions &options) {
  if (options.pipeline == PipelineMode::Iree && options.raiseSpecialOps) {
    addCleanup(pm);
    pm.addPass(globalopt::createRaiseSpecialOpsPass());
  }
  if (!options.padHandling && !options.fusePadWithProducers) {
    TensorPadToTensorInsertSlicePassOptions pad;
    pad.skipOneLinalgUseCase = options.fusePadWithConsumers;
    pm.addPass(createTensorPadToTensorInsertSlicePass(pad));
  }
  addCleanup(pm);
  pm.addPass(createFusionPreprocessingPass());
  addCleanup(pm);
}

// Stand-in for IREE's GlobalOptimization: convert tensor arith to linalg,
// generalize IREE's list of named ops and fold unit-extent dims, in its order.
// pipeline=iree runs the steps of buildGlobalOptStage first, those of
// buildLateGlobalOptStage after the fold, then const-expr hoisting (a module
// pass: it adds each host's initializer) and raises special ops once more,
// as IREE's pipeline does at its end. The late data-tiling route runs where
// IREE runs it, before the hoisting.
void buildPrepareStage(OpPassManager &modulePm,
                       const HeuristicOptions &options) {
  bool iree = options.pipeline == PipelineMode::Iree;
  OpPassManager &pm = modulePm.nest<func::FuncOp>();
  if (iree)
    buildGlobalOptStage(pm, options);
  if (options.generalizeNamedOps)
    pm.addPass(createGeneralizeNamedOpsPass());
  else
    pm.addPass(createConvertElementwiseToLinalgPass());
  if (options.foldUnitExtentDims)
    pm.addPass(createFoldUnitExtentDimsPass());
  if (iree)
    buildLateGlobalOptStage(pm, options);
  if (options.dataTiling == DataTilingMode::Late)
    buildLateDataTilingStage(pm);
  if (iree && options.constExprHoisting) {
    addCleanup(pm);
    globalopt::HoistIntoGlobalsPassOptions hoist;
    hoist.maxSizeIncreaseThreshold = options.constExprMaxSizeIncrease;
    modulePm.addPass(globalopt::createHoistIntoGlobalsPass(hoist));
  }
  buildFusionPreprocessing(modulePm.nest<func::FuncOp>(), options);
}

void addElementwiseFusion(OpPassManager &pm, const HeuristicOptions &options) {
  if (options.elementwiseFusion == ElementwiseFusionMode::Off)
    return;
  ElementwiseOpFusionPassOptions fusion;
  fusion.mode = options.elementwiseFusion;
  fusion.fuseTruncateOps = options.earlyTruncFusion;
  fusion.maxOperands = options.maxOperands;
  pm.addPass(createElementwiseOpFusionPass(fusion));
  addCleanup(pm);
}

// Today's elementwise fusion and reshape propagation, or IREE's single
// FusionOfTensorOps pass of 2022 for the pr8723-* modes.
void addFusionAndReshapePropagation(OpPassManager &pm,
                                    const HeuristicOptions &options) {
  if (isPr8723Mode(options.elementwiseFusion)) {
    FusionOfTensorOpsPr8723PassOptions era;
    era.mode = options.elementwiseFusion;
    pm.addPass(createFusionOfTensorOpsPr8723Pass(era));
    addCleanup(pm);
    return;
  }
  addElementwiseFusion(pm, options);
  BubbleUpExpandShapesPassOptions bubbleUp;
  bubbleUp.aggressiveReshapeMovement = options.aggressiveReshapeMovement;
  pm.addPass(createBubbleUpExpandShapesPass(bubbleUp));
  addCleanup(pm);
  addElementwiseFusion(pm, options);
  pm.addPass(createSinkReshapesPass());
  addCleanup(pm);
}

void buildFuseStage(OpPassManager &pm, const HeuristicOptions &options) {
  addFusionAndReshapePropagation(pm, options);
  if (options.horizontalContractions)
    pm.addPass(createFuseHorizontalContractionsPass());
  if (options.fuseMultiUse &&
      options.elementwiseFusion != ElementwiseFusionMode::Off) {
    pm.addPass(createFuseMultiUseElementwiseProducerPass());
    addCleanup(pm);
  }
  pm.addPass(createFormSplitReductionDispatchesPass());
  pm.addPass(createTransposeGenericOpsPass());
}

// IREE's experimental data-tiling route, right after producer cloning
// (DispatchCreation/Passes.cpp): hint, encode in place, hoist out, fuse
// into producers.
void buildDataTilingStage(OpPassManager &pm, const HeuristicOptions &options) {
  pm.addPass(createAnnotateDataTilingHintsPass());
  pm.addPass(createSetEncodingPass());
  HoistEncodingOpsPassOptions hoist;
  hoist.hoistSlices = options.encodingHoistSlices;
  hoist.unhoistedError = options.encodingUnhoistedError;
  pm.addPass(createHoistEncodingOpsPass(hoist));
  pm.addPass(createFuseEncodingOpsIntoDispatchRegionsPass());
}

// No canonicalization once dispatches exist: folding would hoist the
// constants cloned into them back out.
void buildFormStage(OpPassManager &pm, const HeuristicOptions &options) {
  bool full = options.pipeline != PipelineMode::Formation;
  if (full)
    pm.addPass(createFormScalarDispatchesPass());
  pm.addPass(createFormDispatchRegionsPass(options));
  pm.addPass(createCloneProducersIntoDispatchRegionsPass(options));
  if (options.dataTiling == DataTilingMode::Fusion)
    buildDataTilingStage(pm, options);
  if (full)
    pm.addPass(createFormCopyDispatchesPass());
}

// Of the functions dispatch creation runs on: not the hoisted initializers
// (util.func), whose work IREE's const-eval removes.
int64_t countGenerics(ModuleOp module) {
  int64_t count = 0;
  for (auto function : module.getOps<func::FuncOp>())
    function.walk([&](linalg::GenericOp) { ++count; });
  return count;
}

/// `preset=NAME` (wherever it stands) with every other `key=value` over it.
llvm::Expected<HeuristicOptions> parsePipelineOptions(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  StringRef preset;
  std::vector<std::pair<std::string, std::string>> overrides;
  for (StringRef part : parts) {
    auto [key, value] = part.split('=');
    if (key == "preset")
      preset = value;
    else
      overrides.emplace_back(key.str(), value.str());
  }
  return HeuristicOptions::resolve(preset, overrides);
}
} // namespace

void buildDispatchCreationStage(OpPassManager &pm, DispatchCreationStage stage,
                                const HeuristicOptions &options) {
  // Formation mode runs formation and cloning on the IR as written, packed
  // first under the late data-tiling route.
  bool full = options.pipeline != PipelineMode::Formation;
  switch (stage) {
  case DispatchCreationStage::Prepare:
    if (full)
      buildPrepareStage(pm, options);
    else if (options.dataTiling == DataTilingMode::Late)
      buildLateDataTilingStage(pm.nest<func::FuncOp>());
    return;
  case DispatchCreationStage::Fuse:
    if (full)
      buildFuseStage(pm.nest<func::FuncOp>(), options);
    return;
  case DispatchCreationStage::Form:
    buildFormStage(pm.nest<func::FuncOp>(), options);
    return;
  }
}

void buildDispatchCreationPipeline(OpPassManager &pm,
                                   const HeuristicOptions &options) {
  for (DispatchCreationStage stage :
       {DispatchCreationStage::Prepare, DispatchCreationStage::Fuse,
        DispatchCreationStage::Form})
    buildDispatchCreationStage(pm, stage, options);
}

void registerDispatchCreationPipeline() {
  registerPassPipeline(
      "dispatchlab-dispatch-creation",
      "dispatchlab's DispatchCreation pipeline; options: preset=NAME and the "
      "heuristic knobs (key=value)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        llvm::Expected<HeuristicOptions> options = parsePipelineOptions(text);
        if (!options)
          return errorHandler(llvm::toString(options.takeError()));
        buildDispatchCreationPipeline(pm, *options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
}

FailureOr<DispatchCreationResult>
runDispatchCreation(ModuleOp module, const HeuristicOptions &options) {
  DispatchCreationResult result;
  auto timed = [&](DispatchCreationStage stage, double &seconds) {
    auto start = std::chrono::steady_clock::now();
    PassManager pm(module.getContext());
    buildDispatchCreationStage(pm, stage, options);
    LogicalResult status = pm.run(module);
    seconds = secondsSince(start);
    return status;
  };
  if (failed(timed(DispatchCreationStage::Prepare, result.prepareSeconds)))
    return failure();
  result.genericBefore = countGenerics(module);
  if (failed(timed(DispatchCreationStage::Fuse, result.fuseSeconds)))
    return failure();
  result.genericAfter = countGenerics(module);
  if (failed(timed(DispatchCreationStage::Form, result.formSeconds)))
    return failure();
  return result;
}

} // namespace dispatchlab

//===- DispatchCreationPipeline.cpp - the pipeline compile runs -----------===//

#include "core/pipeline/DispatchCreationPipeline.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <chrono>

using namespace mlir;

namespace dispatchlab {

static std::string boolText(bool value) { return value ? "true" : "false"; }

DispatchCreationStages
buildDispatchCreationStages(const HeuristicOptions &options) {
  DispatchCreationStages stages;
  std::string formation = "dispatchlab-form-dispatch-regions{" +
                          options.formationPassOptions() + "}";
  std::string cloning =
      "dispatchlab-clone-producers-into-dispatch-regions{aggressive-fusion=" +
      boolText(options.aggressiveFusion) +
      " inline-constant-bytes=" + std::to_string(options.inlineConstantBytes) +
      "}";

  if (options.pipeline == PipelineMode::Formation) {
    stages.form = formation + "," + cloning;
    return stages;
  }

  // Stand-in for IREE's GlobalOptimization: convert tensor arith to linalg
  // and generalize IREE's list of named ops.
  stages.prepare = "dispatchlab-generalize-named-ops";
  if (!options.padHandling && !options.fusePadWithProducers)
    stages.prepare += ",dispatchlab-tensor-pad-to-tensor-insert-slice{"
                      "skip-one-linalg-use-case=" +
                      boolText(options.fusePadWithConsumers) + "}";
  stages.prepare += ",canonicalize,cse,dispatchlab-fusion-preprocessing,"
                    "canonicalize,cse";

  std::string elementwiseFusion;
  if (options.elementwiseFusion != ElementwiseFusionMode::Off)
    elementwiseFusion =
        "dispatchlab-elementwise-op-fusion{mode=" +
        stringify(options.elementwiseFusion).str() +
        " fuse-truncate-ops=" + boolText(options.earlyTruncFusion) +
        " max-operands=" + std::to_string(options.maxOperands) +
        "},canonicalize,cse,";
  stages.fuse = elementwiseFusion +
                "dispatchlab-bubble-up-expand-shapes,canonicalize,cse," +
                elementwiseFusion +
                "dispatchlab-sink-reshapes,canonicalize,cse";
  if (options.horizontalContractions)
    stages.fuse += ",dispatchlab-fuse-horizontal-contractions";
  if (options.fuseMultiUse &&
      options.elementwiseFusion != ElementwiseFusionMode::Off)
    stages.fuse +=
        ",dispatchlab-fuse-multi-use-elementwise-producer,canonicalize,cse";
  stages.fuse += ",dispatchlab-transpose-generic-ops";

  // No canonicalization once dispatches exist: folding would hoist the
  // constants cloned into them back out.
  stages.form = "dispatchlab-form-scalar-dispatches," + formation + "," +
                cloning + ",dispatchlab-form-copy-dispatches";
  return stages;
}

static int64_t countGenerics(ModuleOp module) {
  int64_t count = 0;
  module.walk([&](linalg::GenericOp) { ++count; });
  return count;
}

static LogicalResult runStage(ModuleOp module, StringRef funcPipeline) {
  if (funcPipeline.empty())
    return success();
  PassManager pm(module.getContext());
  std::string text = ("func.func(" + funcPipeline + ")").str();
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(text, pm, errorStream)))
    return module.emitError("invalid dispatch creation pipeline '")
           << text << "': " << error;
  return pm.run(module);
}

FailureOr<DispatchCreationResult>
runDispatchCreation(ModuleOp module, const HeuristicOptions &options) {
  DispatchCreationStages stages = buildDispatchCreationStages(options);
  DispatchCreationResult result;
  auto timed = [&](StringRef stage, double &seconds) {
    auto start = std::chrono::steady_clock::now();
    LogicalResult status = runStage(module, stage);
    seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    return status;
  };
  if (failed(timed(stages.prepare, result.prepareSeconds)))
    return failure();
  result.genericBefore = countGenerics(module);
  if (failed(timed(stages.fuse, result.fuseSeconds)))
    return failure();
  result.genericAfter = countGenerics(module);
  if (failed(timed(stages.form, result.formSeconds)))
    return failure();
  return result;
}

} // namespace dispatchlab

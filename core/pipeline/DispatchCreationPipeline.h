//===- DispatchCreationPipeline.h - the pipeline compile runs ---*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_DISPATCHCREATIONPIPELINE_H
#define DISPATCHLAB_CORE_PIPELINE_DISPATCHCREATIONPIPELINE_H

#include "heuristics/HeuristicOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace dispatchlab {

/// The three stages of dispatch creation, timed apart.
enum class DispatchCreationStage {
  /// Cleanup, pad handling, generalization, FusionPreprocessing: up to
  /// elementwise fusion.
  Prepare,
  /// Elementwise fusion, reshape propagation, horizontal contraction and
  /// multi-use fusion.
  Fuse,
  /// Region formation, cloning, leftover and copy dispatches.
  Form,
};

/// Adds the passes of one stage that `options` select to `pm`, a pass
/// manager on the module; the passes run on its func.func ops, but for
/// const-expr hoisting, which adds each host's initializer (IREE's
/// DispatchCreation pipeline, reduced to the steps that change the dispatch
/// count).
void buildDispatchCreationStage(mlir::OpPassManager &pm,
                                DispatchCreationStage stage,
                                const HeuristicOptions &options);

/// Every stage, nested on the module's func.func ops.
void buildDispatchCreationPipeline(mlir::OpPassManager &pm,
                                   const HeuristicOptions &options);

/// Registers `dispatchlab-dispatch-creation`, whose options are `preset=NAME`
/// and the knobs (`key=value`, as HeuristicKnobs.def spells them).
void registerDispatchCreationPipeline();

struct DispatchCreationResult {
  /// linalg.generic count before and after elementwise fusion.
  int64_t genericBefore = 0;
  int64_t genericAfter = 0;
  /// Wall time of the prepare, fuse and form stages.
  double prepareSeconds = 0;
  double fuseSeconds = 0;
  double formSeconds = 0;
};

/// Runs the pipeline on `module`. Pass failures are reported through the
/// context's diagnostics.
mlir::FailureOr<DispatchCreationResult>
runDispatchCreation(mlir::ModuleOp module, const HeuristicOptions &options);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_DISPATCHCREATIONPIPELINE_H

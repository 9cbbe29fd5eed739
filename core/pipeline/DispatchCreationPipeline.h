//===- DispatchCreationPipeline.h - the pipeline compile runs ---*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_DISPATCHCREATIONPIPELINE_H
#define DISPATCHLAB_CORE_PIPELINE_DISPATCHCREATIONPIPELINE_H

#include "heuristics/HeuristicOptions.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace dispatchlab {

/// The three stages of dispatch creation as textual pass pipelines, so the
/// exact passes and options can be printed and recorded as provenance.
struct DispatchCreationStages {
  /// Cleanup, pad handling, generalization, FusionPreprocessing: up to
  /// elementwise fusion.
  std::string prepare;
  /// Elementwise fusion, reshape propagation, horizontal contraction and
  /// multi-use fusion.
  std::string fuse;
  /// Region formation, cloning, leftover and copy dispatches.
  std::string form;
};

/// The pipeline `options` select (spec section 8, reduced to the steps that
/// change the dispatch count).
DispatchCreationStages
buildDispatchCreationStages(const HeuristicOptions &options);

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

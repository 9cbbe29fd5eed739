//===- Passes.h - dispatchlab heuristic passes ------------------*- C++ -*-===//

#ifndef DISPATCHLAB_HEURISTICS_PASSES_H
#define DISPATCHLAB_HEURISTICS_PASSES_H

#include "heuristics/DispatchDialect.h"
#include "heuristics/HeuristicOptions.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace dispatchlab {

#define GEN_PASS_DECL
#include "heuristics/Passes.h.inc"

/// The unit attribute AnnotateDataTilingHints puts on the contractions that
/// SetEncoding encodes (IREE's `iree.opt.data_tiling`).
inline constexpr llvm::StringLiteral kDataTilingHintAttr =
    "dispatchlab.data_tiling_hint";

/// The passes whose options are HeuristicOptions knobs, built with them.
std::unique_ptr<mlir::Pass>
createFormDispatchRegionsPass(const HeuristicOptions &options);
std::unique_ptr<mlir::Pass>
createCloneProducersIntoDispatchRegionsPass(const HeuristicOptions &options);

#define GEN_PASS_REGISTRATION
#include "heuristics/Passes.h.inc"

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_PASSES_H

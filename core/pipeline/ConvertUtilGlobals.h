//===- ConvertUtilGlobals.h - IREE's weights as ours ------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_CONVERTUTILGLOBALS_H
#define DISPATCHLAB_CORE_PIPELINE_CONVERTUTILGLOBALS_H

#include "mlir/IR/BuiltinOps.h"

namespace dispatchlab {

/// Rewrites IREE's immutable globals to ours. A global a util.initializer
/// stores is computed again in each function that loads it (the
/// initializer's ops cloned at the function's start). Any other load of a
/// global holding elements becomes a constant of them; of any other (no
/// value, a byte pattern), an argument of its function tagged
/// `dispatchlab.parameter` with the global's name, the form the ONNX
/// importer gives weights. Then the globals and initializers go. A mutable
/// global, or a load of a missing one, is an error at it. Likewise a
/// flow.tensor.constant becomes a constant of its elements or the argument
/// for the parameter it names (`#flow.parameter.named`, tagged with its
/// key).
mlir::LogicalResult convertUtilGlobals(mlir::ModuleOp module);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_CONVERTUTILGLOBALS_H

//===- ConvertUtilGlobals.h - IREE's weights as ours ------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_CONVERTUTILGLOBALS_H
#define DISPATCHLAB_CORE_PIPELINE_CONVERTUTILGLOBALS_H

#include "mlir/IR/BuiltinOps.h"

namespace dispatchlab {

/// Rewrites IREE's immutable globals to ours: each util.global.load of a
/// global holding elements becomes a constant of them; of any other (no
/// value, a byte pattern, a parameter reference), an argument of its
/// function tagged `dispatchlab.parameter` with the global's name, the form
/// the ONNX importer gives weights. Then the globals go. A mutable global,
/// or a load of a missing one, is an error at it.
mlir::LogicalResult convertUtilGlobals(mlir::ModuleOp module);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_CONVERTUTILGLOBALS_H

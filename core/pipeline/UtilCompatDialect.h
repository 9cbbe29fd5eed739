//===- UtilCompatDialect.h - IREE's util.func spelling ----------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_UTILCOMPATDIALECT_H
#define DISPATCHLAB_CORE_PIPELINE_UTILCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "core/pipeline/UtilCompatDialect.h.inc"

#define GET_OP_CLASSES
#include "core/pipeline/UtilCompatOps.h.inc"

namespace dispatchlab {

/// Rewrites every util.func / util.return in `module` to func.func /
/// func.return, keeping bodies, names and visibility.
void convertUtilFuncsToFunc(mlir::ModuleOp module);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_UTILCOMPATDIALECT_H

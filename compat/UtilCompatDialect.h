//===- UtilCompatDialect.h - IREE's util.func spelling ----------*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_UTILCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_UTILCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compat/UtilCompatDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/UtilCompatAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compat/UtilCompatTypes.h.inc"

#define GET_OP_CLASSES
#include "compat/UtilCompatOps.h.inc"

namespace dispatchlab {

/// Rewrites every util.func / util.return in `module` to func.func /
/// func.return, keeping bodies, names, visibility and attributes.
void convertUtilFuncsToFunc(mlir::ModuleOp module);

} // namespace dispatchlab

#endif // DISPATCHLAB_COMPAT_UTILCOMPATDIALECT_H

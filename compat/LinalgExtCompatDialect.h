//===- LinalgExtCompatDialect.h - IREE's iree_linalg_ext ops ----*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_LINALGEXTCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_LINALGEXTCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compat/LinalgExtCompatDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/LinalgExtCompatAttrs.h.inc"

#include "compat/LinalgExtCompatInterfaces.h.inc"

#define GET_OP_CLASSES
#include "compat/LinalgExtCompatOps.h.inc"

#endif // DISPATCHLAB_COMPAT_LINALGEXTCOMPATDIALECT_H

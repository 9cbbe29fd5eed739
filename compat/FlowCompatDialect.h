//===- FlowCompatDialect.h - IREE's flow.dispatch.region --------*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compat/FlowCompatDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/FlowCompatAttrs.h.inc"

#define GET_OP_CLASSES
#include "compat/FlowCompatOps.h.inc"

#endif // DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_H

//===- HalCompatDialect.h - IREE's hal tensor import/export -----*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_HALCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_HALCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compat/HalCompatDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compat/HalCompatTypes.h.inc"

#define GET_OP_CLASSES
#include "compat/HalCompatOps.h.inc"

#endif // DISPATCHLAB_COMPAT_HALCOMPATDIALECT_H

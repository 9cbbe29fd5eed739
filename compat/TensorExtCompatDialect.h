//===- TensorExtCompatDialect.h - IREE's iree_tensor_ext --------*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_TENSOREXTCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_TENSOREXTCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compat/TensorExtCompatDialect.h.inc"

#define GET_OP_CLASSES
#include "compat/TensorExtCompatOps.h.inc"

#endif // DISPATCHLAB_COMPAT_TENSOREXTCOMPATDIALECT_H

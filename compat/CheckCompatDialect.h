//===- CheckCompatDialect.h - IREE's check.expect_almost_eq -----*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_CHECKCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_CHECKCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "compat/CheckCompatDialect.h.inc"

#define GET_OP_CLASSES
#include "compat/CheckCompatOps.h.inc"

#endif // DISPATCHLAB_COMPAT_CHECKCOMPATDIALECT_H

//===- EncodingCompatDialect.h - IREE's iree_encoding -----------*- C++ -*-===//

#ifndef DISPATCHLAB_COMPAT_ENCODINGCOMPATDIALECT_H
#define DISPATCHLAB_COMPAT_ENCODINGCOMPATDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compat/EncodingCompatEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/EncodingCompatAttrs.h.inc"

#include "compat/EncodingCompatDialect.h.inc"

#define GET_OP_CLASSES
#include "compat/EncodingCompatOps.h.inc"

#endif // DISPATCHLAB_COMPAT_ENCODINGCOMPATDIALECT_H

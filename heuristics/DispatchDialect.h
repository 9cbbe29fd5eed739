//===- DispatchDialect.h - dispatchlab's dispatch dialect -------*- C++ -*-===//

#ifndef DISPATCHLAB_HEURISTICS_DISPATCHDIALECT_H
#define DISPATCHLAB_HEURISTICS_DISPATCHDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "heuristics/DispatchDialect.h.inc"

#define GET_OP_CLASSES
#include "heuristics/DispatchOps.h.inc"

#endif // DISPATCHLAB_HEURISTICS_DISPATCHDIALECT_H

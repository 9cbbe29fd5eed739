//===- Passes.h - IREE's GlobalOptimization steps ---------------*- C++ -*-===//

#ifndef DISPATCHLAB_GLOBALOPT_PASSES_H
#define DISPATCHLAB_GLOBALOPT_PASSES_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace dispatchlab::globalopt {

/// DemoteContractionInputs' `type`: IREE's DemoteType.
enum class DemoteType { F16, BF16 };

/// DemoteContractionInputs' `operation`: IREE's DemoteOperation.
enum class DemoteOperation { All, Conv, Matmul, None };

#define GEN_PASS_DECL
#include "globalopt/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "globalopt/Passes.h.inc"

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_PASSES_H

//===- Passes.h - IREE's GlobalOptimization steps ---------------*- C++ -*-===//

#ifndef DISPATCHLAB_GLOBALOPT_PASSES_H
#define DISPATCHLAB_GLOBALOPT_PASSES_H

#include "compat/UtilCompatDialect.h"
#include "heuristics/HeuristicOptions.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace dispatchlab::globalopt {

#define GEN_PASS_DECL
#include "globalopt/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "globalopt/Passes.h.inc"

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_PASSES_H

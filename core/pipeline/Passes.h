//===- Passes.h - passes of the model-loading pipeline ----------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_PASSES_H
#define DISPATCHLAB_CORE_PIPELINE_PASSES_H

#include "heuristics/DispatchDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dispatchlab {

#define GEN_PASS_DECL
#include "core/pipeline/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "core/pipeline/Passes.h.inc"

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_PASSES_H

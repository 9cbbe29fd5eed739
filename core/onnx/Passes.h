//===- Passes.h - the ONNX importer's cleanups ------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_ONNX_PASSES_H
#define DISPATCHLAB_CORE_ONNX_PASSES_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace dispatchlab {

#define GEN_PASS_DECL
#include "core/onnx/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "core/onnx/Passes.h.inc"

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ONNX_PASSES_H

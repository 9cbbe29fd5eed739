//===- Registration.h - dialects and passes dispatchlab uses ----*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_REGISTRATION_H
#define DISPATCHLAB_CORE_PIPELINE_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace dispatchlab {

/// Every dialect an input model or a pipeline stage may contain, with the
/// external interface models (tiling, bufferization) Linalg needs.
void registerDialects(mlir::DialectRegistry &registry);

/// The dispatch-creation passes plus the upstream ones its pipelines use
/// (codegen registers its own: registerCodegenPasses).
void registerPasses();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_REGISTRATION_H

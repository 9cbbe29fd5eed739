//===- LogisticExpansion.h - a sigmoid in vector arithmetic -----*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_LOGISTICEXPANSION_H
#define DISPATCHLAB_CORE_CODEGEN_LOGISTICEXPANSION_H

#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {

/// Rewrites `1 / (1 + exp(z))` over f32 vectors (the sigmoid SiLU and
/// squeeze-excite gates compute) into one exponential of -|z|, a reciprocal
/// estimate and a reflection; must run before exp becomes a polynomial.
void populateLogisticExpansionPatterns(mlir::RewritePatternSet &patterns);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_LOGISTICEXPANSION_H

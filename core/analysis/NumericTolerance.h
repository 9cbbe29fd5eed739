//===- NumericTolerance.h - how close outputs must be to the reference ----===//
//
// `dispatchlab run` checks a variant's outputs against an f32 reference.
// For an f32 model the accepted relative difference is the --tolerance
// floor; a model computing in f16 or bf16 may differ from the f32 result by
// its own roundings, which depend on the element type and on how many
// roundings a result goes through, not on the host. This derives that
// bound from the IR instead of tuning a constant on one machine.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ANALYSIS_NUMERICTOLERANCE_H
#define DISPATCHLAB_CORE_ANALYSIS_NUMERICTOLERANCE_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>

namespace dispatchlab {

/// The narrowest float type a model computes in, and how many roundings in
/// it a result can go through.
struct PrecisionBasis {
  /// "f32" when nothing narrower is computed in.
  std::string elementType = "f32";
  /// Unit roundoff u of elementType: 2^-11 for f16, 2^-8 for bf16; 0 for
  /// f32, whose roundings the floor covers.
  double unitRoundoff = 0;
  /// Over the Linalg ops with a narrow operand or result: the product of
  /// the reduction extents (1 without reductions), summed. An upper bound
  /// on the accumulation depth along any path to an output.
  int64_t roundingSteps = 0;
};

/// Reads the basis from a module of Linalg ops (before codegen).
PrecisionBasis analyzePrecision(mlir::ModuleOp module);

/// max(floor, 2 u sqrt(roundingSteps)). Rounding errors of n accumulated
/// operations grow like sqrt(n) u in practice (Higham and Mary's
/// probabilistic bound), where the worst case n u would accept almost
/// anything in f16; the factor 2 covers the check taking the largest error
/// over every element (mixed_precision_block: 8.8e-3 measured, 2.2e-2
/// accepted).
double deriveTolerance(const PrecisionBasis &basis, double floor);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ANALYSIS_NUMERICTOLERANCE_H

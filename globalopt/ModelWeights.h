//===- ModelWeights.h - which values are the model's weights ----*- C++ -*-===//
//
// The weights the importer tags on a function's arguments
// (core/support/WeightArguments.h), for const-expr hoisting (its roots) and
// for formation and codegen above it (weight packs, packed panels).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_GLOBALOPT_MODELWEIGHTS_H
#define DISPATCHLAB_GLOBALOPT_MODELWEIGHTS_H

#include "mlir/IR/Value.h"

namespace dispatchlab {

/// Whether `value` is an argument of a function holding a weight of the
/// model (tagged by the importer, core/support/WeightArguments.h).
bool isParameter(mlir::Value value);

} // namespace dispatchlab

#endif // DISPATCHLAB_GLOBALOPT_MODELWEIGHTS_H

//===- CompatDialects.h - which dialects are IREE's spellings ---*- C++ -*-===//
//
// The compat dialects exist so that IREE's IR parses and dispatches form as
// IREE forms them; none of their ops has a lowering to host code.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_COMPATDIALECTS_H
#define DISPATCHLAB_COMPAT_COMPATDIALECTS_H

#include "mlir/IR/Operation.h"

namespace dispatchlab {

/// Whether `op` is one of IREE's ops spelled by a compat dialect.
bool isCompatOp(mlir::Operation *op);

} // namespace dispatchlab

#endif // DISPATCHLAB_COMPAT_COMPATDIALECTS_H

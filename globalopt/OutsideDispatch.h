//===- OutsideDispatch.h - ops GlobalOptimization may rewrite ---*- C++ -*-===//

#ifndef DISPATCHLAB_GLOBALOPT_OUTSIDEDISPATCH_H
#define DISPATCHLAB_GLOBALOPT_OUTSIDEDISPATCH_H

#include "mlir/IR/Operation.h"

namespace dispatchlab::globalopt {

/// IREE's isNonNullAndOutsideDispatch: GlobalOptimization leaves pre-formed
/// dispatches alone. The region op is named rather than included, since
/// this library sits below the one that defines the dispatch dialect.
inline bool isOutsideDispatch(mlir::Operation *op) {
  for (mlir::Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->getName().getStringRef() == "dispatch.region")
      return false;
  return true;
}

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_OUTSIDEDISPATCH_H

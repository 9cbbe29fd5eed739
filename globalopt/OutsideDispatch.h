//===- OutsideDispatch.h - ops GlobalOptimization may rewrite ---*- C++ -*-===//

#ifndef DISPATCHLAB_GLOBALOPT_OUTSIDEDISPATCH_H
#define DISPATCHLAB_GLOBALOPT_OUTSIDEDISPATCH_H

#include "mlir/IR/Operation.h"

namespace dispatchlab::globalopt {

/// IREE's isNonNullAndOutsideDispatch: GlobalOptimization leaves pre-formed
/// dispatches alone, ours and IREE's `flow.dispatch.region` (the compat
/// spelling). The region ops are named rather than included, since this
/// library sits below the ones that define them.
inline bool isOutsideDispatch(mlir::Operation *op) {
  for (mlir::Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    llvm::StringRef name = parent->getName().getStringRef();
    if (name == "dispatch.region" || name == "flow.dispatch.region")
      return false;
  }
  return true;
}

} // namespace dispatchlab::globalopt

#endif // DISPATCHLAB_GLOBALOPT_OUTSIDEDISPATCH_H

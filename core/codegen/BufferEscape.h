//===- BufferEscape.h - whether a use may let a buffer outlive it -*- C++
//-*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_BUFFERESCAPE_H
#define DISPATCHLAB_CORE_CODEGEN_BUFFERESCAPE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace dispatchlab {

/// Whether `user` may let a buffer outlive it other than through the views
/// BufferViewFlowAnalysis follows: a return, or an op (a call) that produces
/// memrefs other than views.
inline bool mayLetBufferEscape(mlir::Operation *user) {
  if (mlir::isa<mlir::func::ReturnOp>(user))
    return true;
  if (mlir::isa<mlir::ViewLikeOpInterface>(user))
    return false;
  return llvm::any_of(user->getResultTypes(),
                      llvm::IsaPred<mlir::BaseMemRefType>);
}

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_BUFFERESCAPE_H

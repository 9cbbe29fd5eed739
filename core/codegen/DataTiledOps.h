//===- DataTiledOps.h - ops of packed (data-tiled) layouts ------*- C++ -*-===//
//
// The ops dispatchlab-materialize-encoding-for-host leaves in a dispatch:
// such a dispatch is tiled by dispatchlab-tile-data-tiled-dispatches, not by
// dispatchlab-tile-and-fuse-dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_DATATILEDOPS_H
#define DISPATCHLAB_CORE_CODEGEN_DATATILEDOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace dispatchlab {

/// Whether `op` is a linalg.pack, linalg.unpack, mmt4d or batch_mmt4d.
bool isDataTiledOp(mlir::Operation *op);

/// Whether `function` holds a data-tiled op.
bool containsDataTiledOps(mlir::func::FuncOp function);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_DATATILEDOPS_H

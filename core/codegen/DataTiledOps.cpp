//===- DataTiledOps.cpp - ops of packed (data-tiled) layouts --------------===//

#include "core/codegen/DataTiledOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace dispatchlab {

bool isDataTiledOp(Operation *op) {
  return isa<linalg::PackOp, linalg::UnPackOp, linalg::Mmt4DOp,
             linalg::BatchMmt4DOp>(op);
}

bool containsDataTiledOps(func::FuncOp function) {
  return function
      .walk([](Operation *op) {
        return isDataTiledOp(op) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

} // namespace dispatchlab

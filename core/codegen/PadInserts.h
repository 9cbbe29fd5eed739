//===- PadInserts.h - a pad as a fill and an insert -------------*- C++ -*-===//
//
// A tensor.pad that dispatch formation did not fuse is a fill of the padded
// tensor in the host and a dispatch inserting the unpadded value into it
// (TensorPadToTensorInsertSlice). FillPaddingBorders and DropPaddingTaps
// both recognise it by these.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PADINSERTS_H
#define DISPATCHLAB_CORE_CODEGEN_PADINSERTS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dispatchlab {

/// Whether `insert` writes a static box of its destination: rank for rank,
/// static offsets and sizes, unit strides.
bool isStaticBoxInsert(mlir::tensor::InsertSliceOp insert);

/// The result of the dispatch region directly holding `insert` that
/// returns it as it is, else null.
mlir::OpResult getRegionResultOf(mlir::tensor::InsertSliceOp insert);

/// Whether `value` is a constant zero, float or integer.
bool isZeroConstant(mlir::Value value);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_PADINSERTS_H

//===- SliceContiguity.h - contiguous (DMA-able) slices ---------*- C++ -*-===//

#ifndef DISPATCHLAB_HEURISTICS_SLICECONTIGUITY_H
#define DISPATCHLAB_HEURISTICS_SLICECONTIGUITY_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"

namespace dispatchlab {

/// Mirrors IREE's isOffsetSizeAndStrideMappableToFlow (TensorToFlow's
/// Utils.cpp): true if the slice of `base` (offsets/sizes/strides, one per
/// dim of `base`) is one contiguous memory range. Walking from the innermost
/// dim out, strides must be 1; while inner dims are full a dim may have any
/// offset and size, after a partial dim every outer size must be 1. Offsets
/// and sizes computed from a `tensor.extract` (device data) are rejected.
bool isContiguousSlice(mlir::Value base,
                       llvm::ArrayRef<mlir::OpFoldResult> offsets,
                       llvm::ArrayRef<mlir::OpFoldResult> sizes,
                       llvm::ArrayRef<mlir::OpFoldResult> strides);

/// The same test for a `tensor.extract_slice` (sliced from its source) or a
/// `tensor.insert_slice` (inserted into its dest). Any other op: false.
bool isContiguousSlice(mlir::Operation *sliceOp);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_SLICECONTIGUITY_H

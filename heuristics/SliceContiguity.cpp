//===- SliceContiguity.cpp - contiguous (DMA-able) slices -----------------===//

#include "heuristics/SliceContiguity.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace dispatchlab {

// IREE keeps slices whose bounds live on the device out of DMA copies, since
// reading them back would be a host round trip.
static bool dependsOnTensorExtract(OpFoldResult ofr) {
  auto value = dyn_cast<Value>(ofr);
  if (!value)
    return false;
  if (value.getDefiningOp<tensor::ExtractOp>())
    return true;
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  (void)getBackwardSlice(value, &slice, options);
  return llvm::any_of(slice, llvm::IsaPred<tensor::ExtractOp>);
}

// A dim is full if it starts at 0 and covers the whole base dim, either
// statically or as `tensor.dim %base, dim`.
static bool isFullDim(Value base, unsigned dim, OpFoldResult offset,
                      OpFoldResult size) {
  if (!isConstantIntValue(offset, 0))
    return false;
  int64_t baseSize = cast<ShapedType>(base.getType()).getDimSize(dim);
  if (std::optional<int64_t> staticSize = getConstantIntValue(size))
    return !ShapedType::isDynamic(baseSize) && *staticSize == baseSize;
  auto dimOp = cast<Value>(size).getDefiningOp<tensor::DimOp>();
  return dimOp && dimOp.getSource() == base &&
         getConstantIntValue(dimOp.getDimension()) == static_cast<int64_t>(dim);
}

bool isContiguousSlice(Value base, ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes,
                       ArrayRef<OpFoldResult> strides) {
  auto baseType = dyn_cast<ShapedType>(base.getType());
  if (!baseType || !baseType.hasRank() ||
      offsets.size() != static_cast<size_t>(baseType.getRank()))
    return false;
  bool innerDimsFull = true;
  for (unsigned dim = offsets.size(); dim-- > 0;) {
    if (!isConstantIntValue(strides[dim], 1))
      return false;
    if (dependsOnTensorExtract(offsets[dim]) ||
        dependsOnTensorExtract(sizes[dim]))
      return false;
    if (!innerDimsFull) {
      if (!isConstantIntValue(sizes[dim], 1))
        return false;
      continue;
    }
    innerDimsFull = isFullDim(base, dim, offsets[dim], sizes[dim]);
  }
  return true;
}

bool isContiguousSlice(Operation *sliceOp) {
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(sliceOp))
    return isContiguousSlice(extract.getSource(), extract.getMixedOffsets(),
                             extract.getMixedSizes(),
                             extract.getMixedStrides());
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(sliceOp))
    return isContiguousSlice(insert.getDest(), insert.getMixedOffsets(),
                             insert.getMixedSizes(), insert.getMixedStrides());
  return false;
}

} // namespace dispatchlab

//===- PadInserts.cpp - a pad as a fill and an insert ---------------------===//

#include "core/codegen/PadInserts.h"

#include "heuristics/DispatchDialect.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace dispatchlab {

bool isStaticBoxInsert(tensor::InsertSliceOp insert) {
  return insert.getSourceType().getRank() == insert.getDestType().getRank() &&
         !ShapedType::isDynamicShape(insert.getStaticOffsets()) &&
         !ShapedType::isDynamicShape(insert.getStaticSizes()) &&
         llvm::all_of(insert.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; });
}

OpResult getRegionResultOf(tensor::InsertSliceOp insert) {
  auto region = dyn_cast<dispatch::RegionOp>(insert->getParentOp());
  if (!region)
    return {};
  OperandRange returned = region.getReturnOp().getOperands();
  auto at = llvm::find(returned, insert.getResult());
  if (at == returned.end())
    return {};
  return region->getResult(std::distance(returned.begin(), at));
}

bool isZeroConstant(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

} // namespace dispatchlab

//===- BitWidthChange.cpp - generics that only widen or narrow ------------===//

#include "globalopt/BitWidthChange.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace dispatchlab {

namespace {
enum class BitWidthChange { Neither, Extend, Truncate };
} // namespace

// Mirrors IREE's isBitExtendOrTruncateOp (LinalgExt's Utils.cpp), behind
// isBitExtendOp/isBitTruncateOp: only the max-rank inputs count, so a
// dequantization whose scale is a lower-rank f32 tensor is still an extend.
static BitWidthChange classifyBitWidthChange(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return BitWidthChange::Neither;

  int64_t maxRank = 0;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (auto type = dyn_cast<RankedTensorType>(input->get().getType()))
      maxRank = std::max(maxRank, type.getRank());
  if (maxRank == 0)
    return BitWidthChange::Neither;

  unsigned inputWidth = 0;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || type.getRank() != maxRank)
      continue;
    if (!type.getElementType().isIntOrFloat())
      return BitWidthChange::Neither;
    inputWidth =
        std::max(inputWidth, type.getElementType().getIntOrFloatBitWidth());
  }

  Type resultType = getElementTypeOrSelf(generic->getResult(0).getType());
  if (!resultType.isIntOrFloat())
    return BitWidthChange::Neither;
  unsigned outputWidth = resultType.getIntOrFloatBitWidth();

  if (inputWidth < outputWidth) {
    bool hasMathOp = false;
    generic.getRegion().walk([&](Operation *nested) {
      if (isa_and_nonnull<math::MathDialect>(nested->getDialect()))
        hasMathOp = true;
    });
    return hasMathOp ? BitWidthChange::Neither : BitWidthChange::Extend;
  }
  if (outputWidth < inputWidth) {
    auto resultTensor =
        dyn_cast<RankedTensorType>(generic->getResultTypes()[0]);
    if (resultTensor && resultTensor.getRank() == maxRank)
      return BitWidthChange::Truncate;
  }
  return BitWidthChange::Neither;
}

bool isBitExtendOp(Operation *op) {
  return classifyBitWidthChange(op) == BitWidthChange::Extend;
}

bool isBitTruncateOp(Operation *op) {
  return classifyBitWidthChange(op) == BitWidthChange::Truncate;
}

} // namespace dispatchlab

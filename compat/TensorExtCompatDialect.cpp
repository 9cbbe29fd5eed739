//===- TensorExtCompatDialect.cpp - IREE's iree_tensor_ext ----------------===//

#include "compat/TensorExtCompatDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace dispatchlab::tensor_ext;

#include "compat/TensorExtCompatDialect.cpp.inc"

void TensorExtDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compat/TensorExtCompatOps.cpp.inc"
      >();
}

/// One index operand per dynamic extent of `type`, as IREE's shape-aware ops
/// require.
static LogicalResult verifyDynamicDims(Operation *op, StringRef what, Type type,
                                       ValueRange dims) {
  int64_t dynamic = cast<RankedTensorType>(type).getNumDynamicDims();
  if (static_cast<int64_t>(dims.size()) == dynamic)
    return success();
  return op->emitOpError() << "has " << dims.size() << " " << what
                           << " dims for a type with " << dynamic
                           << " dynamic dims";
}

/// The bit count of a static tensor type, or nullopt if it is dynamic.
static std::optional<int64_t> getStaticBitCount(RankedTensorType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() * type.getElementTypeBitWidth();
}

LogicalResult BitCastOp::verify() {
  if (failed(verifyDynamicDims(*this, "source", getSource().getType(),
                               getSourceDims())) ||
      failed(verifyDynamicDims(*this, "result", getResult().getType(),
                               getResultDims())))
    return failure();
  auto sourceBits =
      getStaticBitCount(cast<RankedTensorType>(getSource().getType()));
  auto resultBits =
      getStaticBitCount(cast<RankedTensorType>(getResult().getType()));
  if (sourceBits && resultBits && *sourceBits != *resultBits)
    return emitOpError() << "casts " << *sourceBits << " bits to "
                         << *resultBits << " bits";
  return success();
}

template <typename BarrierOp> static LogicalResult verifyBarrier(BarrierOp op) {
  if (op.getValue().getType() != op.getResult().getType())
    return op.emitOpError("result type differs from the operand's");
  return verifyDynamicDims(op, "value", op.getValue().getType(),
                           op.getValueDims());
}

LogicalResult ComputeBarrierStartOp::verify() { return verifyBarrier(*this); }
LogicalResult ComputeBarrierEndOp::verify() { return verifyBarrier(*this); }

#define GET_OP_CLASSES
#include "compat/TensorExtCompatOps.cpp.inc"

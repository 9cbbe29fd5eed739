//===- HalCompatDialect.cpp - IREE's hal tensor import/export -------------===//

#include "compat/HalCompatDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dispatchlab::hal;

#include "compat/HalCompatDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "compat/HalCompatTypes.cpp.inc"

void HalDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "compat/HalCompatTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compat/HalCompatOps.cpp.inc"
      >();
}

/// One index operand per dynamic extent of `tensor`'s type.
static LogicalResult verifyDims(Operation *op, Value tensor, ValueRange dims) {
  int64_t dynamic =
      cast<RankedTensorType>(tensor.getType()).getNumDynamicDims();
  if (static_cast<int64_t>(dims.size()) == dynamic)
    return success();
  return op->emitOpError() << "has " << dims.size()
                           << " dims for a tensor type with " << dynamic
                           << " dynamic dims";
}

LogicalResult TensorImportOp::verify() {
  return verifyDims(*this, getTarget(), getTargetDims());
}

LogicalResult TensorExportOp::verify() {
  return verifyDims(*this, getSource(), getSourceDims());
}

#define GET_OP_CLASSES
#include "compat/HalCompatOps.cpp.inc"

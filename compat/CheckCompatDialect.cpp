//===- CheckCompatDialect.cpp - IREE's check.expect_almost_eq -------------===//

#include "compat/CheckCompatDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace dispatchlab::check;

#include "compat/CheckCompatDialect.cpp.inc"

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compat/CheckCompatOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "compat/CheckCompatOps.cpp.inc"

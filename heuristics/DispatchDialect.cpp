//===- DispatchDialect.cpp - dispatch region ops --------------------------===//

#include "heuristics/DispatchDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace dispatchlab::dispatch;

#include "heuristics/DispatchDialect.cpp.inc"

void DispatchDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "heuristics/DispatchOps.cpp.inc"
      >();
}

void DispatchDialect::setRootAttr(Operation *op) {
  op->setAttr(getRootAttrName(), UnitAttr::get(op->getContext()));
}

bool DispatchDialect::hasRootAttr(Operation *op) {
  return op->hasAttr(getRootAttrName());
}

void DispatchDialect::setKindAttr(Operation *op, StringRef kind) {
  op->setAttr(getKindAttrName(), StringAttr::get(op->getContext(), kind));
}

StringAttr DispatchDialect::getKindAttr(Operation *op) {
  return op->getAttrOfType<StringAttr>(getKindAttrName());
}

void RegionOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes) {
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  body->push_back(new Block());
}

ReturnOp RegionOp::getReturnOp() {
  return cast<ReturnOp>(getBody().front().getTerminator());
}

LogicalResult RegionOp::verify() {
  if (getBody().empty())
    return emitOpError("expected a body block");
  auto returnOp = dyn_cast<ReturnOp>(getBody().front().getTerminator());
  if (!returnOp)
    return emitOpError("expected body to end in dispatch.return");
  if (returnOp.getOperandTypes() != getResultTypes())
    return emitOpError("returned types ")
           << returnOp.getOperandTypes() << " do not match result types "
           << getResultTypes();
  return success();
}

#define GET_OP_CLASSES
#include "heuristics/DispatchOps.cpp.inc"

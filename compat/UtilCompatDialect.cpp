//===- UtilCompatDialect.cpp - IREE's util.func spelling ------------------===//

#include "compat/UtilCompatDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dispatchlab::util;

#include "compat/UtilCompatDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/UtilCompatAttrs.cpp.inc"

void UtilDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compat/UtilCompatAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compat/UtilCompatOps.cpp.inc"
      >();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

#define GET_OP_CLASSES
#include "compat/UtilCompatOps.cpp.inc"

namespace dispatchlab {

void convertUtilFuncsToFunc(ModuleOp module) {
  SmallVector<FuncOp> funcs(module.getOps<FuncOp>());
  for (FuncOp utilFunc : funcs) {
    OpBuilder builder(utilFunc);
    auto func =
        func::FuncOp::create(builder, utilFunc.getLoc(), utilFunc.getSymName(),
                             utilFunc.getFunctionType());
    if (auto visibility = utilFunc.getSymVisibilityAttr())
      func.setSymVisibilityAttr(visibility);
    if (auto argAttrs = utilFunc.getArgAttrsAttr())
      func.setArgAttrsAttr(argAttrs);
    if (auto resAttrs = utilFunc.getResAttrsAttr())
      func.setResAttrsAttr(resAttrs);
    func->setDiscardableAttrs(utilFunc->getDiscardableAttrDictionary());
    func.getBody().takeBody(utilFunc.getBody());
    func.walk([](ReturnOp ret) {
      OpBuilder b(ret);
      func::ReturnOp::create(b, ret.getLoc(), ret.getOperands());
      ret.erase();
    });
    utilFunc.erase();
  }
}

} // namespace dispatchlab

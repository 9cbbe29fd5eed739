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

#define GET_TYPEDEF_CLASSES
#include "compat/UtilCompatTypes.cpp.inc"

void UtilDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compat/UtilCompatAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "compat/UtilCompatTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compat/UtilCompatOps.cpp.inc"
      >();
}

// IREE's spelling: `util.global [private] [mutable] @name [{attrs}]
// (= value [: type] | : type)`; a typed value gives the type.
ParseResult GlobalOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringRef visibility;
  if (succeeded(parser.parseOptionalKeyword(&visibility,
                                            {"private", "public", "nested"})))
    result.addAttribute(getSymVisibilityAttrName(result.name),
                        builder.getStringAttr(visibility));
  if (succeeded(parser.parseOptionalKeyword("mutable")))
    result.addAttribute(getIsMutableAttrName(result.name),
                        builder.getUnitAttr());
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Type type;
  if (succeeded(parser.parseOptionalEqual())) {
    Attribute value;
    if (parser.parseAttribute(value))
      return failure();
    result.addAttribute(getInitialValueAttrName(result.name), value);
    if (succeeded(parser.parseOptionalColon())) {
      if (parser.parseType(type))
        return failure();
    } else if (auto typed = dyn_cast<TypedAttr>(value)) {
      type = typed.getType();
    } else {
      return parser.emitError(parser.getCurrentLocation(),
                              "expected ':' and the global's type");
    }
  } else if (parser.parseColonType(type)) {
    return failure();
  }
  result.addAttribute(getTypeAttrName(result.name), TypeAttr::get(type));
  return success();
}

void GlobalOp::print(OpAsmPrinter &printer) {
  if (StringAttr visibility = getSymVisibilityAttr())
    printer << ' ' << visibility.getValue();
  if (getIsMutable())
    printer << " mutable";
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getSymVisibilityAttrName(), getSymNameAttrName(), getTypeAttrName(),
       getIsMutableAttrName(), getInitialValueAttrName()});
  if (Attribute value = getInitialValueAttr()) {
    printer << " = ";
    printer.printAttribute(value);
    auto typed = dyn_cast<TypedAttr>(value);
    if (!typed || typed.getType() != getType())
      printer << " : " << getType();
    return;
  }
  printer << " : " << getType();
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

//===- FlowCompatDialect.cpp - IREE's flow.dispatch.region ----------------===//

#include "compat/FlowCompatDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dispatchlab::flow;

#include "compat/FlowCompatDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/FlowCompatAttrs.cpp.inc"

void FlowDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compat/FlowCompatAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compat/FlowCompatOps.cpp.inc"
      >();
}

/// `<"scope"::"key">` or `<"key">`; the type comes from the enclosing
/// `: tensor<...>`.
Attribute ParameterNamedAttr::parse(AsmParser &parser, Type type) {
  std::string first, second;
  if (parser.parseLess() || parser.parseString(&first))
    return {};
  bool scoped = succeeded(parser.parseOptionalColon());
  if ((scoped && (parser.parseColon() || parser.parseString(&second))) ||
      parser.parseGreater())
    return {};
  MLIRContext *context = parser.getContext();
  StringAttr scope = scoped ? StringAttr::get(context, first) : StringAttr();
  return ParameterNamedAttr::get(
      context, type, scope, StringAttr::get(context, scoped ? second : first));
}

void ParameterNamedAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (getScope())
    printer << getScope() << "::";
  printer << getKey() << ">";
}

/// `-> (tensor<?x4xf32>{%d}, i32)`: each dynamically shaped result type is
/// followed by its dynamic extents.
static ParseResult parseResultTypesWithDims(
    OpAsmParser &parser, SmallVectorImpl<Type> &types,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dims) {
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        if (parser.parseType(types.emplace_back()))
          return failure();
        auto shaped = dyn_cast<ShapedType>(types.back());
        if (!shaped || shaped.hasStaticShape())
          return success();
        return parser.parseOperandList(dims, shaped.getNumDynamicDims(),
                                       OpAsmParser::Delimiter::Braces);
      });
}

ParseResult DispatchRegionOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> workload, dims;
  SmallVector<Type> types;
  if (succeeded(parser.parseOptionalLSquare()) &&
      (parser.parseOperandList(workload) || parser.parseRSquare()))
    return failure();
  if (succeeded(parser.parseOptionalArrow()) &&
      parseResultTypesWithDims(parser, types, dims))
    return failure();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*result.addRegion()))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  if (parser.resolveOperands(dims, index, result.operands) ||
      parser.resolveOperands(workload, index, result.operands))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {static_cast<int32_t>(dims.size()),
                           static_cast<int32_t>(workload.size())}));
  result.addTypes(types);
  return success();
}

void DispatchRegionOp::print(OpAsmPrinter &printer) {
  if (!getWorkload().empty())
    printer << "[" << getWorkload() << "]";
  if (!getResults().empty()) {
    printer << " -> (";
    ValueRange dims = getResultDims();
    llvm::interleaveComma(getResultTypes(), printer, [&](Type type) {
      printer << type;
      auto shaped = dyn_cast<ShapedType>(type);
      if (!shaped || shaped.hasStaticShape())
        return;
      printer << "{" << dims.take_front(shaped.getNumDynamicDims()) << "}";
      dims = dims.drop_front(shaped.getNumDynamicDims());
    });
    printer << ")";
  }
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getOperandSegmentSizesAttrName()});
  printer << " ";
  printer.printRegion(getBody());
}

LogicalResult DispatchRegionOp::verify() {
  int64_t dynamicDims = 0;
  for (Type type : getResultTypes())
    if (auto shaped = dyn_cast<ShapedType>(type))
      dynamicDims += shaped.getNumDynamicDims();
  if (static_cast<int64_t>(getResultDims().size()) != dynamicDims)
    return emitOpError() << "has " << getResultDims().size()
                         << " result dims for results with " << dynamicDims
                         << " dynamic dims";
  auto returnOp = dyn_cast<ReturnOp>(getBody().front().getTerminator());
  if (!returnOp)
    return emitOpError("expected the body to end in flow.return");
  if (returnOp.getOperandTypes() != getResultTypes())
    return emitOpError("returns ")
           << returnOp.getOperandTypes() << " for results of types "
           << getResultTypes();
  return success();
}

/// `%target as tensor<?x4xf32>{%d}`: the tied target's name, then the
/// result type and its dynamic extents.
static ParseResult
parseTiedResult(OpAsmParser &parser, OpAsmParser::UnresolvedOperand target,
                Type &resultType,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dims) {
  OpAsmParser::UnresolvedOperand tied;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(tied) || parser.parseKeyword("as") ||
      parser.parseType(resultType))
    return failure();
  if (tied.name != target.name || tied.number != target.number)
    return parser.emitError(loc, "the tied result must name the target");
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (!shaped || shaped.hasStaticShape())
    return success();
  return parser.parseOperandList(dims, shaped.getNumDynamicDims(),
                                 OpAsmParser::Delimiter::Braces);
}

static void printTiedResult(OpAsmPrinter &printer, Operation *, Value target,
                            Type resultType, ValueRange dims) {
  printer << target << " as " << resultType;
  if (!dims.empty())
    printer << "{" << dims << "}";
}

/// One index operand per dynamic extent of `value`'s type.
static LogicalResult verifyDims(Operation *op, StringRef what, Value value,
                                ValueRange dims) {
  int64_t dynamic = cast<ShapedType>(value.getType()).getNumDynamicDims();
  if (static_cast<int64_t>(dims.size()) == dynamic)
    return success();
  return op->emitOpError() << "has " << dims.size() << " " << what
                           << " dims for a type with " << dynamic
                           << " dynamic dims";
}

LogicalResult TensorUpdateOp::verify() {
  if (failed(verifyDims(*this, "target", getTarget(), getTargetDims())) ||
      failed(verifyDims(*this, "update", getUpdate(), getUpdateDims())))
    return failure();
  int64_t rank = cast<ShapedType>(getTarget().getType()).getRank();
  if (static_cast<int64_t>(getStartIndices().size()) != rank)
    return emitOpError() << "has " << getStartIndices().size()
                         << " start indices for a target of rank " << rank;
  return success();
}

LogicalResult TensorDynamicConstantOp::verify() {
  auto valueType = cast<ShapedType>(getValue().getType());
  if (failed(verifyCompatibleShape(valueType, getResult().getType())))
    return emitOpError() << "result type " << getResult().getType()
                         << " does not fit the value's " << valueType;
  return success();
}

#define GET_OP_CLASSES
#include "compat/FlowCompatOps.cpp.inc"

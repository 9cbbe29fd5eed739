//===- EncodingCompatDialect.cpp - IREE's iree_encoding -------------------===//

#include "compat/EncodingCompatDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dispatchlab::encoding;

/// `[4, ?, 8]`: static sizes and `?` for dynamic ones, kept as i64 integers
/// with ShapedType::kDynamic standing for `?`.
static ParseResult parseDynamicSizes(AsmParser &parser, ArrayAttr &sizes) {
  SmallVector<Attribute> values;
  Type i64 = parser.getBuilder().getI64Type();
  auto parseOne = [&]() -> ParseResult {
    int64_t size = ShapedType::kDynamic;
    if (failed(parser.parseOptionalQuestion()) && parser.parseInteger(size))
      return failure();
    values.push_back(IntegerAttr::get(i64, size));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseOne))
    return failure();
  sizes = parser.getBuilder().getArrayAttr(values);
  return success();
}

static void printDynamicSizes(AsmPrinter &printer, ArrayAttr sizes) {
  printer << "[";
  llvm::interleaveComma(sizes, printer, [&](Attribute size) {
    int64_t value = cast<IntegerAttr>(size).getInt();
    if (ShapedType::isDynamic(value))
      printer << "?";
    else
      printer << value;
  });
  printer << "]";
}

#include "compat/EncodingCompatEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compat/EncodingCompatAttrs.cpp.inc"

#include "compat/EncodingCompatDialect.cpp.inc"

namespace {
/// Prints encodings as `#encoding` aliases, the way IREE's IR reads.
struct EncodingAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (!isa<EncodingAttr, TestingAttr>(attr))
      return AliasResult::NoAlias;
    os << "encoding";
    return AliasResult::OverridableAlias;
  }
};
} // namespace

void EncodingDialect::initialize() {
  addInterfaces<EncodingAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compat/EncodingCompatAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compat/EncodingCompatOps.cpp.inc"
      >();
}

/// The checks both ops share: `encoded` carries an encoding, `plain` has the
/// same element type and a compatible shape.
static LogicalResult verifyEncodingPair(Operation *op, RankedTensorType plain,
                                        RankedTensorType encoded) {
  if (!encoded.getEncoding())
    return op->emitOpError("expects an encoded tensor type, got ") << encoded;
  if (plain.getElementType() != encoded.getElementType())
    return op->emitOpError("changes the element type");
  if (failed(verifyCompatibleShape(plain.getShape(), encoded.getShape())))
    return op->emitOpError("changes the shape");
  return success();
}

LogicalResult SetEncodingOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  if (source.getEncoding())
    return emitOpError("source is encoded already");
  return verifyEncodingPair(*this, source,
                            cast<RankedTensorType>(getResult().getType()));
}

LogicalResult UnsetEncodingOp::verify() {
  auto result = cast<RankedTensorType>(getResult().getType());
  if (result.getEncoding())
    return emitOpError("result type is encoded");
  if (static_cast<int64_t>(getResultDims().size()) !=
      result.getNumDynamicDims())
    return emitOpError() << "has " << getResultDims().size()
                         << " result dims for a type with "
                         << result.getNumDynamicDims() << " dynamic dims";
  return verifyEncodingPair(*this, result,
                            cast<RankedTensorType>(getSource().getType()));
}

#define GET_OP_CLASSES
#include "compat/EncodingCompatOps.cpp.inc"

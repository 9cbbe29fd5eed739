//===- ProductAccumulation.cpp - ops a zero input leaves unchanged --------===//

#include "core/codegen/ProductAccumulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace dispatchlab {

bool accumulatesProductsOf(linalg::GenericOp generic, unsigned input) {
  if (generic.getNumDpsInits() != 1)
    return false;
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 3)
    return false;
  BlockArgument in = body.getArgument(input);
  BlockArgument out = body.getArgument(generic.getNumDpsInputs());
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || (add.getLhs() != out && add.getRhs() != out))
    return false;
  auto multiply = (add.getLhs() == out ? add.getRhs() : add.getLhs())
                      .getDefiningOp<arith::MulFOp>();
  return multiply && (multiply.getLhs() == in || multiply.getRhs() == in);
}

} // namespace dispatchlab

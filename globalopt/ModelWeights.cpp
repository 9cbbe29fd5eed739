//===- ModelWeights.cpp - which values are the model's weights ------------===//

#include "globalopt/ModelWeights.h"

#include "core/support/WeightArguments.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace dispatchlab {

bool isParameter(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return false;
  auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
  if (!function)
    return false;
  unsigned index = argument.getArgNumber();
  return function.getArgAttr(index, kParameterAttr) ||
         function.getArgAttr(index, kParameterResultAttr);
}

} // namespace dispatchlab

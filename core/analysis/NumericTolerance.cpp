//===- NumericTolerance.cpp - how close outputs must be to the reference --===//

#include "core/analysis/NumericTolerance.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace dispatchlab {

namespace {
/// u for the narrow float types, 0 for every other type.
double getUnitRoundoff(Type type) {
  if (isa<Float16Type>(type))
    return std::ldexp(1.0, -11);
  if (isa<BFloat16Type>(type))
    return std::ldexp(1.0, -8);
  return 0;
}

/// The largest unit roundoff among the op's operand and result types.
std::pair<double, Type> getNarrowestType(linalg::LinalgOp op) {
  std::pair<double, Type> narrowest{0, Type()};
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    Type element = getElementTypeOrSelf(type);
    if (double u = getUnitRoundoff(element); u > narrowest.first)
      narrowest = {u, element};
  }
  return narrowest;
}

int64_t getReductionDepth(linalg::LinalgOp op) {
  int64_t depth = 1;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [range, iterator] : llvm::zip(ranges, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction &&
        !ShapedType::isDynamic(range))
      depth *= std::max<int64_t>(range, 1);
  return depth;
}
} // namespace

PrecisionBasis analyzePrecision(ModuleOp module) {
  PrecisionBasis basis;
  module.walk([&](linalg::LinalgOp op) {
    auto [u, type] = getNarrowestType(op);
    if (u == 0)
      return;
    basis.roundingSteps += getReductionDepth(op);
    if (u > basis.unitRoundoff) {
      basis.unitRoundoff = u;
      llvm::raw_string_ostream(basis.elementType = "") << type;
    }
  });
  return basis;
}

double deriveTolerance(const PrecisionBasis &basis, double floor) {
  // f32 roundings are the floor's to cover, whatever it is (a negative one
  // rejects every output).
  if (basis.unitRoundoff == 0)
    return floor;
  double derived =
      2 * basis.unitRoundoff * std::sqrt(double(basis.roundingSteps));
  return std::max(floor, derived);
}

} // namespace dispatchlab

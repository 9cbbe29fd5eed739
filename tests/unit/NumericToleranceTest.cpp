//===- NumericToleranceTest.cpp - run's tolerance from the IR -------------===//

#include "core/analysis/NumericTolerance.h"
#include "core/pipeline/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace dispatchlab;

namespace {
class NumericToleranceTest : public ::testing::Test {
protected:
  NumericToleranceTest() {
    DialectRegistry registry;
    registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  PrecisionBasis analyze(StringRef ir) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    return module ? analyzePrecision(*module) : PrecisionBasis();
  }

  MLIRContext context;
};

/// An M x K times K x N matmul in `type`, then an elementwise add in it.
std::string matmulThenAdd(StringRef type, int k) {
  std::string ir = R"mlir(
func.func @f(%a: tensor<8xKxT>, %b: tensor<Kx16xT>, %c: tensor<8x16xT>) -> tensor<8x16xT> {
  %m = linalg.matmul ins(%a, %b : tensor<8xKxT>, tensor<Kx16xT>)
      outs(%c : tensor<8x16xT>) -> tensor<8x16xT>
  %s = linalg.add ins(%m, %c : tensor<8x16xT>, tensor<8x16xT>)
      outs(%c : tensor<8x16xT>) -> tensor<8x16xT>
  return %s : tensor<8x16xT>
})mlir";
  std::string out;
  for (char ch : ir)
    out += ch == 'K'   ? std::to_string(k)
           : ch == 'T' ? type.str()
                       : std::string(1, ch);
  return out;
}

TEST_F(NumericToleranceTest, F32ModelKeepsTheFloor) {
  PrecisionBasis basis = analyze(matmulThenAdd("f32", 512));
  EXPECT_EQ(basis.elementType, "f32");
  EXPECT_EQ(basis.unitRoundoff, 0);
  EXPECT_EQ(basis.roundingSteps, 0);
  EXPECT_EQ(deriveTolerance(basis, 1e-4), 1e-4);
  EXPECT_EQ(deriveTolerance(basis, -1), -1);
}

TEST_F(NumericToleranceTest, F16MatmulCountsItsReductionDepth) {
  PrecisionBasis basis = analyze(matmulThenAdd("f16", 512));
  EXPECT_EQ(basis.elementType, "f16");
  EXPECT_EQ(basis.unitRoundoff, std::ldexp(1.0, -11));
  // 512 accumulations in the matmul, one rounding in the add.
  EXPECT_EQ(basis.roundingSteps, 513);
  EXPECT_DOUBLE_EQ(deriveTolerance(basis, 1e-4),
                   2 * std::ldexp(1.0, -11) * std::sqrt(513.0));
  // A floor above the derived bound wins.
  EXPECT_EQ(deriveTolerance(basis, 0.5), 0.5);
}

TEST_F(NumericToleranceTest, DeeperReductionsGetALargerBound) {
  double shallow = deriveTolerance(analyze(matmulThenAdd("f16", 16)), 0);
  double deep = deriveTolerance(analyze(matmulThenAdd("f16", 4096)), 0);
  EXPECT_GT(deep, shallow);
}

TEST_F(NumericToleranceTest, Bf16IsCoarserThanF16) {
  PrecisionBasis basis = analyze(matmulThenAdd("bf16", 64));
  EXPECT_EQ(basis.elementType, "bf16");
  EXPECT_EQ(basis.unitRoundoff, std::ldexp(1.0, -8));
  EXPECT_GT(deriveTolerance(basis, 0),
            deriveTolerance(analyze(matmulThenAdd("f16", 64)), 0));
}

/// A truncate from f32 to f16 rounds in f16 once, however deep the f32
/// computation before it was.
TEST_F(NumericToleranceTest, NarrowingCastIsOneRounding) {
  PrecisionBasis basis = analyze(R"mlir(
#id = affine_map<(i) -> (i)>
func.func @f(%x: tensor<4xf32>, %e: tensor<4xf16>) -> tensor<4xf16> {
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf16>) {
  ^bb0(%a: f32, %o: f16):
    %n = arith.truncf %a : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4xf16>
  return %t : tensor<4xf16>
})mlir");
  EXPECT_EQ(basis.elementType, "f16");
  EXPECT_EQ(basis.roundingSteps, 1);
}
} // namespace

//===- OpClassificationTest.cpp - root, clone and cast predicates ---------===//

#include "heuristics/OpClassification.h"

#include "core/pipeline/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace dispatchlab;

namespace {
class OpClassificationTest : public ::testing::Test {
protected:
  OpClassificationTest() {
    DialectRegistry registry;
    registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  void parse(StringRef ir) {
    module = parseSourceString<ModuleOp>(ir, &context);
    ASSERT_TRUE(module);
  }

  /// The parsed module's ops named `name`, in program order.
  SmallVector<Operation *> ops(StringRef name) {
    SmallVector<Operation *> ops;
    if (module)
      module->walk([&](Operation *op) {
        if (op->getName().getStringRef() == name)
          ops.push_back(op);
      });
    return ops;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

const char *kCasts = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @f(%w: tensor<4x8xi8>, %s: tensor<4xf32>, %x: tensor<4x8xf32>,
             %y: tensor<4x8xf16>) {
  %e32 = tensor.empty() : tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %dequant = linalg.generic {indexing_maps = [#id, #row, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<4x8xi8>, tensor<4xf32>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %c = arith.sitofp %a : i8 to f32
    %m = arith.mulf %c, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %trunc = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %extexp = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x8xf16>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%a: f16, %o: f32):
    %t = arith.extf %a : f16 to f32
    %x2 = math.exp %t : f32
    linalg.yield %x2 : f32
  } -> tensor<4x8xf32>
  return
}
)mlir";

TEST_F(OpClassificationTest, BitWidthChanges) {
  parse(kCasts);
  SmallVector<Operation *> generics = ops("linalg.generic");
  ASSERT_EQ(generics.size(), 3u);
  Operation *dequant = generics[0], *trunc = generics[1], *extExp = generics[2];

  // Only max-rank inputs count: i8 weights x f32 scale -> f32 is an extend.
  EXPECT_TRUE(isBitExtendOp(dequant));
  EXPECT_FALSE(isBitTruncateOp(dequant));
  EXPECT_TRUE(isCloneableIntoDispatchOp(dequant, HeuristicOptions()));
  EXPECT_FALSE(isRootLikeOp(dequant));

  EXPECT_TRUE(isBitTruncateOp(trunc));
  EXPECT_FALSE(isBitExtendOp(trunc));
  // Truncates are not cloneable; only extends are.
  EXPECT_FALSE(isCloneableIntoDispatchOp(trunc, HeuristicOptions()));

  // A math op in the body disqualifies an extend.
  EXPECT_FALSE(isBitExtendOp(extExp));
  EXPECT_FALSE(isCloneableIntoDispatchOp(extExp, HeuristicOptions()));
}

const char *kRoots = R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %big: tensor<128xf32>)
    -> (tensor<4x16xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %small = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %large = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %splat = arith.constant dense<1.0> : tensor<1024xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%fill : tensor<4x16xf32>) -> tensor<4x16xf32>
  %er = tensor.empty() : tensor<4xf32>
  %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %ew = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                         affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}
      ins(%red : tensor<4xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %sum = arith.addf %zero, %zero : f32
  return %mm, %ew : tensor<4x16xf32>, tensor<4xf32>
}
)mlir";

TEST_F(OpClassificationTest, RootsAreNamedOpsAndReductions) {
  parse(kRoots);
  auto fill = ops("linalg.fill");
  auto matmul = ops("linalg.matmul");
  auto generics = ops("linalg.generic");
  ASSERT_EQ(generics.size(), 2u);
  EXPECT_FALSE(isRootLikeOp(fill[0]));
  EXPECT_TRUE(isRootLikeOp(matmul[0]));
  EXPECT_TRUE(isRootLikeOp(generics[0]));  // a row reduction
  EXPECT_FALSE(isRootLikeOp(generics[1])); // elementwise: fallback only
}

TEST_F(OpClassificationTest, CloneableProducers) {
  HeuristicOptions options;
  options.inlineConstantBytes = 8;
  parse(kRoots);
  auto constants = ops("arith.constant");
  ASSERT_EQ(constants.size(), 4u);
  EXPECT_TRUE(isCloneableIntoDispatchOp(constants[0], options));  // scalar
  EXPECT_TRUE(isCloneableIntoDispatchOp(constants[1], options));  // 8 bytes
  EXPECT_FALSE(isCloneableIntoDispatchOp(constants[2], options)); // 16 bytes
  EXPECT_TRUE(isCloneableIntoDispatchOp(constants[3], options));  // splat
  EXPECT_TRUE(isCloneableIntoDispatchOp(ops("linalg.fill")[0], options));
  EXPECT_TRUE(isCloneableIntoDispatchOp(ops("tensor.empty")[0], options));
  EXPECT_TRUE(isCloneableIntoDispatchOp(ops("arith.addf")[0], options));
  EXPECT_FALSE(isCloneableIntoDispatchOp(ops("linalg.matmul")[0], options));
  EXPECT_FALSE(isCloneableIntoDispatchOp(ops("func.return")[0], options));

  // A zero inline-constant size turns constant cloning off entirely.
  options.inlineConstantBytes = 0;
  EXPECT_FALSE(isCloneableIntoDispatchOp(constants[0], options));
}
} // namespace

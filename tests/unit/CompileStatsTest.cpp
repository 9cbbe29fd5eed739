//===- CompileStatsTest.cpp - statistics, JSON, table and dispatch graph --===//

#include "core/analysis/CompileStats.h"
#include "core/analysis/DispatchTable.h"
#include "core/analysis/DotGraph.h"
#include "core/analysis/StatsJson.h"

#include "core/pipeline/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace dispatchlab;

namespace {
class CompileStatsTest : public ::testing::Test {
protected:
  CompileStatsTest() {
    DialectRegistry registry;
    registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `ir` and computes its statistics.
  CompileStats compute(StringRef ir) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    return module ? computeCompileStats(*module) : CompileStats();
  }

  std::string dot() {
    std::string text;
    llvm::raw_string_ostream os(text);
    printDispatchGraph(*module, os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// A dispatch of one matmul (its fill and empty cloned in) reading the
/// captured `%lhs` and `%rhs`; its result and the matmul are named `name`.
std::string matmulDispatch(StringRef name, StringRef lhs, StringRef rhs,
                           StringRef lhsType, StringRef rhsType,
                           StringRef resultType) {
  return llvm::formatv(R"mlir(
  %{0} = dispatch.region -> ({5}) {
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : {5}
    %f = linalg.fill ins(%cst : f32) outs(%e : {5}) -> {5}
    %mm = linalg.matmul ins(%{1}, %{2} : {3}, {4}) outs(%f : {5}) -> {5} loc("{0}")
    dispatch.return %mm : {5}
  }
)mlir",
                       name, lhs, rhs, lhsType, rhsType, resultType)
      .str();
}

TEST_F(CompileStatsTest, IdenticalBodiesShareAnExecutable) {
  std::string ir =
      "func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, "
      "%c: tensor<4x8xf32>, %d: tensor<8x16xf32>) -> (tensor<4x16xf32>, "
      "tensor<4x16xf32>) {" +
      matmulDispatch("mm0", "a", "b", "tensor<4x8xf32>", "tensor<8x16xf32>",
                     "tensor<4x16xf32>") +
      matmulDispatch("mm1", "c", "d", "tensor<4x8xf32>", "tensor<8x16xf32>",
                     "tensor<4x16xf32>") +
      "  return %mm0, %mm1 : tensor<4x16xf32>, tensor<4x16xf32>\n}\n";
  CompileStats stats = compute(ir);
  EXPECT_EQ(stats.dispatches, 2);
  EXPECT_EQ(stats.executables, 1);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_EQ(stats.groups[0].executableHash, stats.groups[1].executableHash);
  EXPECT_EQ(stats.groups[0].executableHash.size(), 16u);
  EXPECT_EQ(stats.transientBytes, 0);

  const DispatchGroupStats &group = stats.groups[0];
  EXPECT_EQ(group.name, "f_dispatch_0");
  EXPECT_EQ(stats.groups[1].name, "f_dispatch_1");
  EXPECT_EQ(group.kind, "fused");
  EXPECT_EQ(group.root, "%mm0");
  EXPECT_EQ(group.members, std::vector<std::string>{"%mm0"});
  EXPECT_EQ(group.cloned.size(), 3u);
  EXPECT_EQ(group.numOperands, 2u);
  EXPECT_EQ(group.numResults, 1u);
}

TEST_F(CompileStatsTest, DifferentShapesAreDifferentExecutables) {
  std::string ir = "func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, "
                   "%d: tensor<8x32xf32>) {" +
                   matmulDispatch("mm0", "a", "b", "tensor<4x8xf32>",
                                  "tensor<8x16xf32>", "tensor<4x16xf32>") +
                   matmulDispatch("mm1", "a", "d", "tensor<4x8xf32>",
                                  "tensor<8x32xf32>", "tensor<4x32xf32>") +
                   "  return\n}\n";
  CompileStats stats = compute(ir);
  EXPECT_EQ(stats.dispatches, 2);
  EXPECT_EQ(stats.executables, 2);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_NE(stats.groups[0].executableHash, stats.groups[1].executableHash);
}

// Capturing one value twice gives the executable one argument, not two, so
// `a * a` and `a * b` are different bodies even with equal types.
TEST_F(CompileStatsTest, RepeatedCaptureIsADifferentExecutable) {
  std::string ir = "func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) {" +
                   matmulDispatch("mm0", "a", "b", "tensor<8x8xf32>",
                                  "tensor<8x8xf32>", "tensor<8x8xf32>") +
                   matmulDispatch("mm1", "a", "a", "tensor<8x8xf32>",
                                  "tensor<8x8xf32>", "tensor<8x8xf32>") +
                   "  return\n}\n";
  CompileStats stats = compute(ir);
  EXPECT_EQ(stats.executables, 2);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_EQ(stats.groups[0].numOperands, 2u);
  EXPECT_EQ(stats.groups[1].numOperands, 1u);
}

// %mm0 (4x16xf32 = 256 bytes) feeds the second dispatch twice and is also
// returned: it is one transient buffer.
const char *kChain = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %mm0 = dispatch.region -> (tensor<4x16xf32>) {
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
        outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("mm")
    dispatch.return %mm : tensor<4x16xf32>
  }
  %sum = dispatch.region -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %add = linalg.generic {indexing_maps = [#id, #id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%mm0, %mm0 : tensor<4x16xf32>, tensor<4x16xf32>)
        outs(%e : tensor<4x16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<4x16xf32> loc("add")
    dispatch.return %add : tensor<4x16xf32>
  }
  return %mm0, %sum : tensor<4x16xf32>, tensor<4x16xf32>
}
)mlir";

TEST_F(CompileStatsTest, TransientBytesOfAChain) {
  CompileStats stats = compute(kChain);
  EXPECT_EQ(stats.dispatches, 2);
  EXPECT_EQ(stats.executables, 2);
  EXPECT_EQ(stats.transientBytes, 4 * 16 * 4);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_EQ(stats.groups[1].root, "%add");
  EXPECT_EQ(stats.groups[1].numOperands, 1u);
}

// The graph's edges: the matmul reads both arguments and is the first
// result; the sum reads the matmul once (though it uses it twice) and is
// the second result.
TEST_F(CompileStatsTest, EdgesOfAChain) {
  CompileStats stats = compute(kChain);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_EQ(stats.groups[0].reads,
            (std::vector<std::string>{"%arg0", "%arg1"}));
  EXPECT_EQ(stats.groups[0].returns, std::vector<int64_t>{0});
  EXPECT_EQ(stats.groups[1].reads,
            std::vector<std::string>{"chain_dispatch_0"});
  EXPECT_EQ(stats.groups[1].returns, std::vector<int64_t>{1});

  llvm::json::Value json = toJson(stats);
  const llvm::json::Array *groups = json.getAsObject()->getArray("groups");
  ASSERT_TRUE(groups && groups->size() == 2);
  const llvm::json::Object *second = (*groups)[1].getAsObject();
  EXPECT_EQ(llvm::formatv("{0}", *second->get("reads")).str(),
            "[\"chain_dispatch_0\"]");
  EXPECT_EQ(llvm::formatv("{0}", *second->get("returns")).str(), "[1]");
}

// Generalized named ops keep their class: IREE generalizes every
// convolution before formation, so the op name alone says "linalg.generic".
const char *kGeneralizedConv = R"mlir(
#in = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh + kh, ow + kw, c)>
#fl = affine_map<(n, oh, ow, f, kh, kw, c) -> (f, kh, kw, c)>
#out = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh, ow, f)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @f(%x: tensor<1x6x6x3xf32>, %w: tensor<8x3x3x3xf32>,
             %init: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %0 = dispatch.region -> (tensor<1x4x4x8xf32>) {
    %conv = linalg.generic {indexing_maps = [#in, #fl, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
        ins(%x, %w : tensor<1x6x6x3xf32>, tensor<8x3x3x3xf32>)
        outs(%init : tensor<1x4x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<1x4x4x8xf32> loc("conv")
    dispatch.return %conv : tensor<1x4x4x8xf32>
  }
  %1 = dispatch.region -> (tensor<1x4x4x8xf32>) {
    %e = tensor.empty() : tensor<1x4x4x8xf32>
    %relu = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%0 : tensor<1x4x4x8xf32>) outs(%e : tensor<1x4x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %r = arith.maximumf %a, %z : f32
      linalg.yield %r : f32
    } -> tensor<1x4x4x8xf32> loc("relu")
    dispatch.return %relu : tensor<1x4x4x8xf32>
  }
  return %1 : tensor<1x4x4x8xf32>
}
)mlir";

TEST_F(CompileStatsTest, RootClassSeesThroughGeneralization) {
  CompileStats stats = compute(kGeneralizedConv);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_EQ(stats.groups[0].rootOp, "linalg.generic");
  EXPECT_EQ(stats.groups[0].rootClass, "conv");
  EXPECT_EQ(stats.groups[1].rootOp, "linalg.generic");
  EXPECT_EQ(stats.groups[1].rootClass, "elementwise");
}

// A reshape between two dispatches moves no data: the producer's buffer is
// still what the consumer reads. Dynamic shapes have no static size.
const char *kReshapedAndDynamic = R"mlir(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x16xf32>, %d: tensor<?x16xf32>) {
  %0 = dispatch.region -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %neg = linalg.generic {indexing_maps = [#id2, #id2],
        iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    } -> tensor<4x16xf32>
    dispatch.return %neg : tensor<4x16xf32>
  }
  %r = tensor.expand_shape %0 [[0], [1, 2]] output_shape [4, 4, 4]
      : tensor<4x16xf32> into tensor<4x4x4xf32>
  %1 = dispatch.region -> (tensor<4x4x4xf32>) {
    %e = tensor.empty() : tensor<4x4x4xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%r : tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    } -> tensor<4x4x4xf32>
    dispatch.return %neg : tensor<4x4x4xf32>
  }
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %d, %c0 : tensor<?x16xf32>
  %2 = dispatch.region -> (tensor<?x16xf32>) {
    %e = tensor.empty(%dim) : tensor<?x16xf32>
    %neg = linalg.generic {indexing_maps = [#id2, #id2],
        iterator_types = ["parallel", "parallel"]}
        ins(%d : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %v = arith.negf %x : f32
      linalg.yield %v : f32
    } -> tensor<?x16xf32>
    dispatch.return %neg : tensor<?x16xf32>
  }
  %3 = dispatch.region -> (tensor<?x16xf32>) {
    %e = tensor.empty(%dim) : tensor<?x16xf32>
    %neg = linalg.generic {indexing_maps = [#id2, #id2],
        iterator_types = ["parallel", "parallel"]}
        ins(%2 : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %v = arith.negf %x : f32
      linalg.yield %v : f32
    } -> tensor<?x16xf32>
    dispatch.return %neg : tensor<?x16xf32>
  }
  return
}
)mlir";

TEST_F(CompileStatsTest, TransientBytesThroughReshapesAndDynamicShapes) {
  CompileStats stats = compute(kReshapedAndDynamic);
  EXPECT_EQ(stats.dispatches, 4);
  EXPECT_EQ(stats.transientBytes, 4 * 16 * 4);
  // Dispatches 2 and 3 differ only in what they read, which outlining makes
  // an argument either way.
  EXPECT_EQ(stats.executables, 3);
}

// Fills and slices outside dispatches become DMA fills and copies; the fill
// inside the dispatch is part of its executable.
const char *kFillsAndCopies = R"mlir(
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x16xf32>, %s: f32)
    -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %splat = linalg.fill ins(%s : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %top = tensor.extract_slice %a[0, 0] [4, 16] [1, 1]
      : tensor<8x16xf32> to tensor<4x16xf32>
  %mm = dispatch.region -> (tensor<4x16xf32>) {
    %e2 = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%s : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %m = linalg.matmul ins(%top, %b : tensor<4x16xf32>, tensor<16x16xf32>)
        outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
    dispatch.return %m : tensor<4x16xf32>
  } {dispatchlab.kind = "copy"}
  %out = tensor.insert_slice %mm into %splat[4, 0] [4, 16] [1, 1]
      : tensor<4x16xf32> into tensor<8x16xf32>
  return %out, %splat : tensor<8x16xf32>, tensor<8x16xf32>
}
)mlir";

TEST_F(CompileStatsTest, FillsAndCopiesOutsideDispatches) {
  CompileStats stats = compute(kFillsAndCopies);
  EXPECT_EQ(stats.dispatches, 1);
  EXPECT_EQ(stats.fills, 1);
  EXPECT_EQ(stats.copies, 2);
  ASSERT_EQ(stats.groups.size(), 1u);
  EXPECT_EQ(stats.groups[0].kind, "copy");
  // Unnamed ops are named by op and tensor-level index in the function:
  // %e is 0, %splat 1, %top 2, the region 3, %e2 4, %f 5, %m 6.
  EXPECT_EQ(stats.groups[0].root, "linalg.matmul#6");
  EXPECT_EQ(stats.groups[0].cloned,
            (std::vector<std::string>{"tensor.empty#4", "linalg.fill#5"}));
  // Only %b counts: IREE clones the slice %top in, and %s is a scalar.
  EXPECT_EQ(stats.groups[0].numOperands, 1u);
}

// Without a `dispatchlab.root` marker the reduction is the root; with one,
// the marked op is. A captured cloneable op is not an operand.
const char *kRoots = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %f: tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %0 = dispatch.region -> (tensor<4x16xf32>) {
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
        outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("mm")
    %relu = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%mm : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %x, %z : f32
      linalg.yield %m : f32
    } -> tensor<4x16xf32> loc("relu")
    dispatch.return %relu : tensor<4x16xf32>
  }
  %1 = dispatch.region -> (tensor<4x16xf32>) {
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
        outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("mm2")
    %relu = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%mm : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>)
        attrs = {dispatchlab.root} {
    ^bb0(%x: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %x, %z : f32
      linalg.yield %m : f32
    } -> tensor<4x16xf32> loc("relu2")
    dispatch.return %relu : tensor<4x16xf32>
  }
  return
}
)mlir";

TEST_F(CompileStatsTest, RootsMembersAndOperands) {
  CompileStats stats = compute(kRoots);
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_EQ(stats.groups[0].root, "%mm");
  EXPECT_EQ(stats.groups[0].members,
            (std::vector<std::string>{"%mm", "%relu"}));
  EXPECT_TRUE(stats.groups[0].cloned.empty());
  EXPECT_EQ(stats.groups[0].numOperands, 3u);
  EXPECT_EQ(stats.groups[1].root, "%relu2");
  // The root marker is dispatchlab bookkeeping, not part of the executable.
  EXPECT_EQ(stats.executables, 1);
}

TEST_F(CompileStatsTest, JsonHasEveryKey) {
  CompileStats stats = compute(kChain);
  stats.model = "chain.mlir";
  stats.options = "aggressive-fusion=false\nmax-operands=16\n";
  stats.genericBefore = 3;
  stats.genericAfter = 1;
  llvm::json::Value value = toJson(stats);
  const llvm::json::Object *json = value.getAsObject();
  ASSERT_TRUE(json);
  EXPECT_EQ(json->getString("model"), "chain.mlir");
  const llvm::json::Object *options = json->getObject("options");
  ASSERT_TRUE(options);
  EXPECT_EQ(options->size(), 2u);
  EXPECT_EQ(options->getString("aggressive-fusion"), "false");
  EXPECT_EQ(options->getString("max-operands"), "16");
  EXPECT_EQ(json->getInteger("dispatches"), 2);
  EXPECT_EQ(json->getInteger("executables"), 2);
  EXPECT_EQ(json->getInteger("fills"), 0);
  EXPECT_EQ(json->getInteger("copies"), 0);
  EXPECT_EQ(json->getInteger("generic_before"), 3);
  EXPECT_EQ(json->getInteger("generic_after"), 1);
  EXPECT_EQ(json->getInteger("transient_bytes"), 256);
  EXPECT_EQ(json->size(), 10u);

  const llvm::json::Array *groups = json->getArray("groups");
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 2u);
  const llvm::json::Object *group = (*groups)[0].getAsObject();
  ASSERT_TRUE(group);
  EXPECT_EQ(group->getString("name"), "chain_dispatch_0");
  EXPECT_EQ(group->getString("kind"), "fused");
  EXPECT_EQ(group->getString("root"), "%mm");
  EXPECT_EQ(group->getString("root_op"), "linalg.matmul");
  EXPECT_EQ(group->getString("root_class"), "contraction");
  ASSERT_TRUE(group->getArray("members"));
  EXPECT_EQ(group->getArray("members")->size(), 1u);
  ASSERT_TRUE(group->getArray("cloned"));
  EXPECT_EQ(group->getArray("cloned")->size(), 3u);
  EXPECT_EQ(group->getInteger("operands"), 2);
  EXPECT_EQ(group->getInteger("results"), 1);
  EXPECT_EQ(group->getString("executable"), stats.groups[0].executableHash);
  EXPECT_EQ(group->getString("root_shape_class"), "matmul");
  EXPECT_EQ(group->getInteger("flops"), 2 * 4 * 16 * 8);
  EXPECT_EQ(group->getInteger("bytes_read"), (4 * 8 + 8 * 16) * 4);
  EXPECT_EQ(group->getInteger("bytes_written"), 4 * 16 * 4);
  EXPECT_EQ(group->size(), 16u);
}

TEST_F(CompileStatsTest, DotHasAClusterPerDispatchAndBoldTransients) {
  compute(kChain);
  std::string graph = dot();
  EXPECT_TRUE(StringRef(graph).starts_with("digraph"));
  EXPECT_EQ(StringRef(graph).count("subgraph cluster_"), 2u);
  EXPECT_NE(graph.find("chain_dispatch_0\\nroot: %mm\""), std::string::npos);
  EXPECT_NE(graph.find("chain_dispatch_1\\nroot: %add\""), std::string::npos);
  // Only %mm -> %add crosses dispatches; %add reads it twice but the edge
  // is drawn once.
  EXPECT_EQ(StringRef(graph).count("style=bold"), 1u);
  EXPECT_NE(graph.find("[label=\"256 B\", style=bold"), std::string::npos);
  // Two arguments into %mm, two results out, and the bold edge.
  EXPECT_EQ(StringRef(graph).count(" -> "), 5u);
  // Cloned ops are not drawn.
  EXPECT_EQ(graph.find("linalg.fill"), std::string::npos);
}

TEST_F(CompileStatsTest, DotDrawsOutsideOpsButNotReshapes) {
  compute(kFillsAndCopies);
  std::string graph = dot();
  EXPECT_EQ(StringRef(graph).count("subgraph cluster_"), 1u);
  EXPECT_NE(graph.find("tensor.extract_slice"), std::string::npos);
  EXPECT_NE(graph.find("tensor.insert_slice"), std::string::npos);
  EXPECT_EQ(StringRef(graph).count("style=bold"), 0u);

  compute(kReshapedAndDynamic);
  graph = dot();
  EXPECT_EQ(StringRef(graph).count("subgraph cluster_"), 4u);
  EXPECT_EQ(graph.find("tensor.expand_shape"), std::string::npos);
  // The reshaped edge and the dynamic one both cross dispatches.
  EXPECT_EQ(StringRef(graph).count("style=bold"), 2u);
  EXPECT_NE(graph.find("[label=\"dynamic\", style=bold"), std::string::npos);
}

TEST_F(CompileStatsTest, TableListsEveryDispatch) {
  CompileStats stats = compute(kChain);
  stats.model = "chain.mlir";
  std::string text;
  llvm::raw_string_ostream os(text);
  printDispatchTable(stats, os);
  EXPECT_NE(text.find("Model: chain.mlir"), std::string::npos);
  EXPECT_NE(text.find("Dispatches: 2  Executables: 2 (0% reuse)"),
            std::string::npos);
  EXPECT_NE(text.find("Transient: 256 bytes"), std::string::npos);
  SmallVector<StringRef> lines;
  StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_GE(lines.size(), 3u);
  StringRef row0 = lines[lines.size() - 2], row1 = lines.back();
  EXPECT_TRUE(row0.ltrim().starts_with("0  fused"));
  EXPECT_TRUE(row1.ltrim().starts_with("1  fused"));
  EXPECT_TRUE(row0.contains("%mm"));
  EXPECT_TRUE(row1.contains("%add"));
  EXPECT_TRUE(
      row0.ends_with(StringRef(stats.groups[0].executableHash).take_front(8)));
  // Aligned columns: every row is as wide as the header up to the hash.
  EXPECT_EQ(row0.size(), row1.size());
}

TEST_F(CompileStatsTest, TableTruncatesLongMemberLists) {
  CompileStats stats;
  stats.model = "m";
  stats.dispatches = 2;
  stats.executables = 1;
  DispatchGroupStats group;
  group.kind = "fused";
  group.root = "%r";
  group.executableHash = "0123456789abcdef";
  for (int i = 0; i < 12; ++i)
    group.members.push_back("%member_" + std::to_string(i));
  stats.groups = {group, group};
  std::string text;
  llvm::raw_string_ostream os(text);
  printDispatchTable(stats, os);
  EXPECT_NE(text.find("Executables: 1 (50% reuse)"), std::string::npos);
  EXPECT_NE(text.find("%member_0, %member_1"), std::string::npos);
  EXPECT_NE(text.find(", ... (+"), std::string::npos);
  EXPECT_EQ(text.find("%member_11"), std::string::npos);
  EXPECT_EQ(StringRef(text).count("01234567\n"), 2u);
}

} // namespace

//===- DispatchWorkTest.cpp - per-dispatch FLOPs, bytes and shape class ---===//
//
// Every figure below is worked out by hand from the IR in the test.
//
//===----------------------------------------------------------------------===//

#include "core/analysis/CompileStats.h"
#include "core/analysis/StatsJson.h"

#include "core/pipeline/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace dispatchlab;

namespace {
class DispatchWorkTest : public ::testing::Test {
protected:
  DispatchWorkTest() {
    DialectRegistry registry;
    registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The groups of `ir`'s dispatches, `expected` of them.
  std::vector<DispatchGroupStats> groups(StringRef ir, size_t expected) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module);
    std::vector<DispatchGroupStats> result;
    if (module)
      result = computeCompileStats(*module).groups;
    EXPECT_EQ(result.size(), expected);
    // Sized as expected either way, so that a failure does not crash.
    result.resize(expected);
    return result;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// C[4x16] = A[4x8] * B[8x16]: 4*16*8 iterations of a mulf and an addf. The
// fill, its empty and the zero are cloned in: they write the accumulator
// inside the dispatch and read nothing from memory.
const char *kMatmul = R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = dispatch.region -> (tensor<4x16xf32>) {
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
        outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
    dispatch.return %mm : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}
)mlir";

TEST_F(DispatchWorkTest, Matmul) {
  std::vector<DispatchGroupStats> stats = groups(kMatmul, 1);
  EXPECT_EQ(stats[0].flops, 2 * 4 * 8 * 16);
  EXPECT_EQ(stats[0].bytesRead, 4 * (4 * 8 + 8 * 16));
  EXPECT_EQ(stats[0].bytesWritten, 4 * (4 * 16));
  EXPECT_EQ(stats[0].rootShapeClass, "matmul");

  llvm::json::Value json = toJson(computeCompileStats(*module));
  const llvm::json::Object *group =
      (*json.getAsObject()->getArray("groups"))[0].getAsObject();
  EXPECT_EQ(group->getInteger("flops"), 1024);
  EXPECT_EQ(group->getInteger("bytes_read"), 640);
  EXPECT_EQ(group->getInteger("bytes_written"), 256);
  EXPECT_EQ(group->getString("root_shape_class"), "matmul");
}

// add, then exp * 2 narrowed to f16: 64 iterations of one op, then 64 of
// two (the constant and the truncf compute nothing). %b is used twice and
// read once; the result is f16.
const char *kElementwiseChain = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf16> {
  %0 = dispatch.region -> (tensor<4x16xf16>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %add = linalg.generic {indexing_maps = [#id, #id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<4x16xf32>, tensor<4x16xf32>)
        outs(%e : tensor<4x16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<4x16xf32>
    %e16 = tensor.empty() : tensor<4x16xf16>
    %exp = linalg.generic {indexing_maps = [#id, #id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%add, %b : tensor<4x16xf32>, tensor<4x16xf32>)
        outs(%e16 : tensor<4x16xf16>) {
    ^bb0(%x: f32, %unused: f32, %o: f16):
      %two = arith.constant 2.0 : f32
      %x2 = math.exp %x : f32
      %m = arith.mulf %x2, %two : f32
      %t = arith.truncf %m : f32 to f16
      linalg.yield %t : f16
    } -> tensor<4x16xf16>
    dispatch.return %exp : tensor<4x16xf16>
  }
  return %0 : tensor<4x16xf16>
}
)mlir";

TEST_F(DispatchWorkTest, ElementwiseChain) {
  std::vector<DispatchGroupStats> stats = groups(kElementwiseChain, 1);
  EXPECT_EQ(stats[0].flops, 64 * 1 + 64 * 2);
  EXPECT_EQ(stats[0].bytesRead, 2 * 64 * 4);
  EXPECT_EQ(stats[0].bytesWritten, 64 * 2);
  EXPECT_EQ(stats[0].rootShapeClass, "elementwise");
}

// Pads as formation leaves them (ResNet-50's stem): the padded tensor is a
// fill outside, and the dispatch inserts its interior into it. Dispatch 0
// computes a ReLU into the 4x4x8 interior of a 6x6x8 tensor, dispatch 1 only
// copies %x in (a "copy" dispatch), dispatch 2 inserts twice (a concat).
// Each writes its slices alone and never reads the fill. Dispatch 3 fills
// the tensor itself, so all of it is written.
const char *kPads = R"mlir(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @f(%x: tensor<4x4x8xf32>)
    -> (tensor<6x6x8xf32>, tensor<6x6x8xf32>, tensor<6x6x8xf32>, tensor<6x6x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x6x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<6x6x8xf32>) -> tensor<6x6x8xf32>
  %0 = dispatch.region -> (tensor<6x6x8xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4x8xf32>
    %relu = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x : tensor<4x4x8xf32>) outs(%e : tensor<4x4x8xf32>)
        attrs = {dispatchlab.root} {
    ^bb0(%v: f32, %o: f32):
      %r = arith.maximumf %v, %c0 : f32
      linalg.yield %r : f32
    } -> tensor<4x4x8xf32>
    %in = tensor.insert_slice %relu into %fill[1, 1, 0] [4, 4, 8] [1, 1, 1]
        : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    dispatch.return %in : tensor<6x6x8xf32>
  }
  %1 = dispatch.region -> (tensor<6x6x8xf32>) {
    %in = tensor.insert_slice %x into %fill[1, 1, 0] [4, 4, 8] [1, 1, 1]
        : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    dispatch.return %in : tensor<6x6x8xf32>
  } {dispatchlab.kind = "copy"}
  %2 = dispatch.region -> (tensor<6x6x8xf32>) {
    %top = tensor.insert_slice %x into %fill[0, 0, 0] [4, 4, 8] [1, 1, 1]
        : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    %both = tensor.insert_slice %x into %top[2, 2, 0] [4, 4, 8] [1, 1, 1]
        : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    dispatch.return %both : tensor<6x6x8xf32>
  }
  %3 = dispatch.region -> (tensor<6x6x8xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<6x6x8xf32>
    %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<6x6x8xf32>) -> tensor<6x6x8xf32>
    %in = tensor.insert_slice %x into %f[1, 1, 0] [4, 4, 8] [1, 1, 1]
        : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    dispatch.return %in : tensor<6x6x8xf32>
  }
  return %0, %1, %2, %3
      : tensor<6x6x8xf32>, tensor<6x6x8xf32>, tensor<6x6x8xf32>, tensor<6x6x8xf32>
}
)mlir";

TEST_F(DispatchWorkTest, PadInsertWritesOnlyItsSlice) {
  std::vector<DispatchGroupStats> stats = groups(kPads, 4);
  const int64_t slice = 4 * 4 * 8 * 4, whole = 6 * 6 * 8 * 4;
  EXPECT_EQ(stats[0].flops, 4 * 4 * 8);
  EXPECT_EQ(stats[0].bytesRead, slice);
  EXPECT_EQ(stats[0].bytesWritten, slice);
  EXPECT_EQ(stats[0].rootShapeClass, "elementwise");

  EXPECT_EQ(stats[1].flops, 0);
  EXPECT_EQ(stats[1].bytesRead, slice);
  EXPECT_EQ(stats[1].bytesWritten, slice);
  EXPECT_EQ(stats[1].rootShapeClass, "copy");

  // %x read once though inserted twice; two slices written.
  EXPECT_EQ(stats[2].bytesRead, slice);
  EXPECT_EQ(stats[2].bytesWritten, 2 * slice);

  // The fill inside writes the border too.
  EXPECT_EQ(stats[3].flops, 0);
  EXPECT_EQ(stats[3].bytesRead, slice);
  EXPECT_EQ(stats[3].bytesWritten, whole);
}

// A padded tensor the dispatch also reads after inserting into it (a pad
// fused with its consumer): its border is loaded, so all of it is read. The
// sum reads it at 6*6*8 points; the result is the sum alone.
const char *kPadThenRead = R"mlir(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @f(%x: tensor<4x4x8xf32>, %pad: tensor<6x6x8xf32>) -> tensor<6x6x8xf32> {
  %0 = dispatch.region -> (tensor<6x6x8xf32>) {
    %in = tensor.insert_slice %x into %pad[1, 1, 0] [4, 4, 8] [1, 1, 1]
        : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    %e = tensor.empty() : tensor<6x6x8xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%in : tensor<6x6x8xf32>) outs(%e : tensor<6x6x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %s = arith.addf %v, %v : f32
      linalg.yield %s : f32
    } -> tensor<6x6x8xf32>
    dispatch.return %sum : tensor<6x6x8xf32>
  }
  return %0 : tensor<6x6x8xf32>
}
)mlir";

TEST_F(DispatchWorkTest, PaddedTensorReadInsideIsRead) {
  std::vector<DispatchGroupStats> stats = groups(kPadThenRead, 1);
  EXPECT_EQ(stats[0].flops, 6 * 6 * 8);
  EXPECT_EQ(stats[0].bytesRead, (4 * 4 * 8 + 6 * 6 * 8) * 4);
  EXPECT_EQ(stats[0].bytesWritten, 6 * 6 * 8 * 4);
}

// A split's consumer reads its half of %a; a reshape of %a captured beside
// %a itself is the same buffer, read once; a dynamic shape counts 0.
const char *kSlicesViewsAndDynamic = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<8x16xf32>, %d: tensor<?x16xf32>) {
  %0 = dispatch.region -> (tensor<4x16xf32>) {
    %top = tensor.extract_slice %a[0, 0] [4, 16] [1, 1]
        : tensor<8x16xf32> to tensor<4x16xf32>
    %e = tensor.empty() : tensor<4x16xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%top : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %n = arith.negf %v : f32
      linalg.yield %n : f32
    } -> tensor<4x16xf32>
    dispatch.return %neg : tensor<4x16xf32>
  }
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<8x16xf32> into tensor<128xf32>
  %1:2 = dispatch.region -> (tensor<128xf32>, tensor<8x16xf32>) {
    %e = tensor.empty() : tensor<128xf32>
    %c = linalg.copy ins(%flat : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
    %e2 = tensor.empty() : tensor<8x16xf32>
    %c2 = linalg.copy ins(%a : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    dispatch.return %c, %c2 : tensor<128xf32>, tensor<8x16xf32>
  }
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %d, %c0 : tensor<?x16xf32>
  %2 = dispatch.region -> (tensor<?x16xf32>) {
    %e = tensor.empty(%dim) : tensor<?x16xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%d : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %n = arith.negf %v : f32
      linalg.yield %n : f32
    } -> tensor<?x16xf32>
    dispatch.return %neg : tensor<?x16xf32>
  }
  return
}
)mlir";

TEST_F(DispatchWorkTest, SlicesViewsAndDynamicShapes) {
  std::vector<DispatchGroupStats> stats = groups(kSlicesViewsAndDynamic, 3);
  EXPECT_EQ(stats[0].flops, 4 * 16);
  EXPECT_EQ(stats[0].bytesRead, 4 * 16 * 4);
  EXPECT_EQ(stats[0].bytesWritten, 4 * 16 * 4);

  EXPECT_EQ(stats[1].flops, 0);
  EXPECT_EQ(stats[1].bytesRead, 8 * 16 * 4);
  EXPECT_EQ(stats[1].bytesWritten, 2 * 8 * 16 * 4);
  EXPECT_EQ(stats[1].rootShapeClass, "copy");

  EXPECT_EQ(stats[2].flops, 0);
  EXPECT_EQ(stats[2].bytesRead, 0);
  EXPECT_EQ(stats[2].bytesWritten, 0);
}

// One root per dispatch, each a shape class; inits are arguments, so they
// are read.
const char *kShapes = R"mlir(
#img = affine_map<(h, w, f, c) -> (h, w, c)>
#wt = affine_map<(h, w, f, c) -> (f, c)>
#out = affine_map<(h, w, f, c) -> (h, w, f)>
#img2 = affine_map<(h, w, f, c) -> (h * 2, w * 2, c)>
func.func @f(%x: tensor<1x6x6x4xf32>, %x8: tensor<1x8x8x4xf32>,
             %dw: tensor<3x3x4xf32>, %w1: tensor<1x1x4x16xf32>,
             %win: tensor<3x3xf32>, %o4: tensor<1x4x4x4xf32>,
             %o16: tensor<1x4x4x16xf32>, %ba: tensor<2x4x8xf32>,
             %bb: tensor<2x8x16xf32>, %bo: tensor<2x4x16xf32>,
             %hwc: tensor<4x4x8xf32>, %fc: tensor<16x8xf32>,
             %hwf: tensor<4x4x16xf32>, %img8: tensor<8x8x8xf32>) {
  %0 = dispatch.region -> (tensor<1x4x4x4xf32>) {
    %r = linalg.depthwise_conv_2d_nhwc_hwc
        {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %dw : tensor<1x6x6x4xf32>, tensor<3x3x4xf32>)
        outs(%o4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    dispatch.return %r : tensor<1x4x4x4xf32>
  }
  %1 = dispatch.region -> (tensor<1x4x4x16xf32>) {
    %r = linalg.conv_2d_nhwc_hwcf
        {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%x8, %w1 : tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>)
        outs(%o16 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    dispatch.return %r : tensor<1x4x4x16xf32>
  }
  %2 = dispatch.region -> (tensor<1x4x4x4xf32>) {
    %r = linalg.pooling_nhwc_max
        {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%x, %win : tensor<1x6x6x4xf32>, tensor<3x3xf32>)
        outs(%o4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    dispatch.return %r : tensor<1x4x4x4xf32>
  }
  %3 = dispatch.region -> (tensor<2x4x16xf32>) {
    %r = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
        outs(%bo : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    dispatch.return %r : tensor<2x4x16xf32>
  }
  %4 = dispatch.region -> (tensor<4x4x16xf32>) {
    %r = linalg.generic {indexing_maps = [#img, #wt, #out],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%hwc, %fc : tensor<4x4x8xf32>, tensor<16x8xf32>)
        outs(%hwf : tensor<4x4x16xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x4x16xf32>
    dispatch.return %r : tensor<4x4x16xf32>
  }
  %5 = dispatch.region -> (tensor<4x4x16xf32>) {
    %r = linalg.generic {indexing_maps = [#img2, #wt, #out],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%img8, %fc : tensor<8x8x8xf32>, tensor<16x8xf32>)
        outs(%hwf : tensor<4x4x16xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x4x16xf32>
    dispatch.return %r : tensor<4x4x16xf32>
  }
  return
}
)mlir";

TEST_F(DispatchWorkTest, RootShapeClasses) {
  std::vector<DispatchGroupStats> stats = groups(kShapes, 6);
  EXPECT_EQ(stats[0].rootClass, "conv");
  EXPECT_EQ(stats[0].rootShapeClass, "conv_depthwise");
  // 4x4 outputs x 4 channels x 3x3 taps, a multiply-add each.
  EXPECT_EQ(stats[0].flops, 4 * 4 * 4 * 9 * 2);
  EXPECT_EQ(stats[0].bytesRead, (6 * 6 * 4 + 9 * 4 + 4 * 4 * 4) * 4);
  EXPECT_EQ(stats[0].bytesWritten, 4 * 4 * 4 * 4);

  EXPECT_EQ(stats[1].rootShapeClass, "conv_1x1_strided");
  EXPECT_EQ(stats[1].flops, 4 * 4 * 16 * 4 * 2);

  EXPECT_EQ(stats[2].rootShapeClass, "pool");
  EXPECT_EQ(stats[2].flops, 4 * 4 * 4 * 9);

  EXPECT_EQ(stats[3].rootShapeClass, "batch_matmul");
  EXPECT_EQ(stats[3].flops, 2 * 4 * 16 * 8 * 2);

  // A 1x1 convolution as formation sees it: an image times a matrix.
  EXPECT_EQ(stats[4].rootClass, "contraction");
  EXPECT_EQ(stats[4].rootShapeClass, "conv_1x1");
  EXPECT_EQ(stats[4].flops, 4 * 4 * 16 * 8 * 2);

  // Its stride-2 form reads the image at (2h, 2w): the whole 8x8x8 image
  // counts as read, though only every other pixel is used.
  EXPECT_EQ(stats[5].rootClass, "reduction");
  EXPECT_EQ(stats[5].rootShapeClass, "conv_1x1_strided");
  EXPECT_EQ(stats[5].flops, 4 * 4 * 16 * 8 * 2);
  EXPECT_EQ(stats[5].bytesRead, (8 * 8 * 8 + 16 * 8 + 4 * 4 * 16) * 4);
}

} // namespace

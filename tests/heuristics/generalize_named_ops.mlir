// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-generalize-named-ops))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-generalize-named-ops{generalize-matmul=true}))' | FileCheck %s --check-prefix=MATMUL

// Tensor-level arith ops become generics (convert-elementwise-to-linalg).
// CHECK-LABEL: func.func @tensor_arith
// CHECK:         linalg.generic
// CHECK:           arith.truncf
// CHECK-NOT:     arith.truncf {{.*}} : tensor
func.func @tensor_arith(%a: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %0 = arith.truncf %a : tensor<4x8xf32> to tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Named elementwise, transpose, broadcast and reduce ops are generalized.
// CHECK-LABEL: func.func @named_ops
// CHECK-NOT:     linalg.add
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.broadcast
// CHECK-NOT:     linalg.reduce
// CHECK-COUNT-4: linalg.generic
// CHECK:         return
func.func @named_ops(%a: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %er = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  %2 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %3 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%er : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Convolutions are always generalized.
// CHECK-LABEL: func.func @conv
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic
func.func @conv(%i: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf ins(%i, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// Fills are never generalized (they must stay cloneable); matmuls only with
// generalize-matmul.
// CHECK-LABEL: func.func @fill_and_matmul
// CHECK:         linalg.fill
// CHECK:         linalg.matmul
// MATMUL-LABEL: func.func @fill_and_matmul
// MATMUL:         linalg.fill
// MATMUL-NOT:     linalg.matmul
// MATMUL:         linalg.generic
// MATMUL-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
func.func @fill_and_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Ops already inside a dispatch are left alone.
// CHECK-LABEL: func.func @inside_dispatch
// CHECK:         dispatch.region
// CHECK:           linalg.add
func.func @inside_dispatch(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = dispatch.region -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    dispatch.return %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

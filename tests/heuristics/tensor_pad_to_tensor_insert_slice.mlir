// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-tensor-pad-to-tensor-insert-slice))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-tensor-pad-to-tensor-insert-slice{skip-one-linalg-use-case=true}))' | FileCheck %s --check-prefix=SKIP

// A constant pad becomes empty + fill + insert_slice.
// CHECK-LABEL: func.func @constant_pad
// CHECK-DAG:     %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[E:.+]] = tensor.empty() : tensor<6x12xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<6x12xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %[[F]][1, 2] [4, 8] [1, 1]
// CHECK-NOT:     tensor.pad
// SKIP-LABEL: func.func @constant_pad
// SKIP:         tensor.insert_slice
func.func @constant_pad(%a: tensor<4x8xf32>) -> tensor<6x12xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x8xf32> to tensor<6x12xf32>
  return %0 : tensor<6x12xf32>
}

// -----

// A pad whose value depends on the position is not a constant pad.
// CHECK-LABEL: func.func @index_dependent_pad
// CHECK:         tensor.pad
func.func @index_dependent_pad(%a: tensor<4xindex>) -> tensor<6xindex> {
  %0 = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<4xindex> to tensor<6xindex>
  return %0 : tensor<6xindex>
}

// -----

// skip-one-linalg-use-case keeps a pad whose only user is a Linalg op.
// CHECK-LABEL: func.func @pad_into_conv
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.conv_2d_nhwc_hwcf
// SKIP-LABEL: func.func @pad_into_conv
// SKIP:         tensor.pad
// SKIP:         linalg.conv_2d_nhwc_hwcf
func.func @pad_into_conv(%i: tensor<1x6x6x3xf32>, %f: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x6x6x3xf32> to tensor<1x8x8x3xf32>
  %0 = linalg.conv_2d_nhwc_hwcf ins(%p, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// Pads inside a dispatch are left alone.
// CHECK-LABEL: func.func @inside_dispatch
// CHECK:         dispatch.region
// CHECK:           tensor.pad
func.func @inside_dispatch(%a: tensor<4xf32>) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %r = dispatch.region -> (tensor<6xf32>) {
    %0 = tensor.pad %a low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %cst : f32
    } : tensor<4xf32> to tensor<6xf32>
    dispatch.return %0 : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}

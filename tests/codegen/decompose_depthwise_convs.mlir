// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-decompose-depthwise-convs))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-tile-and-fuse-dispatches,canonicalize,cse,dispatchlab-decompose-depthwise-convs,dispatchlab-vectorize-dispatches,canonicalize,cse,loop-invariant-subset-hoisting,canonicalize,cse))' | FileCheck %s --check-prefix=VEC

// A row of a 3x3/1 depthwise convolution (one output row, unit filter
// height, as tiled): a 1-D depthwise convolution whose batch dim is the
// row; only the filter drops its unit height.
// CHECK-LABEL: func.func @row_dispatch
// CHECK-SAME:    (%[[IN:.+]]: tensor<1x10x16xf32>, %[[F:.+]]: tensor<1x3x16xf32>, %[[ACC:.+]]: tensor<1x8x16xf32>)
// CHECK:         %[[ROW:.+]] = tensor.extract_slice %[[F]][0, 0, 0] [1, 3, 16] [1, 1, 1] : tensor<1x3x16xf32> to tensor<3x16xf32>
// CHECK:         %[[CONV:.+]] = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%[[IN]], %[[ROW]] : tensor<1x10x16xf32>, tensor<3x16xf32>) outs(%[[ACC]] : tensor<1x8x16xf32>)
// CHECK:         return %[[CONV]]
#row_in = affine_map<(d0, d1, d2, d3, d4) -> (d0 + d3, d1 + d4, d2)>
#row_filter = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#row_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @row_dispatch(%in: tensor<1x10x16xf32>, %f: tensor<1x3x16xf32>, %acc: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> attributes {dispatchlab.dispatch} {
  %conv = linalg.generic {indexing_maps = [#row_in, #row_filter, #row_out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%in, %f : tensor<1x10x16xf32>, tensor<1x3x16xf32>) outs(%acc : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  return %conv : tensor<1x8x16xf32>
}

// -----

// The W stride and dilation carry over; the H ones (here stride 2,
// dilation 1) do not matter to a single row.
// CHECK-LABEL: func.func @strided_dilated_row_dispatch
// CHECK:         linalg.depthwise_conv_1d_nwc_wc {dilations = dense<2> : tensor<1xi64>, strides = dense<3> : tensor<1xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x13x8xf32>, tensor<1x8xf32>) outs(%{{.+}} : tensor<1x5x8xf32>)
#sd_in = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 2 + d3, d1 * 3 + d4 * 2, d2)>
#sd_filter = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#sd_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @strided_dilated_row_dispatch(%in: tensor<1x13x8xf32>, %f: tensor<1x1x8xf32>, %acc: tensor<1x5x8xf32>) -> tensor<1x5x8xf32> attributes {dispatchlab.dispatch} {
  %conv = linalg.generic {indexing_maps = [#sd_in, #sd_filter, #sd_out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%in, %f : tensor<1x13x8xf32>, tensor<1x1x8xf32>) outs(%acc : tensor<1x5x8xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %m = arith.mulf %w, %a : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x5x8xf32>
  return %conv : tensor<1x5x8xf32>
}

// -----

// Two output rows (or a filter taller than 1) are no single 1-D
// convolution: left as they are.
// CHECK-LABEL: func.func @two_rows_dispatch
// CHECK-NOT:     linalg.depthwise_conv_1d_nwc_wc
// CHECK:         linalg.generic
#tr_in = affine_map<(d0, d1, d2, d3, d4) -> (d0 + d3, d1 + d4, d2)>
#tr_filter = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#tr_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @two_rows_dispatch(%in: tensor<2x8x16xf32>, %f: tensor<1x1x16xf32>, %acc: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> attributes {dispatchlab.dispatch} {
  %conv = linalg.generic {indexing_maps = [#tr_in, #tr_filter, #tr_out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%in, %f : tensor<2x8x16xf32>, tensor<1x1x16xf32>) outs(%acc : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x16xf32>
  return %conv : tensor<2x8x16xf32>
}

// -----

// A body other than `out + input * filter` (here a max pool's shape with a
// multiply) is not what the 1-D convolution computes: left alone.
// CHECK-LABEL: func.func @not_multiply_accumulate_dispatch
// CHECK-NOT:     linalg.depthwise_conv_1d_nwc_wc
// CHECK:         linalg.generic
#nm_in = affine_map<(d0, d1, d2, d3, d4) -> (d0 + d3, d1 + d4, d2)>
#nm_filter = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#nm_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @not_multiply_accumulate_dispatch(%in: tensor<1x10x16xf32>, %f: tensor<1x3x16xf32>, %acc: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> attributes {dispatchlab.dispatch} {
  %conv = linalg.generic {indexing_maps = [#nm_in, #nm_filter, #nm_out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%in, %f : tensor<1x10x16xf32>, tensor<1x3x16xf32>) outs(%acc : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.maximumf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  return %conv : tensor<1x8x16xf32>
}

// -----

// A whole dispatch as the importer forms it (MobileNetV2's 3x3/1
// depthwise convolution with its bias and ReLU6): tiles of 1 row x 8
// columns x 16 channels, the window dims stepped one at a time, each step
// one FMA per column on a vector of channels, the accumulator starting from
// a zero vector in registers (not read back from a zero-filled temporary),
// and the epilogue still in the same tile.
// VEC-LABEL: func.func @depthwise_relu6_dispatch
// VEC:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x8x16xf32>
// VEC:         scf.forall (%{{.+}}, %{{.+}}, %{{.+}}) = (0, 0, 0) to (56, 144, 56) step (1, 16, 8)
// VEC:           scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]]) -> (vector<1x8x16xf32>)
// VEC:             scf.for {{.+}} -> (vector<1x8x16xf32>)
// VEC:               vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<1x8x16xf32>
// VEC:           arith.minimumf %{{.+}}, %{{.+}} : vector<8x16xf32>
// VEC:           arith.maximumf %{{.+}}, %{{.+}} : vector<8x16xf32>
// VEC:           scf.forall.in_parallel
// VEC-NOT:     linalg.
#m_in = affine_map<(d0, d1, d2, d3, d4) -> (d0 + d3, d1 + d4, d2)>
#m_filter = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#m_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#m_bias = affine_map<(d0, d1, d2) -> (d2)>
#m_id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @depthwise_relu6_dispatch(%in: tensor<58x58x144xf32>, %f: tensor<3x3x144xf32>, %b: tensor<144xf32>) -> tensor<56x56x144xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<56x56x144xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<56x56x144xf32>) -> tensor<56x56x144xf32>
  %conv = linalg.generic {indexing_maps = [#m_in, #m_filter, #m_out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%in, %f : tensor<58x58x144xf32>, tensor<3x3x144xf32>) outs(%fill : tensor<56x56x144xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<56x56x144xf32>
  %r = linalg.generic {indexing_maps = [#m_bias, #m_id, #m_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b, %conv : tensor<144xf32>, tensor<56x56x144xf32>) outs(%e : tensor<56x56x144xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %lo = arith.minimumf %s, %six : f32
    %hi = arith.maximumf %lo, %zero : f32
    linalg.yield %hi : f32
  } -> tensor<56x56x144xf32>
  return %r : tensor<56x56x144xf32>
}

// -----

// Stride 2 over 72 channels, as MobileNetV3 has: 64 channels in tiles of
// two vectors and the 8 left in tiles of their own, both 1-D convolutions;
// the strided columns are every other row of one input read per step.
// VEC-LABEL: func.func @depthwise_stride2_dispatch
// VEC:         scf.forall (%{{.+}}, %{{.+}}, %{{.+}}) = (0, 0, 0) to (14, 64, 14) step (1, 32, 7)
// VEC:           %[[ROW:.+]] = vector.transfer_read {{.+}} : tensor<1x13x32xf32>, vector<1x13x32xf32>
// VEC:           vector.extract %[[ROW]][0, 2] : vector<32xf32> from vector<1x13x32xf32>
// VEC:           vector.fma {{.+}} : vector<1x1x32xf32>
// VEC:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (14, 14) step (1, 7)
// VEC:           vector.fma {{.+}} : vector<1x1x8xf32>
// VEC-NOT:     linalg.
#s_in = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 2 + d3, d1 * 2 + d4, d2)>
#s_filter = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#s_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @depthwise_stride2_dispatch(%in: tensor<29x29x72xf32>, %f: tensor<3x3x72xf32>) -> tensor<14x14x72xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<14x14x72xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<14x14x72xf32>) -> tensor<14x14x72xf32>
  %conv = linalg.generic {indexing_maps = [#s_in, #s_filter, #s_out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%in, %f : tensor<29x29x72xf32>, tensor<3x3x72xf32>) outs(%fill : tensor<14x14x72xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<14x14x72xf32>
  return %conv : tensor<14x14x72xf32>
}

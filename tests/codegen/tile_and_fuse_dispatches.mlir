// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-transpose-weights,dispatchlab-tile-and-fuse-dispatches,canonicalize,cse))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-transpose-weights,dispatchlab-tile-and-fuse-dispatches,canonicalize,cse,dispatchlab-vectorize-dispatches,canonicalize,cse))' | FileCheck %s --check-prefix=VEC

// Seed 004's dispatch: exp is tiled 3x7 (largest divisors of 33 and 49 not
// above 8 and 32) by one scf.forall over the independent tiles (what
// --threads spreads over threads; column tiles outermost, so one column
// panel of the rhs serves every row tile), the matmul and its fill are fused into it and
// work on a tile-sized tensor.empty, not on slices of the full-size one.
// CHECK-LABEL: func.func @dot_exp_dispatch
// CHECK:         %[[FULL:.+]] = tensor.empty() : tensor<33x49xf32>
// CHECK:         scf.forall (%[[J:.+]], %[[I:.+]]) = (0, 0) to (49, 33) step (7, 3) shared_outs(%[[B:.+]] = %[[FULL]])
// CHECK-NOT:         tensor.extract_slice %[[FULL]]
// CHECK:             %[[TILE:.+]] = tensor.empty() : tensor<3x7xf32>
// CHECK:             %[[FILL:.+]] = linalg.fill {{.+}} outs(%[[TILE]] : tensor<3x7xf32>)
// CHECK:             %[[MM:.+]] = linalg.matmul {{.+}} outs(%[[FILL]] : tensor<3x7xf32>)
// CHECK:             %[[OUT:.+]] = tensor.extract_slice %[[B]][%[[I]], %[[J]]] [3, 7]
// CHECK:             %[[EXP:.+]] = linalg.generic {{.+}} ins(%[[MM]] : tensor<3x7xf32>) outs(%[[OUT]] : tensor<3x7xf32>)
// CHECK:             scf.forall.in_parallel
// CHECK-NEXT:          tensor.parallel_insert_slice %[[EXP]] into %[[B]][%[[I]], %[[J]]] [3, 7]
// Vectorized, the tile never touches memory between matmul and exp.
// VEC-LABEL: func.func @dot_exp_dispatch
// VEC-NOT:     linalg.
// VEC:         vector.contract {{.+}} : vector<3x16xf32>, vector<16x7xf32> into vector<3x7xf32>
// VEC-NEXT:    tensor.extract_slice
// VEC-NEXT:    math.exp %{{.+}} : vector<3x7xf32>
// VEC-NEXT:    vector.transfer_write
// VEC-NOT:     linalg.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @dot_exp_dispatch(%lhs: tensor<33x16xf32>, %rhs: tensor<16x49xf32>) -> tensor<33x49xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<33x49xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<33x49xf32>) -> tensor<33x49xf32>
  %mm = linalg.matmul ins(%lhs, %rhs : tensor<33x16xf32>, tensor<16x49xf32>) outs(%fill : tensor<33x49xf32>) -> tensor<33x49xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<33x49xf32>) outs(%empty : tensor<33x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<33x49xf32>
  return %exp : tensor<33x49xf32>
}

// -----

// A long reduction is tiled too (784 = 49 x 16), accumulating in place; the
// host function (no dispatchlab.dispatch) is left alone.
// CHECK-LABEL: func.func @gemv_dispatch
// VEC-LABEL:   func.func @gemv_dispatch
// CHECK:         scf.forall ({{.+}}) = (0) to (128) step (32)
// CHECK:           linalg.fill
// CHECK:           scf.for {{.+}} = %c0 to %c784 step %c16 iter_args
// CHECK:             linalg.matmul ins({{.+}} : tensor<1x16xf32>, tensor<16x32xf32>) outs({{.+}} : tensor<1x32xf32>)
// CHECK-LABEL: func.func @host
// CHECK-NOT:     scf.for
// CHECK:         linalg.matmul ins({{.+}} : tensor<1x784xf32>, tensor<784x128xf32>)
func.func @gemv_dispatch(%x: tensor<1x784xf32>, %w: tensor<784x128xf32>) -> tensor<1x128xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x128xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x128xf32>) -> tensor<1x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x128xf32>) outs(%fill : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %mm : tensor<1x128xf32>
}
func.func @host(%x: tensor<1x784xf32>, %w: tensor<784x128xf32>) -> tensor<1x128xf32> {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x128xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x128xf32>) -> tensor<1x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x128xf32>) outs(%fill : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %mm : tensor<1x128xf32>
}

// -----

// 32 channels reduced in two steps of 16 spilled the input broadcasts in
// LLVM, so they go in four steps of 8.
// CHECK-LABEL: func.func @two_step_reduction_dispatch
// CHECK:         scf.for {{.+}} = %c0 to %c32 step %c8 iter_args
// CHECK:           linalg.matmul ins({{.+}} : tensor<8x8xf32>, tensor<8x32xf32>) outs({{.+}} : tensor<8x32xf32>)
func.func @two_step_reduction_dispatch(%x: tensor<8x32xf32>, %w: tensor<32x64xf32>) -> tensor<8x64xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x64xf32>) outs(%fill : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %mm : tensor<8x64xf32>
}

// -----

// Likewise 24 channels go in three steps of 8, not two of 12.
// CHECK-LABEL: func.func @two_narrow_steps_dispatch
// CHECK:         scf.for {{.+}} = %c0 to %c24 step %c8 iter_args
// CHECK:           linalg.matmul ins({{.+}} : tensor<8x8xf32>, tensor<8x32xf32>) outs({{.+}} : tensor<8x32xf32>)
func.func @two_narrow_steps_dispatch(%x: tensor<8x24xf32>, %w: tensor<24x64xf32>) -> tensor<8x64xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x24xf32>, tensor<24x64xf32>) outs(%fill : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %mm : tensor<8x64xf32>
}

// -----

// A result inserted into a captured tensor (the next layer's padding): the
// inserted value's producer is tiled, the insert stays outside the loops.
// CHECK-LABEL: func.func @padded_result_dispatch
// CHECK:         %[[LOOP:.+]] = scf.forall
// CHECK:           linalg.generic
// CHECK:         tensor.insert_slice %[[LOOP]] into %{{.+}}[0, 1] [4, 64] [1, 1]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @padded_result_dispatch(%x: tensor<4x64xf32>, %padded: tensor<6x66xf32>) -> tensor<6x66xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<4x64xf32>
  %neg = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%empty : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x64xf32>
  %inserted = tensor.insert_slice %neg into %padded[0, 1] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<6x66xf32>
  return %inserted : tensor<6x66xf32>
}

// -----

// A strided 3x3 convolution + ReLU (IREE's CPU convolution strategy): the
// filter [f, kh, kw, c] is transposed once to [kh, kw, c, f] outside the
// tile loops (16x16 blocks, vector transposes once vectorized), the ReLU's
// (oh, f) tiles take the convolution fused in, the filter window dims are
// tiled to 1 and the channels by 8 (32 channels in two steps of 16 spill in
// LLVM: getReductionStep). Once the unit dims are dropped and the stride
// becomes a strided slice, each step is an 8x32x8 contraction reading 8 rows
// of 32 contiguous filter values.
// CHECK-LABEL: func.func @conv_relu_dispatch
// CHECK:         scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:           scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:             scf.for %{{.+}} = %c0 to %c32 step %c16
// CHECK:               scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK:                 linalg.transpose ins(%{{.+}} : tensor<16x1x1x16xf32>) outs(%{{.+}} : tensor<1x1x16x16xf32>) permutation = [1, 2, 3, 0]
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (8, 64) step (1, 32)
// CHECK:           linalg.fill {{.+}} -> tensor<1x1x8x32xf32>
// CHECK:           scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:             scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:               scf.for %{{.+}} = %c0 to %c32 step %c8
// CHECK:                 linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<1x1x15x8xf32>, tensor<1x1x8x32xf32>) outs(%{{.+}} : tensor<1x1x8x32xf32>)
// CHECK:           linalg.generic {{.+}} ins(%{{.+}} : tensor<1x1x8x32xf32>)
// VEC-LABEL:   func.func @conv_relu_dispatch
// VEC:           vector.transpose %{{.+}}, [1, 2, 3, 0] : vector<16x1x1x16xf32> to vector<1x1x16x16xf32>
// VEC-NOT:       linalg.
// VEC:           %[[STRIDED:.+]] = tensor.extract_slice %{{.+}}[0, 0] [8, 8] [2, 1] : tensor<15x8xf32> to tensor<8x8xf32>
// VEC:           %[[IN:.+]] = vector.transfer_read %[[STRIDED]]{{.+}} : tensor<8x8xf32>, vector<8x8xf32>
// VEC:           vector.contract {{.+}} %[[IN]], %{{.+}}, %{{.+}} : vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>
// VEC:           arith.maximumf %{{.+}} : vector<8x32xf32>
// VEC-NOT:       linalg.
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_relu_dispatch(%input: tensor<1x17x17x32xf32>, %filter: tensor<64x3x3x32xf32>) -> tensor<1x8x8x64xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x8x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xf32>
  %conv = linalg.generic {indexing_maps = [#in, #filter, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%input, %filter : tensor<1x17x17x32xf32>, tensor<64x3x3x32xf32>) outs(%fill : tensor<1x8x8x64xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x64xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv : tensor<1x8x8x64xf32>) outs(%empty : tensor<1x8x8x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x64xf32>
  return %relu : tensor<1x8x8x64xf32>
}

// -----

// Weights too big to stay in L2 across output rows (3x3x64x512 f32, 1.2 MB,
// above 512 KB): the channel tiles go outside the row tiles, so each
// 32-channel panel of the weights is read once, not once per output row.
// CHECK-LABEL: func.func @conv_big_weights_dispatch
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (512, 8) step (32, 1)
// CHECK:           linalg.generic {{.+}} outs(%{{.+}} : tensor<1x1x8x32xf32>)
#big_in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>
#big_filter = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
#big_out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
func.func @conv_big_weights_dispatch(%input: tensor<1x10x10x64xf32>, %filter: tensor<3x3x64x512xf32>) -> tensor<1x8x8x512xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x8x512xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x8x8x512xf32>) -> tensor<1x8x8x512xf32>
  %conv = linalg.generic {indexing_maps = [#big_in, #big_filter, #big_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%input, %filter : tensor<1x10x10x64xf32>, tensor<3x3x64x512xf32>) outs(%fill : tensor<1x8x8x512xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x512xf32>
  return %conv : tensor<1x8x8x512xf32>
}

// -----

// A depthwise 3x3 convolution: with the window dims at 1 and dropped, no
// reduction is left and each step is an elementwise 8x32 multiply-add.
// CHECK-LABEL: func.func @depthwise_dispatch
// CHECK:         scf.forall (%{{.+}}, %{{.+}}, %{{.+}}) = (0, 0, 0) to (16, 64, 16) step (1, 32, 8)
// CHECK:           scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:             scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:               linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<1x1x8x32xf32>, tensor<1x1x32xf32>) outs(%{{.+}} : tensor<1x1x8x32xf32>)
// VEC-LABEL:   func.func @depthwise_dispatch
// VEC-NOT:       linalg.
// VEC:           vector.transfer_read {{.+}} : tensor<32xf32>, vector<32xf32>
// VEC:           %[[PRODUCT:.+]] = arith.mulf %{{.+}}, %{{.+}} : vector<8x32xf32>
// VEC:           arith.addf %{{.+}}, %[[PRODUCT]] : vector<8x32xf32>
// VEC-NOT:       linalg.
#dw_in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)>
#dw_filter = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>
#dw_out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
func.func @depthwise_dispatch(%input: tensor<1x18x18x64xf32>, %filter: tensor<3x3x64xf32>) -> tensor<1x16x16x64xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x16x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %conv = linalg.generic {indexing_maps = [#dw_in, #dw_filter, #dw_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%input, %filter : tensor<1x18x18x64xf32>, tensor<3x3x64xf32>) outs(%fill : tensor<1x16x16x64xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x16x64xf32>
  return %conv : tensor<1x16x16x64xf32>
}

// -----

// 262 columns have no divisor near 32 (262 = 2 x 131): the bias add is split
// at column 256 into a part of 32-wide tiles and a 6-wide remainder, and
// each part computes the matmul (and its fill) on its own columns only.
// CHECK-LABEL: func.func @split_remainder_dispatch
// CHECK:         scf.forall ({{.+}}) = (0, 0) to (256, 20) step (32, 5)
// CHECK:           linalg.fill {{.+}} -> tensor<5x32xf32>
// CHECK:           linalg.matmul {{.+}} outs({{.+}} : tensor<5x32xf32>)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<5x32xf32>)
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [20, 256] [1, 1]
// CHECK:         %[[TAIL:.+]] = scf.forall ({{.+}}) = (0) to (20) step (5)
// CHECK:           linalg.fill {{.+}} -> tensor<5x6xf32>
// CHECK:           linalg.matmul {{.+}} outs({{.+}} : tensor<5x6xf32>)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<5x6xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %[[HEAD]][0, 256] [20, 6] [1, 1]
// CHECK-NOT:     linalg.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d1)>
func.func @split_remainder_dispatch(%a: tensor<20x64xf32>, %b: tensor<64x262xf32>, %bias: tensor<262xf32>) -> tensor<20x262xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<20x262xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<20x262xf32>) -> tensor<20x262xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<20x64xf32>, tensor<64x262xf32>) outs(%fill : tensor<20x262xf32>) -> tensor<20x262xf32>
  %add = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<20x262xf32>, tensor<262xf32>) outs(%empty : tensor<20x262xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<20x262xf32>
  return %add : tensor<20x262xf32>
}

// -----

// 17 rows, prime: rather than 17 tiles of one row, 16 rows in tiles of 8
// and a one-row remainder. An elementwise dispatch's tiles go in row-major
// order.
// CHECK-LABEL: func.func @split_prime_rows_dispatch
// CHECK:         scf.forall ({{.+}}) = (0, 0) to (16, 64) step (8, 32)
// CHECK:           math.exp {{.+}} : f32
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [16, 64] [1, 1]
// CHECK:         %[[TAIL:.+]] = scf.forall ({{.+}}) = (0) to (64) step (32)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<1x32xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %[[HEAD]][16, 0] [1, 64] [1, 1]
#id17 = affine_map<(d0, d1) -> (d0, d1)>
func.func @split_prime_rows_dispatch(%x: tensor<17x64xf32>) -> tensor<17x64xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<17x64xf32>
  %exp = linalg.generic {indexing_maps = [#id17, #id17], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<17x64xf32>) outs(%empty : tensor<17x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<17x64xf32>
  return %exp : tensor<17x64xf32>
}

// -----

// 9 columns would get tiles of 3 (the largest divisor up to 8): with rows
// outside them, the op is split at column 8 instead, and the one-column
// remainder is tiled along the rows (3 at a time: 9 has no larger divisor
// up to 8, and the rows have no outer dim to split along).
// CHECK-LABEL: func.func @split_narrow_columns_dispatch
// CHECK:         scf.forall ({{.+}}) = (0, 0) to (9, 64) step (1, 32)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<1x8x32xf32>)
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0] [9, 8, 64] [1, 1, 1]
// CHECK:         %[[TAIL:.+]] = scf.forall ({{.+}}) = (0, 0) to (9, 64) step (3, 32)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<3x1x32xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %[[HEAD]][0, 8, 0] [9, 1, 64] [1, 1, 1]
#id9 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @split_narrow_columns_dispatch(%x: tensor<9x9x64xf32>) -> tensor<9x9x64xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<9x9x64xf32>
  %exp = linalg.generic {indexing_maps = [#id9, #id9], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<9x9x64xf32>) outs(%empty : tensor<9x9x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<9x9x64xf32>
  return %exp : tensor<9x9x64xf32>
}

// -----

// 40 columns are two 16-lane vectors and an 8-lane one, not 20-lane tiles
// (x86 has no such register): the bias add is split at column 32, and each
// part computes the matmul (and its fill) on its own columns only.
// CHECK-LABEL: func.func @split_vector_remainder_dispatch
// CHECK:         scf.forall ({{.+}}) = (0) to (16) step (8)
// CHECK:           linalg.fill {{.+}} -> tensor<8x32xf32>
// CHECK:           linalg.matmul {{.+}} outs({{.+}} : tensor<8x32xf32>)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<8x32xf32>)
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [16, 32] [1, 1]
// CHECK:         %[[TAIL:.+]] = scf.forall ({{.+}}) = (0) to (16) step (8)
// CHECK:           linalg.fill {{.+}} -> tensor<8x8xf32>
// CHECK:           linalg.matmul {{.+}} outs({{.+}} : tensor<8x8xf32>)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<8x8xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %[[HEAD]][0, 32] [16, 8] [1, 1]
// CHECK-NOT:     linalg.
#id40 = affine_map<(d0, d1) -> (d0, d1)>
#row40 = affine_map<(d0, d1) -> (d1)>
func.func @split_vector_remainder_dispatch(%a: tensor<16x64xf32>, %b: tensor<64x40xf32>, %bias: tensor<40xf32>) -> tensor<16x40xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x40xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<16x40xf32>) -> tensor<16x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x40xf32>) outs(%fill : tensor<16x40xf32>) -> tensor<16x40xf32>
  %add = linalg.generic {indexing_maps = [#id40, #row40, #id40], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<16x40xf32>, tensor<40xf32>) outs(%empty : tensor<16x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x40xf32>
  return %add : tensor<16x40xf32>
}

// -----

// 24 columns (within the 32-column target) are one tile whose reduction
// step is split into a 16-column and an 8-column matmul: both read the same
// 8x8 input slice and accumulate into their own columns of the tile, in
// steps of 8. The bias add runs once on the whole tile.
// CHECK-LABEL: func.func @split_vector_remainder_in_tile_dispatch
// CHECK:         scf.forall ({{.+}}) = (0) to (16) step (8)
// CHECK:           linalg.fill {{.+}} -> tensor<8x24xf32>
// CHECK:           scf.for {{.+}} = %c0 to %c64 step %c8 iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK:             %[[IN:.+]] = tensor.extract_slice %{{.+}} [8, 8] [1, 1] : tensor<8x64xf32> to tensor<8x8xf32>
// CHECK:             %[[HEAD_ACC:.+]] = tensor.extract_slice %[[ACC]][0, 0] [8, 16] [1, 1]
// CHECK:             %[[HEAD:.+]] = linalg.matmul ins(%[[IN]], %{{.+}} : tensor<8x8xf32>, tensor<8x16xf32>) outs(%[[HEAD_ACC]] : tensor<8x16xf32>)
// CHECK:             %[[WITH_HEAD:.+]] = tensor.insert_slice %[[HEAD]] into %[[ACC]][0, 0] [8, 16] [1, 1]
// CHECK:             %[[TAIL_ACC:.+]] = tensor.extract_slice %[[WITH_HEAD]][0, 16] [8, 8] [1, 1]
// CHECK:             %[[TAIL:.+]] = linalg.matmul ins(%[[IN]], %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>) outs(%[[TAIL_ACC]] : tensor<8x8xf32>)
// CHECK:             tensor.insert_slice %[[TAIL]] into %[[WITH_HEAD]][0, 16] [8, 8] [1, 1]
// CHECK:           linalg.generic {{.+}} outs(%{{.+}} : tensor<8x24xf32>)
// VEC-LABEL:   func.func @split_vector_remainder_in_tile_dispatch
// VEC:           %[[IN:.+]] = vector.transfer_read {{.+}} : tensor<8x8xf32>, vector<8x8xf32>
// VEC:           vector.contract {{.+}} %[[IN]], %{{.+}}, %{{.+}} : vector<8x8xf32>, vector<8x16xf32> into vector<8x16xf32>
// VEC:           vector.contract {{.+}} %[[IN]], %{{.+}}, %{{.+}} : vector<8x8xf32>, vector<8x8xf32> into vector<8x8xf32>
#id24 = affine_map<(d0, d1) -> (d0, d1)>
#row24 = affine_map<(d0, d1) -> (d1)>
func.func @split_vector_remainder_in_tile_dispatch(%a: tensor<16x64xf32>, %b: tensor<64x24xf32>, %bias: tensor<24xf32>) -> tensor<16x24xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x24xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<16x24xf32>) -> tensor<16x24xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x24xf32>) outs(%fill : tensor<16x24xf32>) -> tensor<16x24xf32>
  %add = linalg.generic {indexing_maps = [#id24, #row24, #id24], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<16x24xf32>, tensor<24xf32>) outs(%empty : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %add : tensor<16x24xf32>
}

// -----

// 144 columns (9 vectors of 16, not a multiple of two) go in tiles of three
// vectors rather than one, each reduction step split into a 32- and a
// 16-column contraction that read the same input slice.
// CHECK-LABEL: func.func @three_vector_tile_dispatch
// CHECK:         scf.forall ({{.+}}) = (0, 0) to (144, 16) step (48, 8)
// CHECK:           scf.for {{.+}} = %c0 to %c64 step %c8 iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK:             %[[IN:.+]] = tensor.extract_slice %{{.+}} [8, 8] [1, 1] : tensor<8x64xf32> to tensor<8x8xf32>
// CHECK:             linalg.matmul ins(%[[IN]], %{{.+}} : tensor<8x8xf32>, tensor<8x32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:             linalg.matmul ins(%[[IN]], %{{.+}} : tensor<8x8xf32>, tensor<8x16xf32>) outs(%{{.+}} : tensor<8x16xf32>)
func.func @three_vector_tile_dispatch(%a: tensor<16x64xf32>, %b: tensor<64x144xf32>) -> tensor<16x144xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x144xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<16x144xf32>) -> tensor<16x144xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x144xf32>) outs(%fill : tensor<16x144xf32>) -> tensor<16x144xf32>
  return %mm : tensor<16x144xf32>
}

// -----

// 80 columns (five vectors) are split after the first three: those go in
// one three-vector tile loop, split 32 + 16 inside the tile, the other
// two in tiles of two vectors.
// CHECK-LABEL: func.func @five_vector_columns_dispatch
// CHECK:         scf.forall ({{.+}}) = (0) to (16) step (8) {{.+}} -> (tensor<16x48xf32>)
// CHECK:           linalg.matmul {{.+}} outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:           linalg.matmul {{.+}} outs(%{{.+}} : tensor<8x16xf32>)
// CHECK:         scf.forall ({{.+}}) = (0) to (16) step (8) {{.+}} -> (tensor<16x32xf32>)
// CHECK:           linalg.matmul {{.+}} outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[0, 48] [16, 32] [1, 1]
func.func @five_vector_columns_dispatch(%a: tensor<16x64xf32>, %b: tensor<64x80xf32>) -> tensor<16x80xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x80xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<16x80xf32>) -> tensor<16x80xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x80xf32>) outs(%fill : tensor<16x80xf32>) -> tensor<16x80xf32>
  return %mm : tensor<16x80xf32>
}

// -----

// A matrix-vector product (a squeeze-excite reduction) has one row to
// share its broadcasts with: 48 columns keep tiles of one vector.
// CHECK-LABEL: func.func @one_row_48_columns_dispatch
// CHECK:         scf.forall ({{.+}}) = (0) to (48) step (16)
func.func @one_row_48_columns_dispatch(%a: tensor<64xf32>, %b: tensor<64x48xf32>) -> tensor<48xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<48xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<48xf32>) -> tensor<48xf32>
  %vm = linalg.vecmat ins(%a, %b : tensor<64xf32>, tensor<64x48xf32>) outs(%fill : tensor<48xf32>) -> tensor<48xf32>
  return %vm : tensor<48xf32>
}

// -----

// A depthwise convolution has no channel contraction to share broadcasts
// in: 48 channels keep tiles of one vector.
// CHECK-LABEL: func.func @depthwise_48_channels_dispatch
// CHECK:         scf.forall ({{.+}}) = (0, 0) to (4, 48) step (1, 16)
func.func @depthwise_48_channels_dispatch(%input: tensor<1x6x10x48xf32>, %filter: tensor<3x3x48xf32>) -> tensor<1x4x8x48xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x8x48xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x4x8x48xf32>) -> tensor<1x4x8x48xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%input, %filter : tensor<1x6x10x48xf32>, tensor<3x3x48xf32>) outs(%fill : tensor<1x4x8x48xf32>) -> tensor<1x4x8x48xf32>
  return %conv : tensor<1x4x8x48xf32>
}

// -----

// A contraction accumulating into its bias broadcast (a 1x1 convolution's
// bias as init), split at column 32: the tail's init is its slice of the
// broadcast, not of the head's result inserted into it, so each part
// broadcasts its own bias columns in its tiles; the head's result goes
// into an empty tensor, and no broadcast of the whole result runs first.
// CHECK-LABEL: func.func @split_bias_init_dispatch
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall ({{.+}}) = (0) to (16) step (8)
// CHECK:           linalg.generic {{.+}} ins(%{{.+}} : tensor<32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:           linalg.matmul {{.+}} outs({{.+}} : tensor<8x32xf32>)
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<16x40xf32>
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %[[EMPTY]][0, 0] [16, 32] [1, 1]
// CHECK:         %[[TAIL:.+]] = scf.forall ({{.+}}) = (0) to (16) step (8)
// CHECK:           linalg.generic {{.+}} ins(%{{.+}} : tensor<8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK:           linalg.matmul {{.+}} outs({{.+}} : tensor<8x8xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %[[HEAD]][0, 32] [16, 8] [1, 1]
// CHECK-NOT:     linalg.
#idb = affine_map<(d0, d1) -> (d0, d1)>
#rowb = affine_map<(d0, d1) -> (d1)>
func.func @split_bias_init_dispatch(%a: tensor<16x64xf32>, %b: tensor<64x40xf32>, %bias: tensor<40xf32>) -> tensor<16x40xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<16x40xf32>
  %init = linalg.generic {indexing_maps = [#rowb, #idb], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<40xf32>) outs(%empty : tensor<16x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<16x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x40xf32>) outs(%init : tensor<16x40xf32>) -> tensor<16x40xf32>
  return %mm : tensor<16x40xf32>
}

// -----

// A remainder that is no register of its own stays in the tiles: 49
// columns (seed 004's) go 7 at a time, not 48 and a one-column slice.
// CHECK-LABEL: func.func @ragged_remainder_stays_dispatch
// CHECK:         scf.forall ({{.+}}) = (0) to (49) step (7)
// CHECK:           linalg.generic {{.+}} outs({{.+}} : tensor<8x7xf32>)
// CHECK-NOT:     tensor.insert_slice
#id49 = affine_map<(d0, d1) -> (d0, d1)>
func.func @ragged_remainder_stays_dispatch(%x: tensor<8x49xf32>) -> tensor<8x49xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<8x49xf32>
  %exp = linalg.generic {indexing_maps = [#id49, #id49], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x49xf32>) outs(%empty : tensor<8x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<8x49xf32>
  return %exp : tensor<8x49xf32>
}

// -----

// A contraction's 34 columns would be tiles of 17 lanes, whose accumulators
// LLVM spills: the tiles of the transpose that reads it (an NCHW result)
// take 32 columns, then the 2 left, each part with its matmul.
// CHECK-LABEL: func.func @odd_width_contraction_dispatch
// CHECK:         linalg.matmul {{.+}} outs({{.+}} : tensor<8x32xf32>)
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [32, 8] [1, 1]
// CHECK:         linalg.matmul {{.+}} outs({{.+}} : tensor<8x2xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %[[HEAD]][32, 0] [2, 8] [1, 1]
#odd_id = affine_map<(d0, d1) -> (d0, d1)>
#odd_tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @odd_width_contraction_dispatch(%a: tensor<8x64xf32>, %b: tensor<64x34xf32>) -> tensor<34x8xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x34xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<8x34xf32>) -> tensor<8x34xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x34xf32>) outs(%fill : tensor<8x34xf32>) -> tensor<8x34xf32>
  %e2 = tensor.empty() : tensor<34x8xf32>
  %t = linalg.generic {indexing_maps = [#odd_id, #odd_tr], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<8x34xf32>) outs(%e2 : tensor<34x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<34x8xf32>
  return %t : tensor<34x8xf32>
}

// -----

// A split root whose filter is transposed: the one transpose (in 16x16
// blocks) serves both parts, the 16 full 8-row tiles and the 3-row rest.
// CHECK-LABEL: func.func @split_conv_dispatch
// CHECK:         %[[FILTER:.+]] = scf.for %{{.+}} = %c0 to %c32 step %c16
// CHECK:           linalg.transpose ins(%{{.+}} : tensor<16x1x1x16xf32>) outs(%{{.+}} : tensor<1x1x16x16xf32>)
// CHECK:         scf.forall (%{{.+}}) = (0) to (128) step (8)
// CHECK:           linalg.generic {{.+}} ins(%{{.+}}, %[[FILTER]] : tensor<1x1x8x16xf32>, tensor<1x1x16x32xf32>)
// CHECK:         %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [1, 1, 128, 32]
// CHECK:         %[[REST:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %[[FILTER]] : tensor<1x1x3x16xf32>, tensor<1x1x16x32xf32>)
// CHECK:         tensor.insert_slice %[[REST]] into %[[HEAD]][0, 0, 128, 0] [1, 1, 3, 32]
// VEC-LABEL:   func.func @split_conv_dispatch
// VEC:           vector.contract {{.+}} : vector<8x16xf32>, vector<16x32xf32> into vector<8x32xf32>
// VEC:           vector.contract {{.+}} : vector<3x16xf32>, vector<16x32xf32> into vector<3x32xf32>
#sc_in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>
#sc_filter = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
#sc_out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
func.func @split_conv_dispatch(%input: tensor<1x1x131x16xf32>, %filter: tensor<32x1x1x16xf32>) -> tensor<1x1x131x32xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x1x131x32xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x1x131x32xf32>) -> tensor<1x1x131x32xf32>
  %conv = linalg.generic {indexing_maps = [#sc_in, #sc_filter, #sc_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%input, %filter : tensor<1x1x131x16xf32>, tensor<32x1x1x16xf32>) outs(%fill : tensor<1x1x131x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x131x32xf32>
  return %conv : tensor<1x1x131x32xf32>
}

// -----

// Two results from one producer chain (aggressive fusion returns the bias
// add a later op also needs): the last op (ReLU) is tiled and the bias add,
// fused into its tiles, writes its tiles from the loop too, as a second
// shared output, instead of being computed whole outside the loop.
// CHECK-LABEL: func.func @chain_results_dispatch
// CHECK:         %[[LOOP:.+]]:2 = scf.forall (%[[J:.+]], %[[I:.+]]) = (0, 0) to (64, 16) step (32, 8) shared_outs(%[[RELU_OUT:.+]] = %{{.+}}, %[[ADD_OUT:.+]] = %{{.+}})
// CHECK:           linalg.fill
// CHECK:           linalg.matmul {{.+}} outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:           %[[ADD:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:           %[[RELU:.+]] = linalg.generic {{.+}} ins(%[[ADD]] : tensor<8x32xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-DAG:         tensor.parallel_insert_slice %[[RELU]] into %[[RELU_OUT]][%[[I]], %[[J]]] [8, 32]
// CHECK-DAG:         tensor.parallel_insert_slice %[[ADD]] into %[[ADD_OUT]][%[[I]], %[[J]]] [8, 32]
// CHECK:         return %[[LOOP]]#1, %[[LOOP]]#0
// CHECK-NOT:     linalg.
#ch_id = affine_map<(d0, d1) -> (d0, d1)>
#ch_row = affine_map<(d0, d1) -> (d1)>
func.func @chain_results_dispatch(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %bias: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%fill : tensor<16x64xf32>) -> tensor<16x64xf32>
  %add = linalg.generic {indexing_maps = [#ch_id, #ch_row, #ch_id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<16x64xf32>, tensor<64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %relu = linalg.generic {indexing_maps = [#ch_id, #ch_id], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<16x64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  return %add, %relu : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// BERT's LayerNorm under iree-O2: the centred input is returned next to its
// sum of squares (the reduction root). The root's tiles take 8 rows; the
// centred input is fused into them and, a 16-wide step at a time, into the
// reduction loop, from which it yields its 8x16 tiles (never materialized
// whole). Each step adds into an 8x16 partial sum, reduced across rows once
// after the loop (IREE's CPU reduction strategy).
// CHECK-LABEL: func.func @centred_variance_dispatch
// CHECK:         %[[LOOP:.+]]:2 = scf.forall (%[[I:.+]]) = (0) to (64) step (8) shared_outs(%[[SUM_OUT:.+]] = %{{.+}}, %[[CENTRED_OUT:.+]] = %{{.+}})
// CHECK:           %[[CENTRED_TILE:.+]] = tensor.extract_slice %[[CENTRED_OUT]][0, %[[I]], 0] [1, 8, 64]
// CHECK:           %[[INIT:.+]] = linalg.fill {{.+}} -> tensor<1x8xf32>
// CHECK:           %[[ZERO:.+]] = linalg.fill {{.+}} -> tensor<1x8x16xf32>
// CHECK:           %[[STEPS:.+]]:2 = scf.for %[[K:.+]] = %c0 to %c64 step %c16 iter_args(%[[PARTIAL:.+]] = %[[ZERO]], %[[CENTRED:.+]] = %[[CENTRED_TILE]])
// CHECK:             %[[SUB:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<1x8x16xf32>)
// CHECK:               arith.subf
// CHECK:             %[[SQUARES:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SUB]] : tensor<1x8x16xf32>) outs(%[[PARTIAL]] : tensor<1x8x16xf32>)
// CHECK:             %[[WRITTEN:.+]] = tensor.insert_slice %[[SUB]] into %[[CENTRED]][0, 0, %[[K]]] [1, 8, 16]
// CHECK:             scf.yield %[[SQUARES]], %[[WRITTEN]]
// CHECK:           %[[SUM:.+]] = linalg.reduce ins(%[[STEPS]]#0 : tensor<1x8x16xf32>) outs(%[[INIT]] : tensor<1x8xf32>) dimensions = [2]
// CHECK:           scf.forall.in_parallel
// CHECK-DAG:         tensor.parallel_insert_slice %[[SUM]] into %[[SUM_OUT]][0, %[[I]]] [1, 8]
// CHECK-DAG:         tensor.parallel_insert_slice %[[STEPS]]#1 into %[[CENTRED_OUT]][0, %[[I]], 0] [1, 8, 64]
// CHECK:         return %[[LOOP]]#1, %[[LOOP]]#0
// Vectorized, each step is elementwise on 8x16 vectors, the reduction
// across a row happens once per tile.
// VEC-LABEL:   func.func @centred_variance_dispatch
// VEC-NOT:       linalg.
// VEC:           scf.for {{.+}} -> (tensor<1x8x16xf32>, tensor<1x8x64xf32>)
// VEC:             %[[D:.+]] = arith.subf %{{.+}}, %{{.+}} : vector<8x16xf32>
// VEC:             vector.transfer_write %[[D]]
// VEC:             %[[SQ:.+]] = arith.mulf %[[D]], %[[D]] : vector<8x16xf32>
// VEC:             arith.addf %[[SQ]], %{{.+}} : vector<8x16xf32>
// VEC:           vector.multi_reduction <add>, %{{.+}}, %{{.+}} [2] : vector<1x8x16xf32> to vector<1x8xf32>
// VEC-NOT:       linalg.
#ln_id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ln_row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#ln_sum = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @centred_variance_dispatch(%x: tensor<1x64x64xf32>, %mean: tensor<1x64x1xf32>) -> (tensor<1x64x64xf32>, tensor<1x64xf32>) attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty_sum = tensor.empty() : tensor<1x64xf32>
  %empty = tensor.empty() : tensor<1x64x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty_sum : tensor<1x64xf32>) -> tensor<1x64xf32>
  %centred = linalg.generic {indexing_maps = [#ln_id, #ln_row, #ln_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x64x64xf32>, tensor<1x64x1xf32>) outs(%empty : tensor<1x64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<1x64x64xf32>
  %sum = linalg.generic {indexing_maps = [#ln_id, #ln_sum], iterator_types = ["parallel", "parallel", "reduction"]} ins(%centred : tensor<1x64x64xf32>) outs(%fill : tensor<1x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %centred, %sum : tensor<1x64x64xf32>, tensor<1x64xf32>
}

// -----

// A global pool over channels-last pixels, its bias fused and returned too
// (EfficientNet's squeeze): the reduced dim is not the one read innermost,
// so a tile takes 8 pixels and every channel (up to 512), and its loops
// step through the rows in memory order, 16 channels (one vector) at a time, adding
// each 8x16 slab into the tile's sums; no partial result to reduce across,
// no transposes.
// CHECK-LABEL: func.func @column_sum_dispatch
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (16) step (8)
// CHECK:           %[[INIT:.+]] = linalg.fill {{.+}} -> tensor<8x64xf32>
// CHECK:           scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c1 iter_args(%[[SUMS:.+]] = %[[INIT]], %{{.+}} = %{{.+}}) -> (tensor<8x64xf32>, tensor<16x8x64xf32>)
// CHECK:             scf.for %[[COL:.+]] = %{{.+}} to %c64 step %c16 iter_args(%[[SUM:.+]] = %[[SUMS]], %{{.+}} = %{{.+}}) -> (tensor<8x64xf32>, tensor<16x8x64xf32>)
// CHECK:               %[[SLAB:.+]] = tensor.extract_slice %{{.+}}[%[[ROW]], 0, %[[COL]]] [1, 8, 16]
// CHECK:               %[[BIASED:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %[[SLAB]] : tensor<16xf32>, tensor<1x8x16xf32>)
// CHECK:               %[[PART:.+]] = tensor.extract_slice %[[SUM]][0, %[[COL]]] [8, 16]
// CHECK:               linalg.generic {{.+}} ins(%[[BIASED]] : tensor<1x8x16xf32>) outs(%[[PART]] : tensor<8x16xf32>)
// CHECK-NOT:     linalg.reduce
// VEC-LABEL:   func.func @column_sum_dispatch
// VEC:           scf.for
// VEC:             scf.for
// VEC:               %[[B:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<8x16xf32>
// VEC:               arith.addf %[[B]], %{{.+}} : vector<8x16xf32>
// VEC-NOT:       vector.transpose
// VEC-NOT:       vector.multi_reduction
// VEC:           return
#cp_bias = affine_map<(d0, d1, d2) -> (d2)>
#cp_id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#cp_in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#cp_out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @column_sum_dispatch(%x: tensor<16x16x64xf32>, %b: tensor<64xf32>) -> (tensor<16x16x64xf32>, tensor<16x64xf32>) attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x16x64xf32>
  %biased = linalg.generic {indexing_maps = [#cp_bias, #cp_id, #cp_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b, %x : tensor<64xf32>, tensor<16x16x64xf32>) outs(%empty : tensor<16x16x64xf32>) {
  ^bb0(%in: f32, %v: f32, %o: f32):
    %s = arith.addf %in, %v : f32
    linalg.yield %s : f32
  } -> tensor<16x16x64xf32>
  %empty_sum = tensor.empty() : tensor<16x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty_sum : tensor<16x64xf32>) -> tensor<16x64xf32>
  %sum = linalg.generic {indexing_maps = [#cp_in, #cp_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%biased : tensor<16x16x64xf32>) outs(%fill : tensor<16x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %biased, %sum : tensor<16x16x64xf32>, tensor<16x64xf32>
}


// -----

// The same pool alone (a single-result dispatch): the same tiles and loop
// order.
// CHECK-LABEL: func.func @column_sum_alone
// CHECK:         scf.forall (%{{.+}}) = (0) to (16) step (8)
// CHECK:           scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c1
// CHECK:             scf.for %[[COL:.+]] = %{{.+}} to %c64 step %c16
// CHECK:               tensor.extract_slice %{{.+}}[%[[ROW]], 0, %[[COL]]] [1, 8, 16]
#ca_in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#ca_out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @column_sum_alone(%x: tensor<16x16x64xf32>) -> tensor<16x64xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty_sum = tensor.empty() : tensor<16x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty_sum : tensor<16x64xf32>) -> tensor<16x64xf32>
  %sum = linalg.generic {indexing_maps = [#ca_in, #ca_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<16x16x64xf32>) outs(%fill : tensor<16x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %sum : tensor<16x64xf32>
}

// -----

// A softmax's normalization as the dispatch's last op, its row sum fused
// into it: the rows' dim is not tiled (each tile takes 8 whole rows), so
// each row's sum is computed once rather than once per 32-column tile. The
// sum adds 16-wide steps into 8x16 partial sums, reduced across once after
// its loop; the normalization, wider than a vector tile, then goes 16
// columns at a time.
// CHECK-LABEL: func.func @normalize_after_sum_dispatch
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (64) step (8)
// CHECK:           %[[ROWS:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0] [8, 128] [1, 1]
// CHECK:           %[[PARTIAL:.+]] = scf.for {{.+}} step %c16 {{.+}} -> (tensor<8x16xf32>)
// CHECK:           %[[SUM:.+]] = linalg.reduce ins(%[[PARTIAL]] : tensor<8x16xf32>) outs({{.+}} : tensor<8xf32>) dimensions = [1]
// CHECK:           scf.for {{.+}} step %c16 {{.+}} -> (tensor<8x128xf32>)
// CHECK:             %[[STEP:.+]] = tensor.extract_slice %[[ROWS]][0, %{{.+}}] [8, 16] [1, 1]
// CHECK:             linalg.generic {{.+}} ins(%[[STEP]], %[[SUM]] : tensor<8x16xf32>, tensor<8xf32>)
// CHECK:               arith.divf
// CHECK-NOT:     scf.forall (
#sm_id = affine_map<(d0, d1) -> (d0, d1)>
#sm_row = affine_map<(d0, d1) -> (d0)>
func.func @normalize_after_sum_dispatch(%x: tensor<64x128xf32>) -> tensor<64x128xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty_sum = tensor.empty() : tensor<64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty_sum : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#sm_id, #sm_row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf32>) outs(%fill : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %empty = tensor.empty() : tensor<64x128xf32>
  %norm = linalg.generic {indexing_maps = [#sm_id, #sm_row, #sm_id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%empty : tensor<64x128xf32>) {
  ^bb0(%in: f32, %total: f32, %o: f32):
    %q = arith.divf %in, %total : f32
    linalg.yield %q : f32
  } -> tensor<64x128xf32>
  return %norm : tensor<64x128xf32>
}

// -----

// A softmax's exp feeds both its row sum and the normalization: it is
// computed once, 16 columns at a time, and the sum's loop reads its result
// rather than recomputing the exp in its steps.
// CHECK-LABEL: func.func @shared_exp_dispatch
// CHECK:         scf.forall
// CHECK:           %[[EXP:.+]] = scf.for {{.+}} step %c16 {{.+}} -> (tensor<8x128xf32>)
// CHECK:             math.exp
// CHECK:           scf.for {{.+}} step %c16 {{.+}} -> (tensor<8x16xf32>)
// CHECK:             tensor.extract_slice %[[EXP]]
// CHECK-NOT:         math.exp
// CHECK:           linalg.reduce
// CHECK-NOT:       math.exp
// CHECK:         return
#se_id = affine_map<(d0, d1) -> (d0, d1)>
#se_row = affine_map<(d0, d1) -> (d0)>
func.func @shared_exp_dispatch(%x: tensor<64x128xf32>) -> tensor<64x128xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x128xf32>
  %exp = linalg.generic {indexing_maps = [#se_id, #se_id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf32>) outs(%empty : tensor<64x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<64x128xf32>
  %empty_sum = tensor.empty() : tensor<64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty_sum : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#se_id, #se_row], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<64x128xf32>) outs(%fill : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %norm = linalg.generic {indexing_maps = [#se_id, #se_row, #se_id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%empty : tensor<64x128xf32>) {
  ^bb0(%in: f32, %total: f32, %o: f32):
    %q = arith.divf %in, %total : f32
    linalg.yield %q : f32
  } -> tensor<64x128xf32>
  return %norm : tensor<64x128xf32>
}

// -----

// Sibling results (--horizontal-contractions: several consumers of one
// matmul, each returned): the shared matmul, which has reduction loops, is
// tiled first on its own and computed once; each consumer then gets its
// own loop, recomputing the cheap shared bias add in its tiles.
// CHECK-LABEL: func.func @sibling_results_dispatch
// CHECK:         %[[MM:.+]] = scf.forall
// CHECK:           linalg.fill
// CHECK:           linalg.matmul
// CHECK-NOT:       linalg.generic
// CHECK:         %[[EXP:.+]] = scf.forall
// CHECK:           tensor.extract_slice %[[MM]]
// CHECK:           %[[ADD1:.+]] = linalg.generic
// CHECK:           linalg.generic {{.+}} ins(%[[ADD1]] : tensor<8x32xf32>)
// CHECK:             math.exp
// CHECK:         %[[NEG:.+]] = scf.forall
// CHECK:           tensor.extract_slice %[[MM]]
// CHECK:           %[[ADD2:.+]] = linalg.generic
// CHECK:           linalg.generic {{.+}} ins(%[[ADD2]] : tensor<8x32xf32>)
// CHECK:             arith.negf
// CHECK:         return %[[EXP]], %[[NEG]]
// CHECK-NOT:     linalg.
#sib_id = affine_map<(d0, d1) -> (d0, d1)>
#sib_row = affine_map<(d0, d1) -> (d1)>
func.func @sibling_results_dispatch(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %bias: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%fill : tensor<16x64xf32>) -> tensor<16x64xf32>
  %add = linalg.generic {indexing_maps = [#sib_id, #sib_row, #sib_id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<16x64xf32>, tensor<64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %exp = linalg.generic {indexing_maps = [#sib_id, #sib_id], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<16x64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<16x64xf32>
  %neg = linalg.generic {indexing_maps = [#sib_id, #sib_id], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<16x64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16x64xf32>
  return %exp, %neg : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// A returned producer read through a broadcast: the consumer's tiles would
// each write the same producer tile, so it is not fused; it gets a tile
// loop of its own first, whose result the consumer's loop reads.
// CHECK-LABEL: func.func @broadcast_result_dispatch
// CHECK:         %[[SCALE:.+]] = scf.forall (%{{.+}}) = (0) to (64) step (32)
// CHECK:           arith.mulf
// CHECK:         %[[OUT:.+]] = scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (16, 64) step (8, 32)
// CHECK:           tensor.extract_slice %[[SCALE]]
// CHECK-NOT:       arith.mulf
// CHECK:           arith.addf
// CHECK:         return %[[SCALE]], %[[OUT]]
// CHECK-NOT:     linalg.
#bc_id = affine_map<(d0, d1) -> (d0, d1)>
#bc_row = affine_map<(d0, d1) -> (d1)>
#bc_1d = affine_map<(d0) -> (d0)>
func.func @broadcast_result_dispatch(%x: tensor<16x64xf32>, %w: tensor<64xf32>) -> (tensor<64xf32>, tensor<16x64xf32>) attributes {dispatchlab.dispatch} {
  %two = arith.constant 2.0 : f32
  %empty_w = tensor.empty() : tensor<64xf32>
  %empty = tensor.empty() : tensor<16x64xf32>
  %scale = linalg.generic {indexing_maps = [#bc_1d, #bc_1d], iterator_types = ["parallel"]} ins(%w : tensor<64xf32>) outs(%empty_w : tensor<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#bc_id, #bc_row, #bc_id], iterator_types = ["parallel", "parallel"]} ins(%x, %scale : tensor<16x64xf32>, tensor<64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %a = arith.addf %in, %s : f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  return %scale, %out : tensor<64xf32>, tensor<16x64xf32>
}

// -----

// A reduction whose combiner has no neutral element (a compare-and-select
// max) cannot start partial results: with a returned producer it keeps the
// full reduction, the producer still fused into its loop.
// CHECK-LABEL: func.func @select_reduction_dispatch
// CHECK:         scf.for {{.+}} iter_args({{.+}}) -> (tensor<16xf32>, tensor<16x64xf32>)
// CHECK:           linalg.generic {{.+}} outs(%{{.+}} : tensor<16x16xf32>)
// CHECK:             arith.negf
// CHECK:           linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<16x16xf32>) outs(%{{.+}} : tensor<16xf32>)
// CHECK:             arith.select
// CHECK-NOT:     linalg.reduce
// VEC-LABEL:   func.func @select_reduction_dispatch
#sel_id = affine_map<(d0, d1) -> (d0, d1)>
#sel_row = affine_map<(d0, d1) -> (d0)>
func.func @select_reduction_dispatch(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %empty_max = tensor.empty() : tensor<16xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty_max : tensor<16xf32>) -> tensor<16xf32>
  %neg = linalg.generic {indexing_maps = [#sel_id, #sel_id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %max = linalg.generic {indexing_maps = [#sel_id, #sel_row], iterator_types = ["parallel", "reduction"]} ins(%neg : tensor<16x64xf32>) outs(%fill : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %c = arith.cmpf ogt, %a, %acc : f32
    %v = arith.select %c, %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  return %neg, %max : tensor<16x64xf32>, tensor<16xf32>
}

// -----

// A depthwise convolution's channel multiplier is a unit dim innermost:
// unit dims take no tile target, so a tile covers 8 output columns x 32
// channels (the targets go to ow and c), not one pixel x 8 channels.
// CHECK-LABEL: func.func @depthwise_unit_multiplier_dispatch
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (4, 64) step (1, 32)
// CHECK:           linalg.fill {{.+}} -> tensor<1x1x8x32x1xf32>
#dw_in5 = affine_map<(n, oh, ow, c, m, kh, kw) -> (n, oh + kh, ow + kw, c)>
#dw_filter5 = affine_map<(n, oh, ow, c, m, kh, kw) -> (kh, kw, c, m)>
#dw_out5 = affine_map<(n, oh, ow, c, m, kh, kw) -> (n, oh, ow, c, m)>
func.func @depthwise_unit_multiplier_dispatch(%input: tensor<1x6x10x64xf32>, %filter: tensor<3x3x64x1xf32>) -> tensor<1x4x8x64x1xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x8x64x1xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4x8x64x1xf32>) -> tensor<1x4x8x64x1xf32>
  %conv = linalg.generic {indexing_maps = [#dw_in5, #dw_filter5, #dw_out5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%input, %filter : tensor<1x6x10x64xf32>, tensor<3x3x64x1xf32>) outs(%fill : tensor<1x4x8x64x1xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8x64x1xf32>
  return %conv : tensor<1x4x8x64x1xf32>
}

// -----

// 144 channels: the innermost tile is the largest multiple of 16 (one
// AVX-512 vector) dividing them, 16, rather than the largest divisor up to
// 32, 24 (a full vector and a half-empty one).
// CHECK-LABEL: func.func @vector_width_tiles_dispatch
// CHECK:         scf.forall (%{{.+}}) = (0) to (144) step (16)
// CHECK:           linalg.generic {{.+}} outs(%{{.+}} : tensor<8x16xf32>)
#vw_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @vector_width_tiles_dispatch(%x: tensor<8x144xf32>) -> tensor<8x144xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x144xf32>
  %r = linalg.generic {indexing_maps = [#vw_id, #vw_id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x144xf32>) outs(%e : tensor<8x144xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x144xf32>
  return %r : tensor<8x144xf32>
}

// -----

// An op with a loop of extent 0 (here a matmul's reduction: its result is
// the fill) is left untiled, its loops running zero times; the upstream
// tiling helpers divide by the extent and crashed on it.
// CHECK-LABEL: func.func @empty_reduction_dispatch
// CHECK-NOT:     scf.forall
// CHECK:         linalg.matmul {{.+}} -> tensor<2x5xf32>
// VEC-LABEL: func.func @empty_reduction_dispatch
func.func @empty_reduction_dispatch(%lhs: tensor<2x0xf32>, %rhs: tensor<0x5xf32>) -> tensor<2x5xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x5xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<2x5xf32>) -> tensor<2x5xf32>
  %mm = linalg.matmul ins(%lhs, %rhs : tensor<2x0xf32>, tensor<0x5xf32>) outs(%fill : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %mm : tensor<2x5xf32>
}

// -----

// A copy interleaving 3 planes into its output's innermost dim (an NCHW
// image into NHWC) takes tiles of all 3 planes, one row and one vector of
// columns: each tile reads a vector from every plane and writes 48
// contiguous floats.
// CHECK-LABEL: func.func @interleave_planes
// CHECK:         scf.forall (%[[R:.+]], %[[C:.+]]) = (0, 0) to (4, 32) step (1, 16)
// CHECK:           tensor.extract_slice %{{.+}}[0, %[[R]], %[[C]]] [3, 1, 16] [1, 1, 1]
// CHECK:           tensor.extract_slice %{{.+}}[%[[R]], %[[C]], 0] [1, 16, 3] [1, 1, 1]
// VEC-LABEL:   func.func @interleave_planes
// VEC:           vector.transfer_read {{.+}} : tensor<3x16xf32>, vector<3x16xf32>
// VEC:           vector.transpose %{{.+}}, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
// VEC:           vector.transfer_write {{.+}} : vector<16x3xf32>, tensor<16x3xf32>
#il_in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#il_out = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
func.func @interleave_planes(%x: tensor<3x4x32xf32>) -> tensor<4x32x3xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<4x32x3xf32>
  %t = linalg.generic {indexing_maps = [#il_in, #il_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<3x4x32xf32>) outs(%empty : tensor<4x32x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x32x3xf32>
  return %t : tensor<4x32x3xf32>
}

// -----

// The same permutation with as many planes as a vector has lanes, and a
// bias (BERT's key transpose): square blocks of one vector along the
// output's innermost dim and one along the input's, so each tile reads 16
// rows of 16 floats and writes 16 rows of 16 floats through a register
// transpose.
// CHECK-LABEL: func.func @transpose_square_blocks
// CHECK:         scf.forall (%[[R:.+]], %[[C:.+]]) = (0, 0) to (4, 32) step (1, 16)
// CHECK:           tensor.extract_slice %{{.+}}[%[[R]], %[[C]]] [1, 16] [1, 1]
// CHECK:           tensor.extract_slice %{{.+}}[0, %[[R]], %[[C]]] [16, 1, 16] [1, 1, 1]
// CHECK:           tensor.extract_slice %{{.+}}[%[[R]], %[[C]], 0] [1, 16, 16] [1, 1, 1]
// VEC-LABEL:   func.func @transpose_square_blocks
// VEC:           vector.transfer_read {{.+}} : tensor<16x16xf32>, vector<16x16xf32>
// VEC:           vector.transpose %{{.+}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// VEC:           vector.transfer_write {{.+}} : vector<16x16xf32>, tensor<16x16xf32>
#tb_bias = affine_map<(d0, d1, d2) -> (d1, d2)>
#tb_in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tb_out = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
func.func @transpose_square_blocks(%b: tensor<4x32xf32>, %x: tensor<16x4x32xf32>) -> tensor<4x32x16xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<4x32x16xf32>
  %t = linalg.generic {indexing_maps = [#tb_bias, #tb_in, #tb_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b, %x : tensor<4x32xf32>, tensor<16x4x32xf32>) outs(%empty : tensor<4x32x16xf32>) {
  ^bb0(%bias: f32, %in: f32, %o: f32):
    %s = arith.addf %bias, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x32x16xf32>
  return %t : tensor<4x32x16xf32>
}

// -----

// A permutation whose output's innermost dim (24) is no multiple of a
// vector: no square blocks, the default tiles (up to 8 x 32 along the
// innermost two loops, the planes' loop by 1).
// CHECK-LABEL: func.func @transpose_ragged_blocks
// CHECK:         scf.forall (%[[P:.+]]) in (24)
// CHECK:           tensor.extract_slice %{{.+}}[%[[P]], 0, 0] [1, 4, 32] [1, 1, 1]
#tr_in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr_out = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
func.func @transpose_ragged_blocks(%x: tensor<24x4x32xf32>) -> tensor<4x32x24xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<4x32x24xf32>
  %t = linalg.generic {indexing_maps = [#tr_in, #tr_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<24x4x32xf32>) outs(%empty : tensor<4x32x24xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x32x24xf32>
  return %t : tensor<4x32x24xf32>
}

// -----

// A permutation of a fused producer's result (a matmul's 3x64 written out
// as 64x3) is no copy of memory: the default tiles, which the matmul's
// register tiles follow.
// CHECK-LABEL: func.func @permute_fused_result
// CHECK:         scf.forall (%[[N:.+]]) = (0) to (64) step (8)
// CHECK:           linalg.matmul {{.+}} -> tensor<3x8xf32>
#pf_in = affine_map<(d0, d1) -> (d1, d0)>
#pf_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @permute_fused_result(%a: tensor<3x8xf32>, %b: tensor<8x64xf32>) -> tensor<64x3xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x64xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<3x64xf32>) -> tensor<3x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<3x8xf32>, tensor<8x64xf32>) outs(%fill : tensor<3x64xf32>) -> tensor<3x64xf32>
  %empty_t = tensor.empty() : tensor<64x3xf32>
  %t = linalg.generic {indexing_maps = [#pf_in, #pf_out], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<3x64xf32>) outs(%empty_t : tensor<64x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<64x3xf32>
  return %t : tensor<64x3xf32>
}

// -----

// An elementwise product summed down columns (x * sigmoid(x) summed over
// pixels: EfficientNet's last pool, which upstream's matcher calls a
// batch_matmul with no M and N) is a column reduction: the tiles and row
// steps of @column_sum_alone, with the sigmoid fused into each step.
// CHECK-LABEL: func.func @column_product_dispatch
// CHECK:         scf.forall (%{{.+}}) = (0) to (16) step (8)
// CHECK:           scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c1
// CHECK:             scf.for %[[COL:.+]] = %{{.+}} to %c64 step %c16
// CHECK:               %[[SLAB:.+]] = tensor.extract_slice %{{.+}}[%[[ROW]], 0, %[[COL]]] [1, 8, 16]
// CHECK:               %[[SIG:.+]] = linalg.generic {{.+}} ins(%[[SLAB]] : tensor<1x8x16xf32>)
// CHECK:                 math.exp
// CHECK:               linalg.generic {{.+}} ins(%{{.+}}, %[[SIG]] : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%{{.+}} : tensor<8x16xf32>)
#cq_id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#cq_in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#cq_out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @column_product_dispatch(%x: tensor<16x16x64xf32>) -> tensor<16x64xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<16x16x64xf32>
  %sig = linalg.generic {indexing_maps = [#cq_id, #cq_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<16x16x64xf32>) outs(%empty : tensor<16x16x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<16x16x64xf32>
  %empty_sum = tensor.empty() : tensor<16x64xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty_sum : tensor<16x64xf32>) -> tensor<16x64xf32>
  %sum = linalg.generic {indexing_maps = [#cq_in, #cq_in, #cq_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %sig : tensor<16x16x64xf32>, tensor<16x16x64xf32>) outs(%fill : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %sum : tensor<16x64xf32>
}

// -----

// A dispatch copying an argument into a padded tensor's interior gets one
// tile loop over blocks of 8 rows of the copied tensor (24 = 3 x 8), each
// written at its offset in the interior.
// CHECK-LABEL: func.func @copy_into_padding
// CHECK-SAME:    (%[[SRC:.+]]: tensor<1x24x5x3xf32>, %[[DEST:.+]]: tensor<1x26x7x3xf32>)
// CHECK:         scf.forall (%[[R:.+]]) = (0) to (24) step (8) shared_outs(%[[OUT:.+]] = %[[DEST]])
// CHECK:           %[[ROWS:.+]] = tensor.extract_slice %[[SRC]][0, %[[R]], 0, 0] [1, 8, 5, 3] [1, 1, 1, 1]
// CHECK:           %[[AT:.+]] = affine.apply #{{.+}}()[%[[R]]]
// CHECK:           tensor.parallel_insert_slice %[[ROWS]] into %[[OUT]][0, %[[AT]], 1, 0] [1, 8, 5, 3] [1, 1, 1, 1]
func.func @copy_into_padding(%src: tensor<1x24x5x3xf32>, %dest: tensor<1x26x7x3xf32>) -> tensor<1x26x7x3xf32> attributes {dispatchlab.dispatch} {
  %copied = tensor.insert_slice %src into %dest[0, 1, 1, 0] [1, 24, 5, 3] [1, 1, 1, 1] : tensor<1x24x5x3xf32> into tensor<1x26x7x3xf32>
  return %copied : tensor<1x26x7x3xf32>
}

// -----

// A body extracting elements (an embedding lookup) takes one row per tile,
// two vectors wide: a row index computed from the outer loops is then one
// value for the whole tile (a contiguous read; factor_repeated_gathers.mlir
// has one). A token id read from an input still counts as varying to the
// vectorizer, but it gathers from one row, not 8 at once.
// CHECK-LABEL: func.func @row_lookup_dispatch
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (16, 64) step (1, 32)
// VEC-LABEL: func.func @row_lookup_dispatch
// VEC:           vector.gather %{{.+}} : tensor<100x64xf32>, vector<32xindex>, vector<32xi1>, vector<32xf32> into vector<32xf32>
#rl_ids = affine_map<(d0, d1) -> (d0)>
#rl_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_lookup_dispatch(%ids: tensor<16xindex>, %table: tensor<100x64xf32>) -> tensor<16x64xf32> attributes {dispatchlab.dispatch} {
  %empty = tensor.empty() : tensor<16x64xf32>
  %rows = linalg.generic {indexing_maps = [#rl_ids, #rl_out], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<16xindex>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%id: index, %o: f32):
    %d = linalg.index 1 : index
    %e = tensor.extract %table[%id, %d] : tensor<100x64xf32>
    linalg.yield %e : f32
  } -> tensor<16x64xf32>
  return %rows : tensor<16x64xf32>
}

// -----

// Not when a contraction is fused into the tiles (MobileBERT's embedding
// projection with the position and type lookups added after it): the
// matmul keeps its 8 x 32 register tiles.
// CHECK-LABEL: func.func @lookup_after_matmul_dispatch
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (64, 16) step (32, 8)
// CHECK:           linalg.matmul {{.+}} -> tensor<8x32xf32>
#lm = affine_map<(d0, d1) -> (d0, d1)>
func.func @lookup_after_matmul_dispatch(%lhs: tensor<16x16xf32>, %rhs: tensor<16x64xf32>, %pos: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {dispatchlab.dispatch} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%lhs, %rhs : tensor<16x16xf32>, tensor<16x64xf32>) outs(%fill : tensor<16x64xf32>) -> tensor<16x64xf32>
  %sum = linalg.generic {indexing_maps = [#lm, #lm], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x64xf32>) outs(%empty : tensor<16x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %p = tensor.extract %pos[%i, %j] : tensor<16x64xf32>
    %s = arith.addf %in, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %sum : tensor<16x64xf32>
}

// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-skip-padding-taps,canonicalize,cse))' | FileCheck %s

// A 3x3 convolution tile with dilation 4 over an input zero outside rows and
// columns [4, 8): the channel loop has iterations only for a tap whose 1x2
// slice meets the interior. The tap loops keep theirs, since the slice
// moves with them; the channel dim is not padded, so the channel offset is
// not tested.
// CHECK-LABEL: func.func @tap_loops
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         scf.for %[[KH:.+]] = {{.+}} iter_args(%[[ACC_H:.+]] =
// CHECK:           scf.for %[[KW:.+]] = {{.+}} iter_args(%[[ACC_W:.+]] =
// CHECK:             %[[ROW:.+]] = affine.apply #{{.+}}(%[[KH]])[%[[OH:.+]]]
// CHECK:             %[[GE_ROW:.+]] = arith.cmpi sge, %[[ROW]], %[[C4]]
// CHECK:             %[[LT_ROW:.+]] = arith.cmpi slt, %[[ROW]], %[[C8]]
// CHECK:             %[[IN_ROWS:.+]] = arith.andi %[[GE_ROW]], %[[LT_ROW]]
// CHECK:             %[[COL:.+]] = affine.apply #{{.+}}(%[[KW]])[%[[OW:.+]]]
// CHECK:             %[[LAST:.+]] = arith.addi %[[COL]], %{{.+}} : index
// CHECK:             %[[GE_COL:.+]] = arith.cmpi sge, %[[LAST]], %[[C4]]
// CHECK:             %[[LT_COL:.+]] = arith.cmpi slt, %[[COL]], %[[C8]]
// CHECK:             %[[IN_COLS:.+]] = arith.andi %[[GE_COL]], %[[LT_COL]]
// CHECK:             %[[MEETS:.+]] = arith.andi %[[IN_ROWS]], %[[IN_COLS]]
// CHECK:             %[[END:.+]] = arith.select %[[MEETS]], %[[C16:.+]], %[[C0:.+]] : index
// CHECK:             %[[SUM:.+]] = scf.for %{{.+}} = %[[C0]] to %[[END]] step %[[C4]] iter_args(%{{.+}} = %[[ACC_W]])
// CHECK:               linalg.generic
// CHECK:             scf.yield %[[SUM]]
#input = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>
#output = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
func.func @tap_loops(%x: tensor<12x12x16xf32> {dispatchlab.zero_padded_interior = array<i64: 4, 4, 0, 4, 4, 16>},
                     %w: tensor<3x3x16x8xf32>, %init: tensor<1x2x8xf32>,
                     %oh: index, %ow: index) -> tensor<1x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %window = tensor.extract_slice %x[%oh, %ow, 0] [9, 10, 16] [1, 1, 1] : tensor<12x12x16xf32> to tensor<9x10x16xf32>
  %0 = scf.for %kh = %c0 to %c3 step %c1 iter_args(%acc_h = %init) -> (tensor<1x2x8xf32>) {
    %1 = scf.for %kw = %c0 to %c3 step %c1 iter_args(%acc_w = %acc_h) -> (tensor<1x2x8xf32>) {
      %2 = scf.for %c = %c0 to %c16 step %c4 iter_args(%acc = %acc_w) -> (tensor<1x2x8xf32>) {
        %row = affine.apply affine_map<(d0) -> (d0 * 4)>(%kh)
        %col = affine.apply affine_map<(d0) -> (d0 * 4)>(%kw)
        %in = tensor.extract_slice %window[%row, %col, %c] [1, 2, 4] [1, 1, 1] : tensor<9x10x16xf32> to tensor<1x2x4xf32>
        %f = tensor.extract_slice %w[%kh, %kw, %c, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<3x3x16x8xf32> to tensor<1x1x4x8xf32>
        %3 = linalg.generic {indexing_maps = [#input, #filter, #output], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%in, %f : tensor<1x2x4xf32>, tensor<1x1x4x8xf32>) outs(%acc : tensor<1x2x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x2x8xf32>
        scf.yield %3 : tensor<1x2x8xf32>
      }
      scf.yield %2 : tensor<1x2x8xf32>
    }
    scf.yield %1 : tensor<1x2x8xf32>
  }
  return %0 : tensor<1x2x8xf32>
}

// -----

// The same tile over an 8x8 map padded by one: most of the input is
// interior, so few slices miss it, and testing every tile's loop bound
// cost more than the skipped taps saved (ResNet-50's 3x3 convolutions).
// Left alone.
// CHECK-LABEL: func.func @mostly_interior
// CHECK:         %[[C16:.+]] = arith.constant 16 : index
// CHECK-NOT:     arith.select
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C16]] step
// CHECK:           linalg.generic
#input = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>
#filter = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>
#output = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
func.func @mostly_interior(%x: tensor<10x10x16xf32> {dispatchlab.zero_padded_interior = array<i64: 1, 1, 0, 8, 8, 16>},
                           %w: tensor<3x3x16x8xf32>, %init: tensor<1x2x8xf32>,
                           %oh: index, %ow: index) -> tensor<1x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %window = tensor.extract_slice %x[%oh, %ow, 0] [3, 4, 16] [1, 1, 1] : tensor<10x10x16xf32> to tensor<3x4x16xf32>
  %0 = scf.for %kh = %c0 to %c3 step %c1 iter_args(%acc_h = %init) -> (tensor<1x2x8xf32>) {
    %1 = scf.for %kw = %c0 to %c3 step %c1 iter_args(%acc_w = %acc_h) -> (tensor<1x2x8xf32>) {
      %2 = scf.for %c = %c0 to %c16 step %c4 iter_args(%acc = %acc_w) -> (tensor<1x2x8xf32>) {
        %in = tensor.extract_slice %window[%kh, %kw, %c] [1, 2, 4] [1, 1, 1] : tensor<3x4x16xf32> to tensor<1x2x4xf32>
        %f = tensor.extract_slice %w[%kh, %kw, %c, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<3x3x16x8xf32> to tensor<1x1x4x8xf32>
        %3 = linalg.generic {indexing_maps = [#input, #filter, #output], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%in, %f : tensor<1x2x4xf32>, tensor<1x1x4x8xf32>) outs(%acc : tensor<1x2x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x2x8xf32>
        scf.yield %3 : tensor<1x2x8xf32>
      }
      scf.yield %2 : tensor<1x2x8xf32>
    }
    scf.yield %1 : tensor<1x2x8xf32>
  }
  return %0 : tensor<1x2x8xf32>
}

// -----

// A slice at constant offsets that misses the interior, read by a generic
// in no loop: left alone (only a loop's bound is changed).
// CHECK-LABEL: func.func @outside_interior
// CHECK-NOT:     scf.if
// CHECK:         linalg.generic
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#res = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @outside_interior(%x: tensor<8x4xf32> {dispatchlab.zero_padded_interior = array<i64: 2, 0, 4, 4>},
                            %w: tensor<4x8xf32>, %init: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %rows = tensor.extract_slice %x[6, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #res], iterator_types = ["parallel", "parallel", "reduction"]} ins(%rows, %w : tensor<2x4xf32>, tensor<4x8xf32>) outs(%init : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %b, %a : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A maximum over the padding is not the init: a pooling window's column
// loop keeps its iterations, even outside the interior.
// CHECK-LABEL: func.func @max_over_padding
// CHECK-NOT:     arith.select
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C4:.+]] step
// CHECK:           linalg.generic
#in = affine_map<(d0, d1, d2) -> (d0, d2)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @max_over_padding(%x: tensor<8x4xf32> {dispatchlab.zero_padded_interior = array<i64: 2, 0, 4, 4>},
                            %init: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = scf.for %c = %c0 to %c4 step %c2 iter_args(%acc = %init) -> (tensor<2x4xf32>) {
    %rows = tensor.extract_slice %x[6, %c] [2, 2] [1, 1] : tensor<8x4xf32> to tensor<2x2xf32>
    %1 = linalg.generic {indexing_maps = [#in, #acc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%rows : tensor<2x2xf32>) outs(%acc : tensor<2x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.maximumf %a, %o : f32
      linalg.yield %m : f32
    } -> tensor<2x4xf32>
    scf.yield %1 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

// A loop that carries more than the accumulator is not given fewer
// iterations, and the generic in it is left alone.
// CHECK-LABEL: func.func @loop_carries_more
// CHECK-NOT:     arith.select
// CHECK-NOT:     scf.if
func.func @loop_carries_more(%x: tensor<8x4xf32> {dispatchlab.zero_padded_interior = array<i64: 2, 0, 4, 4>},
                             %w: tensor<4x8xf32>, %init: tensor<2x8xf32>,
                             %row: index) -> (tensor<2x8xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %init, %n = %c0) -> (tensor<2x8xf32>, index) {
    %rows = tensor.extract_slice %x[%row, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%rows, %w : tensor<2x4xf32>, tensor<4x8xf32>) outs(%acc : tensor<2x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<2x8xf32>
    %next = arith.addi %n, %c1 : index
    scf.yield %1, %next : tensor<2x8xf32>, index
  }
  return %0#0, %0#1 : tensor<2x8xf32>, index
}

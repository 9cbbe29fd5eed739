// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fusion-preprocessing))' | FileCheck %s

// An elementwise generic whose inputs all read through the same transpose is
// interchanged: the inputs become identity reads, the output map takes the
// transpose.
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @permuted_inputs
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[T]]]
func.func @permuted_inputs(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#t, #t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Inputs read through different maps: no single interchange makes them all
// identity, so the op is left alone.
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @mixed_input_maps
// CHECK:         linalg.generic {indexing_maps = [#[[T]], #[[ID]], #[[ID]]]
func.func @mixed_input_maps(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#t, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A reduction is not elementwise: its loops stay as they are.
// CHECK-LABEL: func.func @reduction_untouched
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]}
func.func @reduction_untouched(%a: tensor<8x4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A value padded twice with the same fill value becomes one insert_slice
// into the outer fill, at the summed offsets (1+2, 2+2).
// CHECK-LABEL: func.func @nested_fill_insert_slice
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<4x4xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill {{.+}} -> tensor<12x12xf32>
// CHECK:         %[[R:.+]] = tensor.insert_slice %[[A]] into %[[FILL]][3, 4] [4, 4] [1, 1]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[R]]
func.func @nested_fill_insert_slice(%a: tensor<4x4xf32>) -> tensor<12x12xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %i0 = tensor.insert_slice %a into %f0[1, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<12x12xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<12x12xf32>) -> tensor<12x12xf32>
  %i1 = tensor.insert_slice %i0 into %f1[2, 2] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<12x12xf32>
  return %i1 : tensor<12x12xf32>
}

// -----

// The two fills use different values: the inner padding is not the outer
// one, so both slices stay.
// CHECK-LABEL: func.func @different_fill_values
// CHECK:         tensor.insert_slice
// CHECK:         tensor.insert_slice
func.func @different_fill_values(%a: tensor<4x4xf32>) -> tensor<12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %i0 = tensor.insert_slice %a into %f0[1, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<12x12xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e1 : tensor<12x12xf32>) -> tensor<12x12xf32>
  %i1 = tensor.insert_slice %i0 into %f1[2, 2] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<12x12xf32>
  return %i1 : tensor<12x12xf32>
}

// -----

// A strided inner slice cannot be re-expressed with summed offsets (IREE
// only checks the outer slice's strides).
// CHECK-LABEL: func.func @strided_inner_slice
// CHECK:         tensor.insert_slice {{.+}} [4, 4] [2, 1]
// CHECK:         tensor.insert_slice
func.func @strided_inner_slice(%a: tensor<4x4xf32>) -> tensor<12x12xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %i0 = tensor.insert_slice %a into %f0[0, 2] [4, 4] [2, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<12x12xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<12x12xf32>) -> tensor<12x12xf32>
  %i1 = tensor.insert_slice %i0 into %f1[2, 2] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<12x12xf32>
  return %i1 : tensor<12x12xf32>
}

// -----

// tensor.dim of an op result is answered from the op's operands.
// CHECK-LABEL: func.func @resolve_result_dims
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x4xf32>
// CHECK:         %[[D:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x4xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[D]]
func.func @resolve_result_dims(%a: tensor<?x4xf32>) -> index {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d) : tensor<?x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<?x4xf32>
  %r = tensor.dim %0, %c0 : tensor<?x4xf32>
  return %r : index
}

// -----

// A pad feeding a pack folds into the pack's padding value (upstream's
// pack/unpack folds, as in IREE).
// CHECK-LABEL: func.func @pad_into_pack
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<15x15xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.pack %[[A]] padding_value(%{{.+}} : f32)
func.func @pad_into_pack(%a: tensor<15x15xf32>) -> tensor<2x2x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<15x15xf32> to tensor<16x16xf32>
  %e = tensor.empty() : tensor<2x2x8x8xf32>
  %k = linalg.pack %p inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %k : tensor<2x2x8x8xf32>
}

// -----

// A slice of an unpack's result folds into the unpack.
// CHECK-LABEL: func.func @slice_into_unpack
// CHECK:         %[[U:.+]] = linalg.unpack {{.+}} -> tensor<15x15xf32>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[U]]
func.func @slice_into_unpack(%a: tensor<2x2x8x8xf32>) -> tensor<15x15xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %u = linalg.unpack %a inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<2x2x8x8xf32> -> tensor<16x16xf32>
  %s = tensor.extract_slice %u[0, 0] [15, 15] [1, 1] : tensor<16x16xf32> to tensor<15x15xf32>
  return %s : tensor<15x15xf32>
}

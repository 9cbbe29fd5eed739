// A malformed `iree_linalg_ext.split_reduction` is an error at the op, not a
// crash: it must list one positive integer per reduction loop.
// RUN: dispatchlab-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(dispatchlab-form-split-reduction-dispatches))'

func.func @too_many_sizes(%arg0: tensor<4x1024xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.split_reduction' must list one positive integer per reduction loop (1)}}
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"],
      iree_linalg_ext.split_reduction = [128, 64]}
      ins(%arg0 : tensor<4x1024xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

// -----

func.func @not_an_integer(%arg0: tensor<4x1024xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.split_reduction' must list one positive integer per reduction loop (1)}}
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"],
      iree_linalg_ext.split_reduction = "128"}
      ins(%arg0 : tensor<4x1024xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

// -----

func.func @zero_size(%arg0: tensor<4x1024xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.split_reduction' must list one positive integer per reduction loop (1)}}
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"],
      iree_linalg_ext.split_reduction = [0]}
      ins(%arg0 : tensor<4x1024xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

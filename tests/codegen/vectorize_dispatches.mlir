// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-vectorize-dispatches))' | FileCheck %s

// A tile reading its input at computed indices (a bilinear resize's
// neighbours, as TOSA lowers Resize) becomes one vector.gather per read,
// as under IREE's CPU vectorization (vectorizeGatherAccesses), not scalar
// loops.
// CHECK-LABEL: func.func @resize_tile_dispatch
// CHECK-NOT:     linalg.generic
// CHECK:         vector.gather {{.+}} : tensor<17x17xf32>, vector<8x32xindex>, vector<8x32xi1>, vector<8x32xf32> into vector<8x32xf32>
// CHECK:         vector.transfer_write {{.+}} : vector<8x32xf32>, tensor<8x32xf32>
func.func @resize_tile_dispatch(%in: tensor<17x17xf32>, %out: tensor<8x32xf32>) -> tensor<8x32xf32> attributes {dispatchlab.dispatch} {
  %c16 = arith.constant 16 : index
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%out : tensor<8x32xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.divui %i, %c16 : index
    %c = arith.divui %j, %c16 : index
    %v = tensor.extract %in[%r, %c] : tensor<17x17xf32>
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// One row picked by a loaded index and read along the innermost loop (an
// embedding lookup's tile of one token) is contiguous: a plain vector read.
// A tile of several rows gathers, as it does in IREE.
// CHECK-LABEL: func.func @embedding_row_dispatch
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     vector.gather
// CHECK:         vector.transfer_read %{{.+}} : tensor<100x64xf32>, vector<64xf32>
func.func @embedding_row_dispatch(%table: tensor<100x64xf32>, %ids: tensor<1xi64>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%out : tensor<64xf32>) {
  ^bb0(%o: f32):
    %id = tensor.extract %ids[%c0] : tensor<1xi64>
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 0 : index
    %v = tensor.extract %table[%row, %col] : tensor<100x64xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fill-padding-borders))' | FileCheck %s

// A pad the dispatch writes the interior of: only the four border slabs of
// the 6x6 are filled (rows 0 and 5 whole, columns 0 and 5 of rows 1-4),
// into a new tensor the dispatch then inserts into. The dispatch records
// that its result is zero outside the interior.
// CHECK-LABEL: func.func @pad_border
// CHECK:         %[[ALLOC:.+]] = bufferization.alloc_tensor() : tensor<6x6x8xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[ALLOC]][0, 0, 0] [1, 6, 8] [1, 1, 1]
// CHECK:         %[[F0:.+]] = linalg.fill ins(%[[ZERO:.+]] : f32) outs(%[[S0]] : tensor<1x6x8xf32>)
// CHECK:         %[[B0:.+]] = tensor.insert_slice %[[F0]] into %[[ALLOC]][0, 0, 0] [1, 6, 8] [1, 1, 1]
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[B0]][5, 0, 0] [1, 6, 8] [1, 1, 1]
// CHECK:         %[[F1:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S1]] : tensor<1x6x8xf32>)
// CHECK:         %[[B1:.+]] = tensor.insert_slice %[[F1]] into %[[B0]][5, 0, 0] [1, 6, 8] [1, 1, 1]
// CHECK:         %[[S2:.+]] = tensor.extract_slice %[[B1]][1, 0, 0] [4, 1, 8] [1, 1, 1]
// CHECK:         %[[B2:.+]] = tensor.insert_slice %{{.+}} into %[[B1]][1, 0, 0] [4, 1, 8] [1, 1, 1]
// CHECK:         %[[B3:.+]] = tensor.insert_slice %{{.+}} into %[[B2]][1, 5, 0] [4, 1, 8] [1, 1, 1]
// CHECK-NOT:     linalg.fill
// CHECK:         dispatch.region
// CHECK:           tensor.insert_slice %{{.+}} into %[[B3]][1, 1, 0] [4, 4, 8] [1, 1, 1]
// CHECK:         } {dispatchlab.zero_padded_results = [array<i64: 1, 1, 0, 4, 4, 8>]}
func.func @pad_border(%x: tensor<4x4x8xf32>) -> tensor<6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x6x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<6x6x8xf32>) -> tensor<6x6x8xf32>
  %0 = dispatch.region -> (tensor<6x6x8xf32>) {
    %inserted = tensor.insert_slice %x into %fill[1, 1, 0] [4, 4, 8] [1, 1, 1] : tensor<4x4x8xf32> into tensor<6x6x8xf32>
    dispatch.return %inserted : tensor<6x6x8xf32>
  }
  return %0 : tensor<6x6x8xf32>
}

// -----

// One fill two pads share (CSE merges equal fills): each gets a border of
// its own, so that bufferization does not copy a shared one.
// CHECK-LABEL: func.func @shared_fill
// CHECK:         %[[A:.+]] = bufferization.alloc_tensor() : tensor<4x8xf32>
// CHECK:         %[[BA:.+]] = tensor.insert_slice %{{.+}} into %[[A]][0, 0] [1, 8] [1, 1]
// CHECK:         %[[B:.+]] = bufferization.alloc_tensor() : tensor<4x8xf32>
// CHECK:         %[[BB:.+]] = tensor.insert_slice %{{.+}} into %[[B]][0, 0] [1, 8] [1, 1]
// CHECK:         tensor.insert_slice %{{.+}} into %[[BA]][1, 0] [3, 8]
// CHECK:         tensor.insert_slice %{{.+}} into %[[BB]][1, 0] [3, 8]
// CHECK-NOT:     linalg.fill
func.func @shared_fill(%x: tensor<3x8xf32>, %y: tensor<3x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = dispatch.region -> (tensor<4x8xf32>) {
    %inserted = tensor.insert_slice %x into %fill[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %inserted : tensor<4x8xf32>
  }
  %1 = dispatch.region -> (tensor<4x8xf32>) {
    %inserted = tensor.insert_slice %y into %fill[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %inserted : tensor<4x8xf32>
  }
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A fill read other than as an insert's destination keeps its interior
// value: it stays whole.
// CHECK-LABEL: func.func @fill_also_read
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK-NOT:     bufferization.alloc_tensor
func.func @fill_also_read(%x: tensor<3x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = dispatch.region -> (tensor<4x8xf32>) {
    %inserted = tensor.insert_slice %x into %fill[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %inserted : tensor<4x8xf32>
  }
  return %0, %fill : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A strided insert leaves gaps inside its span: the fill stays whole.
// CHECK-LABEL: func.func @strided_insert
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK-NOT:     bufferization.alloc_tensor
func.func @strided_insert(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = dispatch.region -> (tensor<8x8xf32>) {
    %inserted = tensor.insert_slice %x into %fill[0, 0] [4, 8] [2, 1] : tensor<4x8xf32> into tensor<8x8xf32>
    dispatch.return %inserted : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

// A fill in a dispatch is the dispatch's to compute: left alone.
// CHECK-LABEL: func.func @fill_in_dispatch
// CHECK:         dispatch.region
// CHECK:           linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK-NOT:     bufferization.alloc_tensor
func.func @fill_in_dispatch(%x: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %0 = dispatch.region -> (tensor<4x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<4x8xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
    %inserted = tensor.insert_slice %x into %fill[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %inserted : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A border of ones is filled but not recorded: only a zero border adds
// nothing to a product. The dispatch's second result is no insert.
// CHECK-LABEL: func.func @ones_border
// CHECK:         bufferization.alloc_tensor
// CHECK:         dispatch.region
// CHECK-NOT:     dispatchlab.zero_padded_results
// CHECK-LABEL: func.func @second_result
// CHECK:         } {dispatchlab.zero_padded_results = [array<i64>, array<i64: 1, 0, 3, 8>]}
func.func @ones_border(%x: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%one : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = dispatch.region -> (tensor<4x8xf32>) {
    %inserted = tensor.insert_slice %x into %fill[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %inserted : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
func.func @second_result(%x: tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0:2 = dispatch.region -> (tensor<3x8xf32>, tensor<4x8xf32>) {
    %inserted = tensor.insert_slice %x into %fill[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %x, %inserted : tensor<3x8xf32>, tensor<4x8xf32>
  }
  return %0#0, %0#1 : tensor<3x8xf32>, tensor<4x8xf32>
}

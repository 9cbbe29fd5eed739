// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-form-copy-dispatches))' | FileCheck %s

// Full inner dims, any outer offset and size: a contiguous DMA copy.
// CHECK-LABEL: func.func @contiguous_extract
// CHECK-NOT:     dispatch.region
// CHECK:         tensor.extract_slice
// CHECK-NOT:     dispatch.region
func.func @contiguous_extract(%a: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %0 = tensor.extract_slice %a[3, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A partial inner dim under an outer dim of size > 1 is strided memory.
// CHECK-LABEL: func.func @strided_extract
// CHECK:         %[[R:.+]] = dispatch.region -> (tensor<4x2xf32>) {
// CHECK:           tensor.extract_slice
// CHECK:           dispatch.return
// CHECK:         } {dispatchlab.kind = "copy"}
// CHECK:         return %[[R]]
func.func @strided_extract(%a: tensor<16x8xf32>) -> tensor<4x2xf32> {
  %0 = tensor.extract_slice %a[3, 1] [4, 2] [1, 1] : tensor<16x8xf32> to tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A partial inner dim is fine when every outer size is 1.
// CHECK-LABEL: func.func @row_piece_insert
// CHECK-NOT:     dispatch.region
func.func @row_piece_insert(%a: tensor<1x1x4xf32>, %d: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = tensor.insert_slice %a into %d[1, 2, 3] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// Non-unit strides and offsets read from tensor data both force a dispatch.
// CHECK-LABEL: func.func @stride_and_device_offset
// CHECK:         dispatch.region
// CHECK:           tensor.insert_slice
// CHECK:         } {dispatchlab.kind = "copy"}
// CHECK:         tensor.extract %
// CHECK:         dispatch.region
// CHECK:           tensor.extract_slice
// CHECK:         } {dispatchlab.kind = "copy"}
func.func @stride_and_device_offset(%a: tensor<4xf32>, %d: tensor<16xf32>, %idx: tensor<i64>) -> (tensor<16xf32>, tensor<4xf32>) {
  %0 = tensor.insert_slice %a into %d[0] [4] [2] : tensor<4xf32> into tensor<16xf32>
  %i = tensor.extract %idx[] : tensor<i64>
  %o = arith.index_cast %i : i64 to index
  %1 = tensor.extract_slice %d[%o] [4] [1] : tensor<16xf32> to tensor<4xf32>
  return %0, %1 : tensor<16xf32>, tensor<4xf32>
}

// -----

// A dynamic full dim (`tensor.dim` of the base) still counts as full.
// CHECK-LABEL: func.func @dynamic_full_dim
// CHECK-NOT:     dispatch.region
func.func @dynamic_full_dim(%a: tensor<16x?xf32>) -> tensor<4x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<16x?xf32>
  %0 = tensor.extract_slice %a[2, 0] [4, %n] [1, 1] : tensor<16x?xf32> to tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// Slices already inside a dispatch are not wrapped again.
// CHECK-LABEL: func.func @inside_dispatch
// CHECK-COUNT-1: dispatch.region
// CHECK-NOT:     dispatch.region
func.func @inside_dispatch(%a: tensor<16x8xf32>) -> tensor<4x2xf32> {
  %r = dispatch.region -> (tensor<4x2xf32>) {
    %0 = tensor.extract_slice %a[3, 1] [4, 2] [1, 1] : tensor<16x8xf32> to tensor<4x2xf32>
    dispatch.return %0 : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// IREE's ConvertTensorToFlow clones an insert's cloneable producers into its
// dispatch: a strided extract_slice feeding a strided insert_slice is one
// copy dispatch, and the extract left without a use is gone.
// CHECK-LABEL: func.func @extract_into_insert
// CHECK-NOT:     tensor.extract_slice
// CHECK:         %[[R:.+]] = dispatch.region -> (tensor<16x8xf32>) {
// CHECK:           %[[S:.+]] = tensor.extract_slice
// CHECK:           tensor.insert_slice %[[S]]
// CHECK:         } {dispatchlab.kind = "copy"}
// CHECK-NOT:     dispatch.region
// CHECK:         return %[[R]]
func.func @extract_into_insert(%a: tensor<16x8xf32>, %d: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = tensor.extract_slice %a[0, 1] [4, 2] [1, 1] : tensor<16x8xf32> to tensor<4x2xf32>
  %1 = tensor.insert_slice %0 into %d[2, 3] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// An extract that has another use stays, in a copy dispatch of its own.
// CHECK-LABEL: func.func @extract_with_other_use
// CHECK:         %[[E:.+]] = dispatch.region
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      dispatch.return
// CHECK:         } {dispatchlab.kind = "copy"}
// CHECK:         %[[I:.+]] = dispatch.region
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      tensor.insert_slice
// CHECK:         } {dispatchlab.kind = "copy"}
// CHECK:         return %[[I]], %[[E]]
func.func @extract_with_other_use(%a: tensor<16x8xf32>, %d: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x2xf32>) {
  %0 = tensor.extract_slice %a[0, 1] [4, 2] [1, 1] : tensor<16x8xf32> to tensor<4x2xf32>
  %1 = tensor.insert_slice %0 into %d[2, 3] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<16x8xf32>
  return %1, %0 : tensor<16x8xf32>, tensor<4x2xf32>
}

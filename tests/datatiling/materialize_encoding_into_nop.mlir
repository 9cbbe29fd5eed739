// dispatchlab-materialize-encoding-into-nop (IREE's MaterializeEncodingIntoNop):
// encodings are dropped, set_encoding and unset_encoding forward their
// source, and the encoded matmul computes on plain tensors again.
//
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-materialize-encoding-into-nop)' | FileCheck %s

// CHECK-LABEL: func.func @encoded_matmul
//   CHECK-NOT:   iree_encoding
//       CHECK:   dispatch.region -> (tensor<4x16xf32>)
//       CHECK:     %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
//       CHECK:     %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<4x16xf32>)
//       CHECK:     %[[MM:.+]] = linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>)
//       CHECK:     dispatch.return %[[MM]] : tensor<4x16xf32>
//   CHECK-NOT:   iree_encoding
#a = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>
#b = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32]>
#c = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32]>
func.func @encoded_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %ea = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #a>
  %eb = iree_encoding.set_encoding %b : tensor<8x16xf32> -> tensor<8x16xf32, #b>
  %r = dispatch.region -> (tensor<4x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x16xf32, #c>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32, #c>) -> tensor<4x16xf32, #c>
    %mm = linalg.matmul ins(%ea, %eb : tensor<4x8xf32, #a>, tensor<8x16xf32, #b>)
        outs(%f : tensor<4x16xf32, #c>) -> tensor<4x16xf32, #c>
    %u = iree_encoding.unset_encoding %mm : tensor<4x16xf32, #c> -> tensor<4x16xf32>
    dispatch.return %u : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

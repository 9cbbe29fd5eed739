// dispatchlab-set-encoding (IREE's SetEncoding, generic strategy): a hinted
// contraction is rewritten in its dispatch on encoded operands.
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(dispatchlab-set-encoding))' \
// RUN:   | FileCheck %s

// Each input gets a set_encoding with its operand index; the fill init
// becomes a fill of an encoded empty (IREE's FoldFillWithSetEncoding); the
// result is unset. The encoding carries the element types, the op's maps
// and its loop ranges; the hint is gone.
// CHECK-DAG: #[[LHSMAP:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHSMAP:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[OUTMAP:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[LHS:.+]] = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#[[LHSMAP]], #[[RHSMAP]], #[[OUTMAP]]], iteration_sizes = [4, 16, 8]>
// CHECK-DAG: #[[RHS:.+]] = #iree_encoding.encoding<operand_index = 1 : index, {{.+}}, iteration_sizes = [4, 16, 8]>
// CHECK-DAG: #[[OUT:.+]] = #iree_encoding.encoding<operand_index = 2 : index, {{.+}}, iteration_sizes = [4, 16, 8]>
// CHECK-LABEL: func.func @fill_init
//       CHECK:   dispatch.region
//       CHECK:     %[[ZERO:.+]] = arith.constant 0.0
//   CHECK-NOT:     linalg.fill
//       CHECK:     %[[A:.+]] = iree_encoding.set_encoding %{{.+}} : tensor<4x8xf32> -> tensor<4x8xf32, #[[LHS]]>
//       CHECK:     %[[B:.+]] = iree_encoding.set_encoding %{{.+}} : tensor<16x8xf32> -> tensor<16x8xf32, #[[RHS]]>
//       CHECK:     %[[E:.+]] = tensor.empty() : tensor<4x16xf32, #[[OUT]]>
//       CHECK:     %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4x16xf32, #[[OUT]]>)
//       CHECK:     %[[MM:.+]] = linalg.matmul indexing_maps = {{.+}} ins(%[[A]], %[[B]] : {{.+}}) outs(%[[F]] : tensor<4x16xf32, #[[OUT]]>)
//       CHECK:     %[[R:.+]] = iree_encoding.unset_encoding %[[MM]] : tensor<4x16xf32, #[[OUT]]> -> tensor<4x16xf32>
//       CHECK:     dispatch.return %[[R]]
//   CHECK-NOT:   dispatchlab.data_tiling_hint
func.func @fill_init(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %r = dispatch.region -> (tensor<4x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %mm = linalg.matmul
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>] {dispatchlab.data_tiling_hint}
        ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
    dispatch.return %mm : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// -----

// An init that is not a fill is encoded like an input; mixed element types
// are listed as the operands have them; a dynamic loop range is `?`, and
// the unset_encoding takes the init's dynamic size.
// CHECK-DAG: #[[OUT:.+]] = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [i8, i8, i32], {{.+}}, iteration_sizes = [?, 16, 8]>
// CHECK-LABEL: func.func @computed_init
//       CHECK:   %[[C:.+]] = iree_encoding.set_encoding %{{.+}} : tensor<?x16xi32> -> tensor<?x16xi32, #[[OUT]]>
//       CHECK:   %[[MM:.+]] = linalg.matmul {{.+}} outs(%[[C]] : tensor<?x16xi32, #[[OUT]]>)
//       CHECK:   iree_encoding.unset_encoding %[[MM]] : tensor<?x16xi32, #[[OUT]]> -> tensor<?x16xi32>{%{{.+}}}
func.func @computed_init(%a: tensor<?x8xi8>, %b: tensor<8x16xi8>, %c: tensor<?x16xi32>) -> tensor<?x16xi32> {
  %mm = linalg.matmul {dispatchlab.data_tiling_hint}
      ins(%a, %b : tensor<?x8xi8>, tensor<8x16xi8>) outs(%c : tensor<?x16xi32>) -> tensor<?x16xi32>
  return %mm : tensor<?x16xi32>
}

// -----

// Without a hint nothing changes.
// CHECK-LABEL: func.func @no_hint
//   CHECK-NOT:   iree_encoding
func.func @no_hint(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}

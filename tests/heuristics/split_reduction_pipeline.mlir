// The full pipeline runs FormSplitReductionDispatches after the multi-use
// elementwise fusion, as IREE's does: the split op is one dispatch (the
// partial-reduction loop), the merge of its partial results a second one.
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-dispatch-creation)' | FileCheck %s

// CHECK-LABEL: func.func @split_by_tiling
// CHECK:         %[[PARTIAL:.+]] = dispatch.region -> (tensor<?x1024xf32>)
// CHECK:           scf.forall
// CHECK:         %[[MERGED:.+]] = dispatch.region -> (tensor<?xf32>)
// CHECK:           linalg.fill
// CHECK:           linalg.reduce ins(%[[PARTIAL]] : tensor<?x1024xf32>)
// CHECK-NOT:     dispatch.region
// CHECK:         return %[[MERGED]]
func.func @split_by_tiling(%arg0: tensor<?x131072xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %d0 = tensor.dim %arg0, %c0 : tensor<?x131072xf32>
  %empty = tensor.empty(%d0) : tensor<?xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"],
      iree_linalg_ext.split_reduction = [128]}
      ins(%arg0 : tensor<?x131072xf32>) outs(%fill : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<?xf32>
  return %sum : tensor<?xf32>
}

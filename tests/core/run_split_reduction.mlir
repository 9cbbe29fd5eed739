// `dispatchlab run` on a model marked for split reduction: the partial
// reduction loop and the merge are two dispatches, both lowered in either
// codegen mode, and the result matches the same model without the mark
// (one unsplit reduction dispatch) on the same inputs.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -e 's/, iree_linalg_ext.split_reduction = \[128\]//' %s > %t/unsplit.mlir
// RUN: dispatchlab run %t/unsplit.mlir --emit=json --output-dir=%t/ref | FileCheck %s --check-prefix=UNSPLIT
// RUN: dispatchlab run %s --emit=json --expected-output=result0=%t/ref/result0.npy | FileCheck %s --check-prefix=SPLIT --implicit-check-not='"passed": false'
// RUN: dispatchlab run %s --emit=json --codegen=loops --expected-output=result0=%t/ref/result0.npy | FileCheck %s --check-prefix=SPLIT --implicit-check-not='"passed": false'
//
// UNSPLIT: "dispatches": 1,
// SPLIT: "against": "expected-output"
// SPLIT: "passed": true
// SPLIT: "dispatches": 2,

func.func @sum_rows(%arg0: tensor<4x1024xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"], iree_linalg_ext.split_reduction = [128]}
      ins(%arg0 : tensor<4x1024xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

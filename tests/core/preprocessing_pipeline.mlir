// A function's #util.preprocessing_pipeline parses, and compile warns that
// it is not run (IREE would run it before dispatch creation), then forms
// dispatches as usual.
//
// RUN: dispatchlab compile %s --emit=stats 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// WARN: preprocessing_pipeline.mlir:[[@LINE+3]]:1: warning: preprocessing pipeline 'iree-preprocessing-make-single-dispatch' is not run by dispatchlab
// CHECK: "dispatches": 1

util.func public @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {
    preprocessing_pipeline = #util.preprocessing_pipeline<"iree-preprocessing-make-single-dispatch">} {
  %e = tensor.empty() : tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  util.return %neg : tensor<4xf32>
}

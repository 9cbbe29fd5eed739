// `run` calls the model with denormals flushed to zero, on the calling
// thread and on the task workers, as IREE's workers run dispatches
// (core/support/FlushDenormals.h): 1e-39 is a denormal, read as zero, so
// every product is 0 in the reference and in the compiled model, whose
// 65536 elements (512 KB in and out) are split over two threads.

// RUN: dispatchlab run %s --repetitions 1 --emit=json | FileCheck %s
// RUN: dispatchlab run %s --threads 2 --repetitions 1 --emit=json | FileCheck %s

// CHECK: "max_abs_diff": 0,
// CHECK: "max_abs_reference": 0,
// CHECK: "passed": true

func.func @main(%x: tensor<65536xf32>) -> tensor<65536xf32> {
  %tiny = arith.constant dense<1.0e-39> : tensor<65536xf32>
  %e = tensor.empty() : tensor<65536xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %tiny : tensor<65536xf32>, tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<65536xf32>
  return %0 : tensor<65536xf32>
}

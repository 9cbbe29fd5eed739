// A padded copy of an input (a tensor.pad: a fill of the border and a
// dispatch copying the input into the interior) is tiled into blocks of
// rows, spread over threads with --threads 2. The outputs must equal the
// scalar-loops reference exactly, on one thread and on two.

// RUN: dispatchlab run %s --repetitions 1 --emit=json | FileCheck %s
// RUN: dispatchlab run %s --threads 2 --repetitions 1 --emit=json | FileCheck %s
// RUN: dispatchlab compile %s --emit=dispatch-ir | FileCheck %s --check-prefix=FORMED

// FORMED:      dispatch.region
// FORMED:        tensor.insert_slice %{{.+}} into %{{.+}}[1, 1, 0] [40, 24, 3]
// FORMED:      } {dispatchlab.kind = "copy"}

// CHECK: "max_abs_diff": 0,
// CHECK: "passed": true

func.func @main(%x: tensor<1x40x24x3xf32>) -> tensor<1x42x26x3xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x40x24x3xf32> to tensor<1x42x26x3xf32>
  return %padded : tensor<1x42x26x3xf32>
}

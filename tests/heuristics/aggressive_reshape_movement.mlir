// The aggressive-reshape-movement knob (IREE's pipeline option of that
// name, off by default and in every preset): BubbleUpExpandShapes also sinks
// a collapse_shape through a reduction generic, so the transpose before it
// and the reduction meet: elementwise fusion folds the transpose into the
// reduction, which reads the input directly, in one dispatch.
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{preset=iree-O2})' | FileCheck %s --check-prefix=OFF
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{preset=iree-O2 aggressive-reshape-movement=true})' | FileCheck %s --check-prefix=ON

// OFF-LABEL: func.func @transpose_collapse_reduce
// OFF:         %[[T:.+]] = dispatch.region
// OFF:         tensor.collapse_shape %[[T]]
// OFF:         dispatch.region
// OFF-NOT:     dispatch.region

// ON-LABEL: func.func @transpose_collapse_reduce
// ON-SAME:     %[[ARG0:[a-z0-9]+]]:
// ON-NOT:      tensor.collapse_shape
// ON:          dispatch.region
// ON:            linalg.generic
// ON-SAME:         iterator_types = ["parallel", "reduction", "reduction"]
// ON-SAME:         ins(%[[ARG0]] : tensor<3x8x6xf32>)
// ON-NOT:      dispatch.region
func.func @transpose_collapse_reduce(%arg0: tensor<3x8x6xf32>) -> tensor<8xf32> {
  %e0 = tensor.empty() : tensor<3x6x8xf32>
  %t = linalg.transpose ins(%arg0 : tensor<3x8x6xf32>) outs(%e0 : tensor<3x6x8xf32>) permutation = [0, 2, 1]
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<3x6x8xf32> into tensor<18x8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<18x8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %add = arith.addf %in, %out : f32
    linalg.yield %add : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

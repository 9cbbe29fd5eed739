// RUN: dispatchlab-opt %s --split-input-file --dispatchlab-hoist-parameter-packing | FileCheck %s

// A dispatch's transpose of a weight moves into the initializer; the host
// takes the packed weight as a new argument and passes it instead.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8xf32>, %[[PACKED:.+]]: tensor<8x16xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul ins(%[[X]], %[[PACKED]] :
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%[[W:.+]]: tensor<16x8xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<8x16xf32>
// CHECK-SAME:    dispatchlab.initializer_of = @host
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[W]] : tensor<16x8xf32>)
// CHECK:         return %[[T]]
// CHECK-LABEL: func.func @host
// CHECK-SAME:    %[[HOST_PACKED:[^:]+]]: tensor<8x16xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}
// CHECK:         call @host_dispatch_0(%{{.+}}, %[[HOST_PACKED]])
func.func private @host_dispatch_0(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %t : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
func.func @host(%x: tensor<4x8xf32>, %w: tensor<16x8xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<4x16xf32> {
  %y = call @host_dispatch_0(%x, %w) : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A transpose of a model input (no parameter tag) changes with every call:
// it stays in its dispatch, and there is no initializer.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK:         linalg.transpose
// CHECK-NOT:   @host_initializer
func.func private @host_dispatch_0(%w: tensor<16x8xf32>) -> tensor<8x16xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  return %t : tensor<8x16xf32>
}
func.func @host(%w: tensor<16x8xf32>) -> tensor<8x16xf32> {
  %y = call @host_dispatch_0(%w) : (tensor<16x8xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Two dispatches transposing one weight the same way share one packed
// layout. The second also reads the weight as it is, so it keeps that
// argument. The weight is one the importer derives (a result of its
// parameter function), packed like an initializer.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%{{.+}}: tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-LABEL: func.func private @host_dispatch_1
// CHECK-SAME:    (%{{.+}}: tensor<16x8xf32>, %{{.+}}: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16x8xf32>)
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    -> tensor<8x16xf32>
// CHECK-COUNT-1: linalg.transpose
// CHECK-NOT:     linalg.transpose
// CHECK-LABEL: func.func @host
// CHECK-SAME:    (%[[W:[^:]+]]: tensor<16x8xf32> {dispatchlab.parameter_result = 0 : i64}, %[[PACKED:[^:]+]]: tensor<8x16xf32> {{.+}}dispatchlab.packed = 0 : i64})
// CHECK:         call @host_dispatch_0(%[[PACKED]])
// CHECK:         call @host_dispatch_1(%[[W]], %[[PACKED]])
func.func private @host_dispatch_0(%w: tensor<16x8xf32>) -> tensor<8x16xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  return %t : tensor<8x16xf32>
}
func.func private @host_dispatch_1(%w: tensor<16x8xf32>) -> (tensor<8x16xf32>, tensor<16x8xf32>) attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  return %t, %w : tensor<8x16xf32>, tensor<16x8xf32>
}
func.func @host(%w: tensor<16x8xf32> {dispatchlab.parameter_result = 0 : i64}) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x8xf32>) {
  %a = call @host_dispatch_0(%w) : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %b:2 = call @host_dispatch_1(%w) : (tensor<16x8xf32>) -> (tensor<8x16xf32>, tensor<16x8xf32>)
  return %a, %b#0, %b#1 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x8xf32>
}

// -----

// A 1x1 convolution's filter, collapsed to a matrix in the host: the
// initializer collapses its own copy of the weight the same way and
// transposes that (ResNet-50's 1x1 filters were left in their dispatches).
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8xf32>, %[[PACKED:.+]]: tensor<8x16xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%[[W:.+]]: tensor<16x1x1x8xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<8x16xf32>
// CHECK:         %[[C:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : tensor<16x1x1x8xf32> into tensor<16x8xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[C]] : tensor<16x8xf32>)
// CHECK:         return %[[T]]
// CHECK-LABEL: func.func @host
// CHECK-SAME:    %[[HOST_PACKED:[^:]+]]: tensor<8x16xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}
// CHECK:         call @host_dispatch_0(%{{.+}}, %[[HOST_PACKED]])
func.func private @host_dispatch_0(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %t : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
func.func @host(%x: tensor<4x8xf32>, %w4: tensor<16x1x1x8xf32> {dispatchlab.parameter_result = 3 : i64}) -> tensor<4x16xf32> {
  %w = tensor.collapse_shape %w4 [[0, 1, 2], [3]] : tensor<16x1x1x8xf32> into tensor<16x8xf32>
  %y = call @host_dispatch_0(%x, %w) : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A filter's live taps, sliced in the host (DropPaddingTaps): the
// initializer slices its own copy of the weight the same way.
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%[[W:.+]]: tensor<16x3x8xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<8x16xf32>
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[W]][0, 1, 0] [16, 1, 8] [1, 1, 1] : tensor<16x3x8xf32> to tensor<16x8xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[S]] : tensor<16x8xf32>)
// CHECK:         return %[[T]]
// CHECK-LABEL: func.func @host
// CHECK-SAME:    %[[HOST_PACKED:[^:]+]]: tensor<8x16xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}
// CHECK:         call @host_dispatch_0(%{{.+}}, %[[HOST_PACKED]])
func.func private @host_dispatch_0(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %t : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
func.func @host(%x: tensor<4x8xf32>, %w3: tensor<16x3x8xf32> {dispatchlab.parameter_result = 3 : i64}) -> tensor<4x16xf32> {
  %w = tensor.extract_slice %w3[0, 1, 0] [16, 1, 8] [1, 1, 1] : tensor<16x3x8xf32> to tensor<16x8xf32>
  %y = call @host_dispatch_0(%x, %w) : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

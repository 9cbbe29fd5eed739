// The compat ops verify their operands: one index per dynamic extent, bit
// counts that match, encodings where IREE requires them.
//
// RUN: dispatchlab-opt %s --split-input-file --verify-diagnostics

func.func @bitcast_bits(%a: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @below {{casts 128 bits to 32 bits}}
  %0 = iree_tensor_ext.bitcast %a : tensor<4xf32> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @bitcast_dims(%a: tensor<?xf32>) -> tensor<?xi32> {
  // expected-error @below {{has 0 source dims for a type with 1 dynamic dims}}
  %0 = iree_tensor_ext.bitcast %a : tensor<?xf32> -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

func.func @barrier_type(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @below {{result type differs from the operand's}}
  %0 = iree_tensor_ext.compute_barrier.end %a : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @optimization_barrier_type(%a: tensor<4xf32>) {
  // expected-error @below {{all of {operands, results} have same type}}
  %0 = "util.optimization_barrier"(%a) : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @set_encoding_plain_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects an encoded tensor type, got 'tensor<4xf32>'}}
  %0 = iree_encoding.set_encoding %a : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @set_encoding_shape(%a: tensor<4xf32>) -> tensor<8xf32, #iree_encoding.testing<>> {
  // expected-error @below {{changes the shape}}
  %0 = iree_encoding.set_encoding %a : tensor<4xf32> -> tensor<8xf32, #iree_encoding.testing<>>
  return %0 : tensor<8xf32, #iree_encoding.testing<>>
}

// -----

func.func @unset_encoding_dims(%a: tensor<?xf32, #iree_encoding.testing<>>) -> tensor<?xf32> {
  // expected-error @below {{has 0 result dims for a type with 1 dynamic dims}}
  %0 = iree_encoding.unset_encoding %a : tensor<?xf32, #iree_encoding.testing<>> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// expected-error @+2 {{EncodingOpType to be one of: matmul, scaled_matmul, conv}}
// expected-error @+1 {{failed to parse Encoding_EncodingAttr parameter 'op_type'}}
func.func @unknown_op_type(%a: tensor<4xf32, #iree_encoding.encoding<operand_index = 0 : i64, op_type = conv3d, element_types = [f32]>>) {
  return
}

// -----

func.func @flow_region_dims(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  // expected-error @below {{has 2 result dims for results with 1 dynamic dims}}
  %0 = "flow.dispatch.region"(%n, %n) ({
    "flow.return"(%a) : (tensor<?xf32>) -> ()
  }) {operandSegmentSizes = array<i32: 2, 0>} : (index, index) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @flow_region_return_types(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @below {{returns 'tensor<4xf32>' for results of types 'tensor<4xi32>'}}
  %0 = flow.dispatch.region -> (tensor<4xi32>) {
    flow.return %a : tensor<4xf32>
  }
  return %0 : tensor<4xi32>
}

// -----

func.func @tensor_update_indices(%t: tensor<8x3xf32>, %u: tensor<2x3xf32>, %i: index) -> tensor<8x3xf32> {
  // expected-error @below {{has 1 start indices for a target of rank 2}}
  %0 = flow.tensor.update %u, %t[%i] : tensor<2x3xf32> -> %t as tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

func.func @tensor_update_tied(%t: tensor<8xf32>, %s: tensor<8xf32>, %u: tensor<2xf32>, %i: index) -> tensor<8xf32> {
  // expected-error @below {{the tied result must name the target}}
  %0 = flow.tensor.update %u, %t[%i] : tensor<2xf32> -> %s as tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @dynamic_constant_shape() -> tensor<?x4xf32> {
  // expected-error @below {{result type 'tensor<?x4xf32>' does not fit the value's 'tensor<2x3xf32>'}}
  %0 = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @expect_almost_eq_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @below {{all of {lhs, rhs} have same type}}
  "check.expect_almost_eq"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> ()
  return
}

// -----

func.func @tensor_import_dims(%bv: !hal.buffer_view) -> tensor<?xf32> {
  // expected-error @below {{has 0 dims for a tensor type with 1 dynamic dims}}
  %0 = hal.tensor.import %bv : !hal.buffer_view -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @tensor_barrier_types(%t: tensor<4xf32>, %f: !hal.fence) -> tensor<4xi32> {
  // expected-error @below {{all of {sources, results} have same type}}
  %0 = "hal.tensor.barrier"(%t, %f) : (tensor<4xf32>, !hal.fence) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// IREE's spellings of the compat dialects (compat/) parse, print and parse
// again unchanged: util.optimization_barrier, iree_tensor_ext, iree_encoding
// and upstream cf.
//
// RUN: dispatchlab-opt %s --split-input-file | dispatchlab-opt --split-input-file | FileCheck %s

// CHECK-LABEL: util.func public @optimization_barrier
//       CHECK:   %[[B:.+]]:2 = util.optimization_barrier %{{.+}}, %{{.+}} : tensor<4xf32>, i32
//       CHECK:   util.optimization_barrier
//  CHECK-NEXT:   util.return %[[B]]#0
util.func public @optimization_barrier(%a: tensor<4xf32>, %i: i32) -> tensor<4xf32> {
  %0:2 = util.optimization_barrier %a, %i : tensor<4xf32>, i32
  util.optimization_barrier
  util.return %0#0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @tensor_ext
//       CHECK:   iree_tensor_ext.bitcast %{{.+}} : tensor<?x32xf4E2M1FN>{%{{.+}}} -> tensor<?x16xi8>{%{{.+}}}
//       CHECK:   iree_tensor_ext.bitcast %{{.+}} : tensor<4xf32> -> tensor<4xi32>
//       CHECK:   iree_tensor_ext.compute_barrier.start %{{.+}} : tensor<?x16xi8>{%{{.+}}} -> tensor<?x16xi8>
//       CHECK:   iree_tensor_ext.compute_barrier.end %{{.+}} : tensor<4xi32> -> tensor<4xi32>
func.func @tensor_ext(%a: tensor<?x32xf4E2M1FN>, %b: tensor<4xf32>, %n: index)
    -> (tensor<?x16xi8>, tensor<4xi32>) {
  %0 = iree_tensor_ext.bitcast %a : tensor<?x32xf4E2M1FN>{%n} -> tensor<?x16xi8>{%n}
  %1 = iree_tensor_ext.bitcast %b : tensor<4xf32> -> tensor<4xi32>
  %2 = iree_tensor_ext.compute_barrier.start %0 : tensor<?x16xi8>{%n} -> tensor<?x16xi8>
  %3 = iree_tensor_ext.compute_barrier.end %1 : tensor<4xi32> -> tensor<4xi32>
  return %2, %3 : tensor<?x16xi8>, tensor<4xi32>
}

// -----

// CHECK-DAG: #[[TEST:.+]] = #iree_encoding.testing<>
// CHECK-DAG: #[[LHS:.+]] = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32]>
// CHECK-DAG: #[[FULL:.+]] = #iree_encoding.encoding<operand_index = 1 : index, op_type = scaled_matmul, element_types = [f16, f16, f32], original_element_type = f4E2M1FN, user_indexing_maps = [#{{.+}}], iteration_sizes = [?, 16]>
// CHECK-DAG: #[[LAYOUT:.+]] = #iree_encoding.testing<layouts = [1 : i32], original_element_type = i4>
// CHECK-LABEL: func.func @encoding
//  CHECK-SAME:   tensor<4x8xf32, #[[FULL]]>, %{{.+}}: tensor<4x8xi8, #[[LAYOUT]]>
//       CHECK:   iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #[[TEST]]>
//       CHECK:   iree_encoding.set_encoding %{{.+}} encoding_dims{%{{.+}}, %{{.+}}} : tensor<4x8xf32> -> tensor<4x8xf32, #[[LHS]]>
//       CHECK:   iree_encoding.unset_encoding %{{.+}} : tensor<?x?xf32, #[[TEST]]> -> tensor<?x?xf32>{%{{.+}}, %{{.+}}}
//       CHECK:   iree_encoding.unset_encoding %{{.+}} encoding_dims{%{{.+}}} : tensor<4x8xf32, #[[LHS]]> -> tensor<4x8xf32>
func.func @encoding(%a: tensor<?x?xf32>, %b: tensor<4x8xf32>, %m: index, %n: index,
    %c: tensor<4x8xf32, #iree_encoding.encoding<operand_index = 1 : index, op_type = scaled_matmul, element_types = [f16, f16, f32], original_element_type = f4E2M1FN, user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iteration_sizes = [?, 16]>>,
    %d: tensor<4x8xi8, #iree_encoding.testing<layouts = [1 : i32], original_element_type = i4>>)
    -> (tensor<?x?xf32>, tensor<4x8xf32>) {
  %0 = iree_encoding.set_encoding %a : tensor<?x?xf32> -> tensor<?x?xf32, #iree_encoding.testing<>>
  %1 = iree_encoding.set_encoding %b encoding_dims{%m, %n} : tensor<4x8xf32>
      -> tensor<4x8xf32, #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32]>>
  %2 = iree_encoding.unset_encoding %0 : tensor<?x?xf32, #iree_encoding.testing<>> -> tensor<?x?xf32>{%m, %n}
  %3 = iree_encoding.unset_encoding %1 encoding_dims{%m} : tensor<4x8xf32, #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f32, f32, f32]>> -> tensor<4x8xf32>
  return %2, %3 : tensor<?x?xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @control_flow
//       CHECK:   cf.br ^bb1(%{{.+}} : tensor<4xf32>)
//       CHECK: ^bb1(%{{.+}}: tensor<4xf32>):
func.func @control_flow(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1(%a : tensor<4xf32>)
^bb1(%b: tensor<4xf32>):
  return %b : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @flow_dispatch_region
//       CHECK:   %[[R:.+]]:2 = flow.dispatch.region[%{{.+}}] -> (tensor<?x4xf32>{%{{.+}}}, tensor<4xf32>) attributes {note} {
//       CHECK:     flow.return %{{.+}}, %{{.+}} : tensor<?x4xf32>, tensor<4xf32>
//       CHECK:   flow.dispatch.region {
//  CHECK-NEXT:     flow.return
//       CHECK:   return %[[R]]#0
func.func @flow_dispatch_region(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %n: index) -> tensor<?x4xf32> {
  %0:2 = flow.dispatch.region[%n] -> (tensor<?x4xf32>{%n}, tensor<4xf32>) attributes {note} {
    flow.return %a, %b : tensor<?x4xf32>, tensor<4xf32>
  }
  flow.dispatch.region {
    flow.return
  }
  return %0#0 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @flow_tensor
//       CHECK:   flow.tensor.dynamic_constant dense<1.000000e+00> : tensor<2x3xf32> -> tensor<?x3xf32>
//       CHECK:   flow.tensor.update %{{.+}}, %[[T:.+]][%{{.+}}, %{{.+}}] : tensor<?x3xf32>{%{{.+}}} -> %[[T]] as tensor<8x3xf32>
//       CHECK:   flow.tensor.update %{{.+}}, %[[D:.+]][%{{.+}}] : tensor<2xf32> -> %[[D]] as tensor<?xf32>{%{{.+}}}
func.func @flow_tensor(%t: tensor<8x3xf32>, %d: tensor<?xf32>, %u: tensor<2xf32>, %i: index, %n: index)
    -> (tensor<8x3xf32>, tensor<?xf32>) {
  %c = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3xf32> -> tensor<?x3xf32>
  %0 = flow.tensor.update %c, %t[%i, %i] : tensor<?x3xf32>{%n} -> %t as tensor<8x3xf32>
  %1 = flow.tensor.update %u, %d[%i] : tensor<2xf32> -> %d as tensor<?xf32>{%n}
  return %0, %1 : tensor<8x3xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @check_ops
//       CHECK:   check.expect_almost_eq(%{{.+}}, %{{.+}}) : tensor<4xf32>
//       CHECK:   check.expect_almost_eq(%{{.+}}, %{{.+}}, atol 5.000000e-01, rtol 1.000000e-03) : tensor<4xf32>
func.func @check_ops(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  check.expect_almost_eq(%a, %b) : tensor<4xf32>
  check.expect_almost_eq(%a, %b, atol 5.0e-1, rtol 1.0e-3) : tensor<4xf32>
  return
}

// -----

// CHECK-LABEL: util.func public @hal_abi
//  CHECK-SAME:   (%[[BV:.+]]: !hal.buffer_view, %[[F:.+]]: !hal.fence, %[[S:.+]]: !hal.fence) -> !hal.buffer_view
//       CHECK:   %[[D:.+]] = hal.buffer_view.dim<%[[BV]] : !hal.buffer_view>[1] : index
//       CHECK:   %[[T:.+]] = hal.tensor.import wait(%[[F]]) => %[[BV]] : !hal.buffer_view -> tensor<4x?xf32>{%[[D]]}
//       CHECK:   hal.tensor.import %[[BV]] : !hal.buffer_view -> tensor<8xf32>
//       CHECK:   %[[J:.+]] = hal.tensor.barrier join(%[[T]] : tensor<4x?xf32>) => %[[S]] : !hal.fence
//       CHECK:   hal.tensor.export %[[J]] : tensor<4x?xf32>{%[[D]]} -> !hal.buffer_view
util.func public @hal_abi(%bv: !hal.buffer_view, %f: !hal.fence, %s: !hal.fence) -> !hal.buffer_view {
  %d = hal.buffer_view.dim<%bv : !hal.buffer_view>[1] : index
  %t = hal.tensor.import wait(%f) => %bv : !hal.buffer_view -> tensor<4x?xf32>{%d}
  %u = hal.tensor.import %bv : !hal.buffer_view -> tensor<8xf32>
  %j = hal.tensor.barrier join(%t : tensor<4x?xf32>) => %s : !hal.fence
  %r = hal.tensor.export %j : tensor<4x?xf32>{%d} -> !hal.buffer_view
  util.return %r : !hal.buffer_view
}

// -----

// CHECK-LABEL: util.func public @preprocessing
//  CHECK-SAME:   attributes {preprocessing_pipeline = #util.preprocessing_pipeline<"iree-preprocessing-make-single-dispatch">}
util.func public @preprocessing() attributes {
    preprocessing_pipeline = #util.preprocessing_pipeline<"iree-preprocessing-make-single-dispatch">} {
  util.return
}

// -----

// IREE's globals: a weight given as a byte pattern (with IREE's inlining
// hint), a constant, a value-less parameter, a mutable one, and loads of
// them (the loader rewrites them before dispatch creation:
// tests/core/run_util_globals.mlir).
// CHECK: util.global private @pattern {noinline} = #util.byte_pattern<1> : tensor<4x2xf32>
// CHECK: util.global private @constant = dense<{{.+}}> : tensor<2xf32>
// CHECK: util.global public @parameter : tensor<2xf32>
// CHECK: util.global private mutable @state : tensor<2xf32>
// CHECK-LABEL: util.func public @global_loads
//       CHECK:   util.global.load immutable @pattern : tensor<4x2xf32>
//       CHECK:   util.global.load @constant : tensor<2xf32>
util.global private @pattern {noinline} = #util.byte_pattern<1> : tensor<4x2xf32>
util.global private @constant = dense<[1.0, 2.0]> : tensor<2xf32>
util.global public @parameter : tensor<2xf32>
util.global private mutable @state : tensor<2xf32>
util.func public @global_loads() -> (tensor<4x2xf32>, tensor<2xf32>) {
  %0 = util.global.load immutable @pattern : tensor<4x2xf32>
  %1 = util.global.load @constant : tensor<2xf32>
  util.return %0, %1 : tensor<4x2xf32>, tensor<2xf32>
}

// -----

// A global read through a reference, the spelling of IREE's older
// frontends (tests/core/run_indirect_globals.mlir runs one).
// CHECK-LABEL: util.func public @indirect_load
//       CHECK:   %[[REF:.+]] = util.global.address @referenced : !util.ptr<tensor<2xf32>>
//       CHECK:   util.global.load.indirect %[[REF]] : !util.ptr<tensor<2xf32>> -> tensor<2xf32>
util.global private @referenced = dense<[1.0, 2.0]> : tensor<2xf32>
util.func public @indirect_load() -> tensor<2xf32> {
  %ref = util.global.address @referenced : !util.ptr<tensor<2xf32>>
  %0 = util.global.load.indirect %ref : !util.ptr<tensor<2xf32>> -> tensor<2xf32>
  util.return %0 : tensor<2xf32>
}

// -----

// Weights kept in a parameter archive, with and without a scope, as IREE's
// importers externalize them (tests/core/run_parameter_globals.mlir runs
// one).
// CHECK: util.global private @scoped = #flow.parameter.named<"model"::"conv1.weight"> : tensor<4x2xf32>
// CHECK: util.global private @unscoped = #flow.parameter.named<"bias"> : tensor<2xf32>
util.global private @scoped = #flow.parameter.named<"model"::"conv1.weight"> : tensor<4x2xf32>
util.global private @unscoped = #flow.parameter.named<"bias"> : tensor<2xf32>

// -----

// Tensors from attributes inside a function: a parameter and elements.
// CHECK-LABEL: util.func public @tensor_constants
//       CHECK:   flow.tensor.constant #flow.parameter.named<"model"::"w"> : tensor<4x2xf32>
//       CHECK:   flow.tensor.constant dense<1.000000e+00> : tensor<2xf32>
util.func public @tensor_constants() -> (tensor<4x2xf32>, tensor<2xf32>) {
  %0 = flow.tensor.constant #flow.parameter.named<"model"::"w"> : tensor<4x2xf32>
  %1 = flow.tensor.constant dense<1.0> : tensor<2xf32>
  util.return %0, %1 : tensor<4x2xf32>, tensor<2xf32>
}

// -----

// An initializer storing a global it computes from another (IREE's
// HoistIntoGlobals output).
// CHECK:      util.initializer {
// CHECK-NEXT:   %[[W:.+]] = util.global.load immutable @source : tensor<2xf32>
// CHECK-NEXT:   util.global.store %[[W]], @hoisted : tensor<2xf32>
// CHECK-NEXT:   util.return
// CHECK-NEXT: }
util.global private @source : tensor<2xf32>
util.global private @hoisted : tensor<2xf32>
util.initializer {
  %0 = util.global.load immutable @source : tensor<2xf32>
  util.global.store %0, @hoisted : tensor<2xf32>
  util.return
}

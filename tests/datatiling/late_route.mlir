// The late data-tiling route (data-tiling=late, IREE's GlobalOptimization
// route under --iree-global-opt-data-tiling): encodings are set and
// materialized for the host before dispatch creation, so formation sees
// linalg.pack, mmt4d and linalg.unpack and applies IREE's rules for them.
// One case per rule. Tile sizes follow the host's vectors, so they are not
// checked here (materialize_encoding_for_host.mlir does).
//
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{data-tiling=late})' \
// RUN:   | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{pipeline=formation data-tiling=late})' \
// RUN:   | FileCheck %s --check-prefix=FORMATION

// A Linear with bias and ReLU. The input's pack is a dispatch of its own;
// the weight's pack stays outside dispatches (IREE const-evaluates it into
// a global; codegen packs it in the initializer); mmt4d takes no consumer
// (IREE's TODO #16025), so the unpack is a root and the epilogue joins it.
// CHECK-LABEL: func.func @linear_relu(
//       CHECK:   %[[X:.+]] = dispatch.region
//  CHECK-NEXT:     tensor.empty
//  CHECK-NEXT:     linalg.pack %arg0 {{.+}} {dispatchlab.root}
//  CHECK-NEXT:     dispatch.return
//       CHECK:   %[[W:.+]] = linalg.pack %arg1
//       CHECK:   %[[MM:.+]] = dispatch.region
//       CHECK:     linalg.fill
//  CHECK-NEXT:     %[[R:.+]] = linalg.mmt4d {dispatchlab.root} ins(%[[X]], %[[W]] :
//  CHECK-NEXT:     dispatch.return %[[R]]
//       CHECK:   dispatch.region -> (tensor<32x48xf32>)
//       CHECK:     %[[U:.+]] = linalg.unpack %[[MM]] {{.+}} {dispatchlab.root}
//  CHECK-NEXT:     %[[G:.+]] = linalg.generic {{.+}} ins(%[[U]], %arg2 :
//       CHECK:     dispatch.return %[[G]]
// FORMATION-LABEL: func.func @linear_relu(
//       FORMATION:   linalg.pack %arg1
//       FORMATION:   linalg.mmt4d
//       FORMATION:   linalg.unpack
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @linear_relu(%x: tensor<32x24xf32>, %w: tensor<24x48xf32> {dispatchlab.parameter = "fc.weight"},
                       %b: tensor<48xf32> {dispatchlab.parameter = "fc.bias"}) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x24xf32>, tensor<24x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}

// -----

// A pack joins the dispatch of its producer when that writes with the
// identity map (IREE's pack-like consumer rule), after a reduction root too:
// the centering of rows and the pack of the result are one dispatch.
// CHECK-LABEL: func.func @centered_linear(
//       CHECK:   %[[X:.+]] = dispatch.region
//       CHECK:     linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
//       CHECK:     %[[C:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]
//       CHECK:     %[[P:.+]] = linalg.pack %[[C]]
//       CHECK:     dispatch.return %[[P]]
//       CHECK:   linalg.mmt4d {dispatchlab.root} ins(%[[X]],
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @centered_linear(%x: tensor<32x24xf32>, %w: tensor<24x48xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<32xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x24xf32>) outs(%fr : tensor<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %ex = tensor.empty() : tensor<32x24xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<32x24xf32>, tensor<32xf32>) outs(%ex : tensor<32x24xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %d = arith.subf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<32x24xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm = linalg.matmul ins(%c, %w : tensor<32x24xf32>, tensor<24x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %mm : tensor<32x48xf32>
}

// -----

// Between two Linears, the first's unpack, the activation and the second's
// pack are one dispatch: the unpack root takes its elementwise consumer,
// which takes the pack.
// CHECK-LABEL: func.func @two_linears(
//       CHECK:   linalg.pack %arg1
//       CHECK:   %[[MM1:.+]] = dispatch.region
//       CHECK:     linalg.fill
//  CHECK-NEXT:     linalg.mmt4d
//       CHECK:   %[[ACT:.+]] = dispatch.region
//       CHECK:     %[[U:.+]] = linalg.unpack %[[MM1]]
//  CHECK-NEXT:     %[[T:.+]] = linalg.generic {{.+}} ins(%[[U]] :
//       CHECK:       math.tanh
//       CHECK:     %[[P:.+]] = linalg.pack %[[T]]
//  CHECK-NEXT:     dispatch.return %[[P]]
//       CHECK:   linalg.mmt4d {dispatchlab.root} ins(%[[ACT]],
#id = affine_map<(i, j) -> (i, j)>
func.func @two_linears(%x: tensor<32x24xf32>, %w1: tensor<24x48xf32> {dispatchlab.parameter = "fc1.weight"},
                       %w2: tensor<48x24xf32> {dispatchlab.parameter = "fc2.weight"}) -> tensor<32x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<32x48xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm1 = linalg.matmul ins(%x, %w1 : tensor<32x24xf32>, tensor<24x48xf32>) outs(%f1 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm1 : tensor<32x48xf32>) outs(%e1 : tensor<32x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = math.tanh %a : f32
    linalg.yield %h : f32
  } -> tensor<32x48xf32>
  %e2 = tensor.empty() : tensor<32x24xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x24xf32>) -> tensor<32x24xf32>
  %mm2 = linalg.matmul ins(%t, %w2 : tensor<32x48xf32>, tensor<48x24xf32>) outs(%f2 : tensor<32x24xf32>) -> tensor<32x24xf32>
  return %mm2 : tensor<32x24xf32>
}

// -----

// DataLayoutPropagation in the route: the LHS is a collapse_shape of the
// input, so the input is packed and the packed tensor collapsed.
// CHECK-LABEL: func.func @collapsed_lhs(
//       CHECK:   %[[P:.+]] = dispatch.region
//  CHECK-NEXT:     tensor.empty
//  CHECK-NEXT:     linalg.pack %arg0 {{.+}} : tensor<2x16x24xf32> ->
//       CHECK:   %[[C:.+]] = tensor.collapse_shape %[[P]]
//       CHECK:   linalg.mmt4d {dispatchlab.root} ins(%[[C]],
func.func @collapsed_lhs(%x: tensor<2x16x24xf32>, %w: tensor<24x48xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x16x24xf32> into tensor<32x24xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm = linalg.matmul ins(%c, %w : tensor<32x24xf32>, tensor<24x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %mm : tensor<32x48xf32>
}

// -----

// Negative: an argument not tagged as a weight is an input; its pack is a
// dispatch of its own, as IREE gives one to a pack it cannot const-evaluate.
// CHECK-LABEL: func.func @untagged_weight(
//       CHECK:   dispatch.region
//  CHECK-NEXT:     tensor.empty
//  CHECK-NEXT:     linalg.pack %arg0
//       CHECK:   dispatch.region
//  CHECK-NEXT:     tensor.empty
//  CHECK-NEXT:     linalg.pack %arg1
func.func @untagged_weight(%x: tensor<32x24xf32>, %w: tensor<24x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x24xf32>, tensor<24x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %mm : tensor<32x48xf32>
}

// -----

// Negative: an integer matmul is hinted and encoded, but the host
// materialization lays out float encodings only and drops this one, so
// formation sees the plain matmul.
// CHECK-LABEL: func.func @integer_matmul(
//   CHECK-NOT:   linalg.pack
//       CHECK:   linalg.matmul {dispatchlab.root} ins(%arg0, %arg1 :
//   CHECK-NOT:   linalg.unpack
func.func @integer_matmul(%x: tensor<32x24xi8>, %w: tensor<24x48xi8> {dispatchlab.parameter = "fc.weight"}) -> tensor<32x48xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<32x48xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<32x48xi32>) -> tensor<32x48xi32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x24xi8>, tensor<24x48xi8>) outs(%f : tensor<32x48xi32>) -> tensor<32x48xi32>
  return %mm : tensor<32x48xi32>
}

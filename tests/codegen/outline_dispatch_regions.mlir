// RUN: dispatchlab-opt %s --split-input-file --allow-unregistered-dialect --dispatchlab-outline-dispatch-regions | FileCheck %s

// Two dispatches: captured values become arguments in order of first use,
// the second consumes the first's result through the host function. Each
// records its work: the 4x8x16 matmul's 1024 FLOPs and 896 bytes read and
// written.
// CHECK-LABEL: func.func private @main_dispatch_0
// CHECK-SAME:    (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-SAME:    attributes {dispatchlab.bytes = 896 : i64, dispatchlab.dispatch, dispatchlab.flops = 1024 : i64}
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]]
// CHECK:         %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[F]]
// CHECK:         return %[[M]] : tensor<4x16xf32>
// CHECK-LABEL: func.func private @main_dispatch_1
// CHECK-SAME:    (%[[X:.+]]: tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK:         linalg.generic {{.+}} ins(%[[X]] : tensor<4x16xf32>)
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A0:.+]]: tensor<4x8xf32>, %[[B0:.+]]: tensor<8x16xf32>)
// CHECK-NOT:     dispatch.region
// CHECK:         %[[C0:.+]] = call @main_dispatch_0(%[[A0]], %[[B0]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK:         %[[C1:.+]] = call @main_dispatch_1(%[[C0]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK:         return %[[C1]]
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = dispatch.region -> (tensor<4x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<4x16xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x16xf32>) -> tensor<4x16xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) -> tensor<4x16xf32>
    dispatch.return %mm : tensor<4x16xf32>
  }
  %1 = dispatch.region -> (tensor<4x16xf32>) {
    %empty = tensor.empty() : tensor<4x16xf32>
    %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x16xf32>) outs(%empty : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    } -> tensor<4x16xf32>
    dispatch.return %exp : tensor<4x16xf32>
  }
  return %1 : tensor<4x16xf32>
}

// -----

// Several results; a scalar captured from above; a symbol clash renames.
// CHECK-LABEL: func.func @f_dispatch_0()
// CHECK-LABEL: func.func private @f_dispatch_0_0
// CHECK-SAME:    (%{{.+}}: f32, %{{.+}}: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:         return %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>
// CHECK-LABEL: func.func @f(
// CHECK:         %[[R:.+]]:2 = call @f_dispatch_0_0(%{{.+}}, %{{.+}})
// CHECK:         return %[[R]]#1, %[[R]]#0
func.func @f_dispatch_0() {
  return
}
func.func @f(%s: f32, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = dispatch.region -> (tensor<4xf32>, tensor<4xf32>) {
    %empty = tensor.empty() : tensor<4xf32>
    %fill = linalg.fill ins(%s : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
    dispatch.return %fill, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %0#1, %0#0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An encoding dispatch codegen added (PlaceEncodingPacks) is numbered apart:
// the formed dispatch after it keeps the name the reports gave it.
// CHECK-LABEL: func.func private @main_encoding_0
// CHECK:         linalg.pack
// CHECK-LABEL: func.func private @main_dispatch_0
// CHECK-LABEL: func.func @main
// CHECK:         %[[P:.+]] = call @main_encoding_0(
// CHECK:         call @main_dispatch_0(%[[P]])
func.func @main(%x: tensor<16x8xf32>) -> tensor<1x8x16x1xf32> {
  %p = dispatch.region -> (tensor<1x8x16x1xf32>) {
    %e = tensor.empty() : tensor<1x8x16x1xf32>
    %0 = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %e : tensor<16x8xf32> -> tensor<1x8x16x1xf32>
    dispatch.return %0 : tensor<1x8x16x1xf32>
  } {dispatchlab.encoding_dispatch}
  %r = dispatch.region -> (tensor<1x8x16x1xf32>) {
    %n = "test.negate"(%p) : (tensor<1x8x16x1xf32>) -> tensor<1x8x16x1xf32>
    dispatch.return %n : tensor<1x8x16x1xf32>
  }
  return %r : tensor<1x8x16x1xf32>
}

// -----

// A result recorded as zero outside a box (FillPaddingBorders) marks the
// argument of the dispatch reading it, through the call that replaced the
// producing region; the unrecorded argument is unmarked.
// CHECK-LABEL: func.func private @main_dispatch_1
// CHECK-SAME:    (%{{.+}}: tensor<4x8xf32> {dispatchlab.zero_padded_interior = array<i64: 1, 0, 3, 8>}, %{{.+}}: tensor<3x8xf32>)
func.func @main(%x: tensor<3x8xf32>, %border: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = dispatch.region -> (tensor<4x8xf32>) {
    %inserted = tensor.insert_slice %x into %border[1, 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<4x8xf32>
    dispatch.return %inserted : tensor<4x8xf32>
  } {dispatchlab.zero_padded_results = [array<i64: 1, 0, 3, 8>]}
  %1 = dispatch.region -> (tensor<4x8xf32>) {
    %n = "test.combine"(%0, %x) : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x8xf32>
    dispatch.return %n : tensor<4x8xf32>
  }
  return %1 : tensor<4x8xf32>
}

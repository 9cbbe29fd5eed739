// RUN: dispatchlab-opt %s --split-input-file --dispatchlab-pack-weight-panels | FileCheck %s

// A weight of the model read by 32-column panels, one per tile: the
// initializer packs [64, 128] into [4, 64, 32], the host passes that, and
// each tile reads its panel whole (panel = column / 32). The packed dispatch
// argument is marked for dispatchlab-prefetch-weight-panels.
// CHECK-DAG:   #[[PANEL:.+]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%[[X:.+]]: tensor<8x64xf32>, %[[W:.+]]: tensor<4x64x32xf32> {dispatchlab.weight_panels})
// CHECK:         scf.forall (%[[COL:.+]]) = (0) to (128) step (32)
// CHECK:           %[[P:.+]] = affine.apply #[[PANEL]](%[[COL]])
// CHECK:           tensor.extract_slice %[[W]][%[[P]], 0, 0] [1, 64, 32] [1, 1, 1] : tensor<4x64x32xf32> to tensor<64x32xf32>
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%[[SRC:.+]]: tensor<64x128xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<4x64x32xf32>
// CHECK:         %[[SPLIT:.+]] = tensor.expand_shape %[[SRC]] {{\[}}[0], [1, 2]] output_shape [64, 4, 32]
// CHECK:         %[[PACKED:.+]] = linalg.transpose ins(%[[SPLIT]] : tensor<64x4x32xf32>) outs(%{{.+}} : tensor<4x64x32xf32>) permutation = [1, 0, 2]
// CHECK:         return %[[PACKED]]
// CHECK-LABEL: func.func @host
// CHECK-SAME:    %[[HOST_W:[^:]+]]: tensor<64x128xf32> {dispatchlab.parameter = "fc.weight"}, %[[HOST_PACKED:[^:]+]]: tensor<4x64x32xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}
// CHECK:         call @host_dispatch_0(%{{.+}}, %[[HOST_PACKED]])
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x128xf32>) -> tensor<8x128xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x128xf32>
  %r = scf.forall (%j) = (0) to (128) step (32) shared_outs(%o = %e) -> (tensor<8x128xf32>) {
    %panel = tensor.extract_slice %w[0, %j] [64, 32] [1, 1] : tensor<64x128xf32> to tensor<64x32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x128xf32> to tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x128xf32>
    }
  }
  return %r : tensor<8x128xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w: tensor<64x128xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<8x128xf32> {
  %y = call @host_dispatch_0(%x, %w) : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
  return %y : tensor<8x128xf32>
}

// -----

// A layout the initializer already computes (a transposed filter) is packed
// further: its result and the host argument bound to it change type.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%{{.+}}: tensor<1x5x5x8xf32>, %{{.+}}: tensor<2x3x3x8x32xf32> {dispatchlab.weight_panels})
// CHECK:         tensor.extract_slice %{{.+}}[%{{.+}}, 0, 0, 0, 0] [1, 3, 3, 8, 32] [1, 1, 1, 1, 1] : tensor<2x3x3x8x32xf32> to tensor<3x3x8x32xf32>
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    -> tensor<2x3x3x8x32xf32>
// CHECK:         %[[HWCF:.+]] = linalg.transpose ins(%{{.+}} : tensor<64x3x3x8xf32>) {{.+}} permutation = [1, 2, 3, 0]
// CHECK:         %[[SPLIT:.+]] = tensor.expand_shape %[[HWCF]] {{\[}}[0], [1], [2], [3, 4]] output_shape [3, 3, 8, 2, 32]
// CHECK:         %[[PACKED:.+]] = linalg.transpose ins(%[[SPLIT]] : tensor<3x3x8x2x32xf32>) {{.+}} permutation = [3, 0, 1, 2, 4]
// CHECK:         return %[[PACKED]]
// CHECK-LABEL: func.func @host
// CHECK-SAME:    %[[PACKED_ARG:[^:]+]]: tensor<2x3x3x8x32xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}
// CHECK:         call @host_dispatch_0(%{{.+}}, %[[PACKED_ARG]])
#in = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh + kh, ow + kw, c)>
#filter = affine_map<(n, oh, ow, f, kh, kw, c) -> (kh, kw, c, f)>
#out = affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh, ow, f)>
func.func private @host_dispatch_0(%x: tensor<1x5x5x8xf32>, %w: tensor<3x3x8x64xf32>) -> tensor<1x3x3x64xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<1x3x3x64xf32>
  %r = scf.forall (%oh, %f) = (0, 0) to (3, 64) step (1, 32) shared_outs(%o = %e) -> (tensor<1x3x3x64xf32>) {
    %rows = tensor.extract_slice %x[0, %oh, 0, 0] [1, 3, 5, 8] [1, 1, 1, 1] : tensor<1x5x5x8xf32> to tensor<1x3x5x8xf32>
    %panel = tensor.extract_slice %w[0, 0, 0, %f] [3, 3, 8, 32] [1, 1, 1, 1] : tensor<3x3x8x64xf32> to tensor<3x3x8x32xf32>
    %acc = tensor.extract_slice %o[0, %oh, 0, %f] [1, 1, 3, 32] [1, 1, 1, 1] : tensor<1x3x3x64xf32> to tensor<1x1x3x32xf32>
    %c = linalg.generic {indexing_maps = [#in, #filter, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%rows, %panel : tensor<1x3x5x8xf32>, tensor<3x3x8x32xf32>) outs(%acc : tensor<1x1x3x32xf32>) {
    ^bb0(%a: f32, %b: f32, %s: f32):
      %m = arith.mulf %a, %b : f32
      %t = arith.addf %s, %m : f32
      linalg.yield %t : f32
    } -> tensor<1x1x3x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[0, %oh, 0, %f] [1, 1, 3, 32] [1, 1, 1, 1] : tensor<1x1x3x32xf32> into tensor<1x3x3x64xf32>
    }
  }
  return %r : tensor<1x3x3x64xf32>
}
func.func @host_initializer(%w: tensor<64x3x3x8xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<3x3x8x64xf32> attributes {dispatchlab.initializer_of = @host, llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<3x3x8x64xf32>
  %t = linalg.transpose ins(%w : tensor<64x3x3x8xf32>) outs(%e : tensor<3x3x8x64xf32>) permutation = [1, 2, 3, 0]
  return %t : tensor<3x3x8x64xf32>
}
func.func @host(%x: tensor<1x5x5x8xf32>, %w: tensor<64x3x3x8xf32> {dispatchlab.parameter = "conv.weight"}, %packed: tensor<3x3x8x64xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}) -> tensor<1x3x3x64xf32> {
  %y = call @host_dispatch_0(%x, %packed) : (tensor<1x5x5x8xf32>, tensor<3x3x8x64xf32>) -> tensor<1x3x3x64xf32>
  return %y : tensor<1x3x3x64xf32>
}

// -----

// A model input (no parameter tag) changes with every call: it is read as
// it is, and there is no initializer.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%{{.+}}: tensor<8x64xf32>, %{{.+}}: tensor<64x128xf32>)
// CHECK-NOT:   @host_initializer
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x128xf32>) -> tensor<8x128xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x128xf32>
  %r = scf.forall (%j) = (0) to (128) step (32) shared_outs(%o = %e) -> (tensor<8x128xf32>) {
    %panel = tensor.extract_slice %w[0, %j] [64, 32] [1, 1] : tensor<64x128xf32> to tensor<64x32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x128xf32> to tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x128xf32>
    }
  }
  return %r : tensor<8x128xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w: tensor<64x128xf32>) -> tensor<8x128xf32> {
  %y = call @host_dispatch_0(%x, %w) : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
  return %y : tensor<8x128xf32>
}

// -----

// A weight also read otherwise (rows 0-3, whole width: no column panel) and
// a bias (rank 1: its slices are contiguous already) keep their layouts.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%{{.+}}: tensor<8x64xf32>, %{{.+}}: tensor<64x128xf32>, %{{.+}}: tensor<128xf32>)
// CHECK-NOT:   @host_initializer
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> (tensor<8x128xf32>, tensor<4x128xf32>) attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x128xf32>
  %r = scf.forall (%j) = (0) to (128) step (32) shared_outs(%o = %e) -> (tensor<8x128xf32>) {
    %panel = tensor.extract_slice %w[0, %j] [64, 32] [1, 1] : tensor<64x128xf32> to tensor<64x32xf32>
    %bias = tensor.extract_slice %b[%j] [32] [1] : tensor<128xf32> to tensor<32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x128xf32> to tensor<8x32xf32>
    %init = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%acc : tensor<8x32xf32>) dimensions = [0]
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%init : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x128xf32>
    }
  }
  %rows = tensor.extract_slice %w[0, 0] [4, 128] [1, 1] : tensor<64x128xf32> to tensor<4x128xf32>
  return %r, %rows : tensor<8x128xf32>, tensor<4x128xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w: tensor<64x128xf32> {dispatchlab.parameter = "fc.weight"}, %b: tensor<128xf32> {dispatchlab.parameter = "fc.bias"}) -> (tensor<8x128xf32>, tensor<4x128xf32>) {
  %y:2 = call @host_dispatch_0(%x, %w, %b) : (tensor<8x64xf32>, tensor<64x128xf32>, tensor<128xf32>) -> (tensor<8x128xf32>, tensor<4x128xf32>)
  return %y#0, %y#1 : tensor<8x128xf32>, tensor<4x128xf32>
}

// -----

// A weight the host reshapes before the call (a 1x1 filter [128, 1, 1, 64]
// stored as the matrix the dispatch reads): the initializer reshapes its
// own copy the same way before packing it.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%{{.+}}: tensor<8x64xf32>, %{{.+}}: tensor<4x64x32xf32> {dispatchlab.weight_panels})
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%[[SRC:.+]]: tensor<64x1x128xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<4x64x32xf32>
// CHECK:         %[[M:.+]] = tensor.collapse_shape %[[SRC]] {{\[}}[0, 1], [2]] : tensor<64x1x128xf32> into tensor<64x128xf32>
// CHECK:         %[[SPLIT:.+]] = tensor.expand_shape %[[M]] {{\[}}[0], [1, 2]] output_shape [64, 4, 32]
// CHECK:         linalg.transpose ins(%[[SPLIT]] : tensor<64x4x32xf32>)
// CHECK-LABEL: func.func @host
// CHECK-SAME:    %[[HOST_PACKED:[^:]+]]: tensor<4x64x32xf32> {bufferization.writable = false, dispatchlab.packed = 0 : i64}
// CHECK:         call @host_dispatch_0(%{{.+}}, %[[HOST_PACKED]])
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x128xf32>) -> tensor<8x128xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x128xf32>
  %r = scf.forall (%j) = (0) to (128) step (32) shared_outs(%o = %e) -> (tensor<8x128xf32>) {
    %panel = tensor.extract_slice %w[0, %j] [64, 32] [1, 1] : tensor<64x128xf32> to tensor<64x32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x128xf32> to tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x128xf32>
    }
  }
  return %r : tensor<8x128xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w3: tensor<64x1x128xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<8x128xf32> {
  %w = tensor.collapse_shape %w3 [[0, 1], [2]] : tensor<64x1x128xf32> into tensor<64x128xf32>
  %y = call @host_dispatch_0(%x, %w) : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
  return %y : tensor<8x128xf32>
}

// -----

// An op split into full tiles and a remainder (72 columns: two tiles of 32
// and 8 left): the initializer zero-pads the weight to 96 columns before
// packing it into [3, 64, 32], the tiles read panels 0-1 and the remainder
// the first 8 columns of panel 2.
// CHECK-DAG:   #[[PANEL:.+]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%[[X:.+]]: tensor<8x64xf32>, %[[W:.+]]: tensor<3x64x32xf32> {dispatchlab.weight_panels})
// CHECK:         scf.forall (%[[COL:.+]]) = (0) to (64) step (32)
// CHECK:           %[[P:.+]] = affine.apply #[[PANEL]](%[[COL]])
// CHECK:           tensor.extract_slice %[[W]][%[[P]], 0, 0] [1, 64, 32] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x32xf32>
// CHECK:         %[[REST:.+]] = tensor.extract_slice %[[W]][2, 0, 0] [1, 64, 8] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x8xf32>
// CHECK:         linalg.matmul ins(%[[X]], %[[REST]] : tensor<8x64xf32>, tensor<64x8xf32>)
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%[[SRC:.+]]: tensor<64x72xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<3x64x32xf32>
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<64x96xf32>)
// CHECK:         %[[PADDED:.+]] = tensor.insert_slice %[[SRC]] into %[[FILL]][0, 0] [64, 72] [1, 1]
// CHECK:         %[[SPLIT:.+]] = tensor.expand_shape %[[PADDED]] {{\[}}[0], [1, 2]] output_shape [64, 3, 32]
// CHECK:         linalg.transpose ins(%[[SPLIT]] : tensor<64x3x32xf32>) outs(%{{.+}} : tensor<3x64x32xf32>) permutation = [1, 0, 2]
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x72xf32>) -> tensor<8x72xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x72xf32>
  %full = tensor.extract_slice %w[0, 0] [64, 64] [1, 1] : tensor<64x72xf32> to tensor<64x64xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %r = scf.forall (%j) = (0) to (64) step (32) shared_outs(%o = %e64) -> (tensor<8x64xf32>) {
    %panel = tensor.extract_slice %full[0, %j] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x64xf32> to tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x64xf32>
    }
  }
  %head = tensor.insert_slice %r into %e[0, 0] [8, 64] [1, 1] : tensor<8x64xf32> into tensor<8x72xf32>
  %rest = tensor.extract_slice %w[0, 64] [64, 8] [1, 1] : tensor<64x72xf32> to tensor<64x8xf32>
  %acc = tensor.extract_slice %head[0, 64] [8, 8] [1, 1] : tensor<8x72xf32> to tensor<8x8xf32>
  %m = linalg.matmul ins(%x, %rest : tensor<8x64xf32>, tensor<64x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = tensor.insert_slice %m into %head[0, 64] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x72xf32>
  return %y : tensor<8x72xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w: tensor<64x72xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<8x72xf32> {
  %y = call @host_dispatch_0(%x, %w) : (tensor<8x64xf32>, tensor<64x72xf32>) -> tensor<8x72xf32>
  return %y : tensor<8x72xf32>
}

// -----

// A remainder split again (BERT's 26 vocabulary columns after 953 panels:
// 16 and 10; here 90 columns, two tiles of 32 and 26 left): each part
// reads its columns of the last panel, the 10 from column 16.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%[[X:.+]]: tensor<8x64xf32>, %[[W:.+]]: tensor<3x64x32xf32> {dispatchlab.weight_panels})
// CHECK:         scf.forall
// CHECK:         %[[FIRST:.+]] = tensor.extract_slice %[[W]][2, 0, 0] [1, 64, 16] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x16xf32>
// CHECK:         linalg.matmul ins(%[[X]], %[[FIRST]] : tensor<8x64xf32>, tensor<64x16xf32>)
// CHECK:         %[[SECOND:.+]] = tensor.extract_slice %[[W]][2, 0, 16] [1, 64, 10] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x10xf32>
// CHECK:         linalg.matmul ins(%[[X]], %[[SECOND]] : tensor<8x64xf32>, tensor<64x10xf32>)
// CHECK-LABEL: func.func @host_initializer
// CHECK-SAME:    (%{{.+}}: tensor<64x90xf32> {dispatchlab.host_argument = 1 : i64}) -> tensor<3x64x32xf32>
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x90xf32>) -> tensor<8x90xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x90xf32>
  %full = tensor.extract_slice %w[0, 0] [64, 64] [1, 1] : tensor<64x90xf32> to tensor<64x64xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %r = scf.forall (%j) = (0) to (64) step (32) shared_outs(%o = %e64) -> (tensor<8x64xf32>) {
    %panel = tensor.extract_slice %full[0, %j] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x64xf32> to tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x64xf32>
    }
  }
  %head = tensor.insert_slice %r into %e[0, 0] [8, 64] [1, 1] : tensor<8x64xf32> into tensor<8x90xf32>
  %rest = tensor.extract_slice %w[0, 64] [64, 26] [1, 1] : tensor<64x90xf32> to tensor<64x26xf32>
  %rest16 = tensor.extract_slice %rest[0, 0] [64, 16] [1, 1] : tensor<64x26xf32> to tensor<64x16xf32>
  %acc16 = tensor.extract_slice %head[0, 64] [8, 16] [1, 1] : tensor<8x90xf32> to tensor<8x16xf32>
  %m16 = linalg.matmul ins(%x, %rest16 : tensor<8x64xf32>, tensor<64x16xf32>) outs(%acc16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mid = tensor.insert_slice %m16 into %head[0, 64] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<8x90xf32>
  %rest10 = tensor.extract_slice %rest[0, 16] [64, 10] [1, 1] : tensor<64x26xf32> to tensor<64x10xf32>
  %acc10 = tensor.extract_slice %mid[0, 80] [8, 10] [1, 1] : tensor<8x90xf32> to tensor<8x10xf32>
  %m10 = linalg.matmul ins(%x, %rest10 : tensor<8x64xf32>, tensor<64x10xf32>) outs(%acc10 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %y = tensor.insert_slice %m10 into %mid[0, 80] [8, 10] [1, 1] : tensor<8x10xf32> into tensor<8x90xf32>
  return %y : tensor<8x90xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w: tensor<64x90xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<8x90xf32> {
  %y = call @host_dispatch_0(%x, %w) : (tensor<8x64xf32>, tensor<64x90xf32>) -> tensor<8x90xf32>
  return %y : tensor<8x90xf32>
}

// -----

// A remainder wider than one panel (48 columns after two tiles of 32)
// does not fit the layout: the weight is read as it is.
// CHECK-LABEL: func.func private @host_dispatch_0
// CHECK-SAME:    (%{{.+}}: tensor<8x64xf32>, %{{.+}}: tensor<64x112xf32>)
// CHECK-NOT:   @host_initializer
func.func private @host_dispatch_0(%x: tensor<8x64xf32>, %w: tensor<64x112xf32>) -> tensor<8x112xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x112xf32>
  %full = tensor.extract_slice %w[0, 0] [64, 64] [1, 1] : tensor<64x112xf32> to tensor<64x64xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %r = scf.forall (%j) = (0) to (64) step (32) shared_outs(%o = %e64) -> (tensor<8x64xf32>) {
    %panel = tensor.extract_slice %full[0, %j] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
    %acc = tensor.extract_slice %o[0, %j] [8, 32] [1, 1] : tensor<8x64xf32> to tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %panel : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x64xf32>
    }
  }
  %rest = tensor.extract_slice %w[0, 64] [64, 48] [1, 1] : tensor<64x112xf32> to tensor<64x48xf32>
  %acc = tensor.extract_slice %e[0, 64] [8, 48] [1, 1] : tensor<8x112xf32> to tensor<8x48xf32>
  %m = linalg.matmul ins(%x, %rest : tensor<8x64xf32>, tensor<64x48xf32>) outs(%acc : tensor<8x48xf32>) -> tensor<8x48xf32>
  %y = tensor.insert_slice %m into %e[0, 64] [8, 48] [1, 1] : tensor<8x48xf32> into tensor<8x112xf32>
  return %y : tensor<8x112xf32>
}
func.func @host(%x: tensor<8x64xf32>, %w: tensor<64x112xf32> {dispatchlab.parameter = "fc.weight"}) -> tensor<8x112xf32> {
  %y = call @host_dispatch_0(%x, %w) : (tensor<8x64xf32>, tensor<64x112xf32>) -> tensor<8x112xf32>
  return %y : tensor<8x112xf32>
}

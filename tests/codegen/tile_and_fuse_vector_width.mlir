// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-transpose-weights,dispatchlab-tile-and-fuse-dispatches,canonicalize,cse))' | FileCheck %s --check-prefix=W16
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-transpose-weights,dispatchlab-tile-and-fuse-dispatches{vector-width=8},canonicalize,cse))' | FileCheck %s --check-prefix=W8
// RUN: not dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-tile-and-fuse-dispatches{vector-width=0}))' 2>&1 | FileCheck %s --check-prefix=ERR

// `vector-width` (16 by default, AVX-512; the codegen pipeline passes the
// host's) sets the lanes the innermost tile is a multiple of. 144 channels
// go 16 at a time with 16 lanes, 24 (three vectors) with 8.
// W16-LABEL: func.func @channels_dispatch
// W16:         scf.forall (%{{.+}}) = (0) to (144) step (16)
// W8-LABEL:  func.func @channels_dispatch
// W8:          scf.forall (%{{.+}}) = (0) to (144) step (24)
// W8:            linalg.generic {{.+}} outs(%{{.+}} : tensor<8x24xf32>)
// ERR: error: vector-width must be positive, got 0
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @channels_dispatch(%x: tensor<8x144xf32>) -> tensor<8x144xf32> attributes {dispatchlab.dispatch} {
  %e = tensor.empty() : tensor<8x144xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x144xf32>) outs(%e : tensor<8x144xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x144xf32>
  return %r : tensor<8x144xf32>
}

// -----

// A transposed weight that is a model input stays in the dispatch: it is
// transposed in square blocks of the vector width.
// W16-LABEL: func.func @transposed_rhs_dispatch
// W16:         linalg.transpose ins(%{{.+}} : tensor<16x16xf32>) outs(%{{.+}} : tensor<16x16xf32>)
// W8-LABEL:  func.func @transposed_rhs_dispatch
// W8:          linalg.transpose ins(%{{.+}} : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#o = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_rhs_dispatch(%x: tensor<8x64xf32>, %w: tensor<32x64xf32>) -> tensor<8x32xf32> attributes {dispatchlab.dispatch} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<8x64xf32>, tensor<32x64xf32>) outs(%fill : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

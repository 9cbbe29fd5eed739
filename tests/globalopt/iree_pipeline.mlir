// pipeline=iree runs the GlobalOptimization steps before dispatch creation,
// each behind its knob; pipeline=full runs none of them.
//
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{pipeline=iree})' | FileCheck %s --check-prefix=IREE
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{pipeline=full})' | FileCheck %s --check-prefix=FULL
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{pipeline=iree aggressive-transpose-propagation=true})' | FileCheck %s --check-prefix=AGGR
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{pipeline=iree raise-special-ops=false detach-elementwise=false decompose-concat=false erase-unused-operands=false propagate-transposes=false batch-matmul-to-matmul=false strided-contraction-to-contraction=false})' | FileCheck %s --check-prefix=FULL
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(dispatchlab-dispatch-creation{pipeline=iree demote-contraction-inputs-operations=matmul demote-contraction-inputs-type=bf16})' | FileCheck %s --check-prefix=DEMOTE

// raise-special-ops: the softmax chain becomes one linalg.softmax dispatch;
// without it, the max and the sum are two reduction roots.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x32xf32>
  %mfill = linalg.fill ins(%lowest : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x32xf32>) outs(%mfill : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x32xf32>, tensor<4xf32>) outs(%e2 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp : tensor<4x32xf32>) outs(%e2 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x32xf32>
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x32xf32>) outs(%sfill : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<4x32xf32>, tensor<4xf32>) outs(%e2 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}
// IREE-LABEL: func.func @softmax(
//       IREE:   dispatch.region
//  IREE-NEXT:     tensor.empty
//  IREE-NEXT:     linalg.softmax
//   IREE-NOT:   dispatch.region
// FULL-LABEL: func.func @softmax(
//   FULL-NOT:   linalg.softmax
//       FULL:   dispatch.region
//       FULL:   dispatch.region
//   FULL-NOT:   dispatch.region
//       FULL:   return

// -----

// detach-elementwise: the matmul accumulates into a zero fill, cloned into
// its dispatch, and the bias broadcast is added by an epilogue.
#b = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_bias_init(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// IREE-LABEL: func.func @matmul_bias_init(
//       IREE:   dispatch.region
//       IREE:     linalg.fill
//       IREE:     %[[MM:.+]] = linalg.matmul
//       IREE:     linalg.generic {{.*}}ins(%[[MM]], %{{.+}} :
//       IREE:       arith.addf
//   IREE-NOT:   dispatch.region
// FULL-LABEL: func.func @matmul_bias_init(
//   FULL-NOT:   linalg.fill
//       FULL:   return

// -----

// decompose-concat: an inner-dim concat becomes insert_slices, here of
// function arguments into an empty tensor: a copy dispatch each. Without
// it the concat forms no dispatch at all.
func.func @inner_concat(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return %c : tensor<4x16xf32>
}
// IREE-LABEL: func.func @inner_concat(
//   IREE-NOT:   tensor.concat
//       IREE:   dispatch.region
//  IREE-NEXT:     tensor.insert_slice
//       IREE:   {dispatchlab.kind = "copy"}
//       IREE:   dispatch.region
//  IREE-NEXT:     tensor.insert_slice
//       IREE:   {dispatchlab.kind = "copy"}
// FULL-LABEL: func.func @inner_concat(
//   FULL-NOT:   dispatch.region
//       FULL:   tensor.concat dim(1)

// -----

// propagate-transposes: the transposed RHS folds into the matmul
// (matmul_transpose_b), one dispatch; without it the transpose is an
// elementwise root of its own in front of the matmul.
func.func @transposed_rhs(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.transpose ins(%bt : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %eo = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}
// IREE-LABEL: func.func @transposed_rhs(
//   IREE-NOT:   linalg.transpose
//       IREE:   dispatch.region
//       IREE:     linalg.matmul indexing_maps
//   IREE-NOT:   dispatch.region
// FULL-LABEL: func.func @transposed_rhs(
//       FULL:   dispatch.region
//       FULL:     linalg.generic
//       FULL:   dispatch.region
//       FULL:     linalg.matmul

// -----

// aggressive-transpose-propagation (IREE's O3 option): a projection split
// into heads. By default the matmul stays named, the head transpose stops
// at its result and forms a dispatch with the bias add; with the knob the
// matmul is generalized and writes its result heads-first, one dispatch.
func.func @attention_heads(%a: tensor<128x64xf32>, %w: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<4x128x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<128x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ei : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%init : tensor<128x64xf32>) -> tensor<128x64xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x64xf32>, tensor<64xf32>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  %heads = tensor.expand_shape %add [[0], [1, 2]] output_shape [128, 4, 16] : tensor<128x64xf32> into tensor<128x4x16xf32>
  %et = tensor.empty() : tensor<4x128x16xf32>
  %t = linalg.transpose ins(%heads : tensor<128x4x16xf32>) outs(%et : tensor<4x128x16xf32>) permutation = [1, 0, 2]
  return %t : tensor<4x128x16xf32>
}
// IREE-LABEL: func.func @attention_heads(
//       IREE:   dispatch.region
//       IREE:     linalg.matmul
//       IREE:   dispatch.region
//       IREE:     linalg.generic
// AGGR-LABEL: func.func @attention_heads(
//   AGGR-NOT:   linalg.matmul
//       AGGR:   dispatch.region
//       AGGR:     linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
//       AGGR:     } -> tensor<4x128x16xf32>
//   AGGR-NOT:   dispatch.region
//       AGGR:   return

// -----

// batch-matmul-to-matmul: the batch_matmul of a broadcast weight becomes
// one linalg.matmul on the weight, between reshapes, in one dispatch;
// without it the broadcast is an elementwise root of its own.
// demote-contraction-inputs-operations runs first (IREE's order): the RHS is then a
// truncation of the broadcast, no pure broadcast, so the batch_matmul stays
// and reads two truncations, each a dispatch.
func.func @broadcast_weight(%act: tensor<4x10x8xf32>, %weight: tensor<8x6xf32>) -> tensor<4x10x6xf32> {
  %eb = tensor.empty() : tensor<4x8x6xf32>
  %b = linalg.broadcast ins(%weight : tensor<8x6xf32>) outs(%eb : tensor<4x8x6xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<4x10x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  %r = linalg.batch_matmul ins(%act, %b : tensor<4x10x8xf32>, tensor<4x8x6xf32>) outs(%fill : tensor<4x10x6xf32>) -> tensor<4x10x6xf32>
  return %r : tensor<4x10x6xf32>
}
// IREE-LABEL: func.func @broadcast_weight(
//       IREE:   tensor.collapse_shape
//       IREE:   dispatch.region
//       IREE:     linalg.matmul
//   IREE-NOT:   dispatch.region
//       IREE:   tensor.expand_shape
// FULL-LABEL: func.func @broadcast_weight(
//       FULL:   dispatch.region
//       FULL:     linalg.generic
//       FULL:   dispatch.region
//       FULL:     linalg.batch_matmul
// DEMOTE-LABEL: func.func @broadcast_weight(
//       DEMOTE:   dispatch.region
//       DEMOTE:     arith.truncf %{{.+}} : f32 to bf16
//       DEMOTE:   dispatch.region
//       DEMOTE:     arith.truncf %{{.+}} : f32 to bf16
//       DEMOTE:   dispatch.region
//       DEMOTE:     linalg.batch_matmul {{.+}} : tensor<4x10x8xbf16>, tensor<4x8x6xbf16>)

// -----

// strided-contraction-to-contraction: a strided 1x1 convolution (its unit
// filter dims folded) reads a strided slice of its input, which is cloned
// into its dispatch, and becomes a plain contraction; without it the
// generic reads the input through `d0 * 2`. One dispatch either way.
func.func @strided_1x1_conv(%in: tensor<1x16x16x8xf32>, %f: tensor<1x1x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x16x16x8xf32>, tensor<1x1x8x32xf32>) outs(%fill : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
// The map aliases print above the function.
//       FULL:   = affine_map<(d0, d1, d2, d3) -> (d0 * 2, d1 * 2, d3)>
// IREE-LABEL: func.func @strided_1x1_conv(
//       IREE:   dispatch.region
//       IREE:     tensor.extract_slice %{{.+}}[0, 0, 0] [8, 8, 8] [2, 2, 1]
//       IREE:     linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}]
//   IREE-NOT:   dispatch.region
// FULL-LABEL: func.func @strided_1x1_conv(
//   FULL-NOT:   tensor.extract_slice
//       FULL:   dispatch.region
//   FULL-NOT:   tensor.extract_slice
//       FULL:     linalg.generic

// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-demote-contraction-inputs{type=bf16 operation=matmul}))' | FileCheck %s --check-prefix=BF16-MATMUL
// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-demote-contraction-inputs{type=bf16 operation=conv}))' | FileCheck %s --check-prefix=BF16-CONV
// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-demote-contraction-inputs{type=f16 operation=all}))' | FileCheck %s --check-prefix=F16-ALL
// RUN: dispatchlab-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(dispatchlab-demote-contraction-inputs{operation=none}))' | FileCheck %s --check-prefix=NONE

// One case per rule of DemoteContractionInputs (IREE's GlobalOptimization
// pass of that name, as of IREE b48a5955; `type` and `operation` are its
// options), written after IREE's demote_contraction_inputs.mlir. The
// `none` operation (the pipeline's default) changes nothing anywhere.

// A plain matmul with f32 operands: each input goes through an identity
// truncf generic, the f32 init stays. Demoted under matmul and all, not
// under conv.
func.func @matmul(%a: tensor<100x250xf32>, %b: tensor<250x500xf32>, %c: tensor<100x500xf32>) -> tensor<100x500xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<100x250xf32>, tensor<250x500xf32>) outs(%c : tensor<100x500xf32>) -> tensor<100x500xf32>
  return %r : tensor<100x500xf32>
}
// BF16-MATMUL-LABEL: func.func @matmul(
//  BF16-MATMUL-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<100x250xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<250x500xf32>, %[[C:[a-zA-Z0-9]+]]: tensor<100x500xf32>)
//       BF16-MATMUL:   %[[EA:.+]] = tensor.empty() : tensor<100x250xbf16>
//       BF16-MATMUL:   %[[DA:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[A]] : tensor<100x250xf32>) outs(%[[EA]] : tensor<100x250xbf16>)
//       BF16-MATMUL:     arith.truncf %{{.+}} : f32 to bf16
//       BF16-MATMUL:   %[[DB:.+]] = linalg.generic
//  BF16-MATMUL-SAME:       ins(%[[B]] : tensor<250x500xf32>)
//       BF16-MATMUL:     arith.truncf %{{.+}} : f32 to bf16
//       BF16-MATMUL:   linalg.matmul ins(%[[DA]], %[[DB]] : tensor<100x250xbf16>, tensor<250x500xbf16>) outs(%[[C]] : tensor<100x500xf32>)
// BF16-CONV-LABEL: func.func @matmul(
//   BF16-CONV-NOT:   arith.truncf
//       BF16-CONV:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<100x250xf32>, tensor<250x500xf32>)
// F16-ALL-LABEL: func.func @matmul(
//       F16-ALL:     arith.truncf %{{.+}} : f32 to f16
//       F16-ALL:     arith.truncf %{{.+}} : f32 to f16
//       F16-ALL:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<100x250xf16>, tensor<250x500xf16>) outs(%{{.+}} : tensor<100x500xf32>)
// NONE-LABEL: func.func @matmul(
//   NONE-NOT:   arith.truncf
//       NONE:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<100x250xf32>, tensor<250x500xf32>)

// -----

// Dynamic shapes: the truncf generics' inits take their sizes from the
// inputs.
func.func @dynamic_batch_matmul(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>, %c: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%c : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// BF16-MATMUL-LABEL: func.func @dynamic_batch_matmul(
//  BF16-MATMUL-SAME:     %[[A:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>
//   BF16-MATMUL-DAG:   %[[D0:.+]] = tensor.dim %[[A]], %c0
//   BF16-MATMUL-DAG:   %[[D1:.+]] = tensor.dim %[[A]], %c1
//   BF16-MATMUL-DAG:   %[[D2:.+]] = tensor.dim %[[A]], %c2
//       BF16-MATMUL:   tensor.empty(%[[D0]], %[[D1]], %[[D2]]) : tensor<?x?x?xbf16>
//       BF16-MATMUL:   linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<?x?x?xbf16>, tensor<?x?x?xbf16>) outs(%{{.+}} : tensor<?x?x?xf32>)

// -----

// The matrix-vector ops of IREE's list: matvec, vecmat, batch_matvec,
// batch_vecmat.
func.func @matvec_family(%m: tensor<100x250xf32>, %v: tensor<250xf32>, %o: tensor<100xf32>,
                         %vt: tensor<100xf32>, %ot: tensor<250xf32>,
                         %bm: tensor<4x100x250xf32>, %bv: tensor<4x250xf32>, %bo: tensor<4x100xf32>,
                         %bvt: tensor<4x100xf32>, %bot: tensor<4x250xf32>)
    -> (tensor<100xf32>, tensor<250xf32>, tensor<4x100xf32>, tensor<4x250xf32>) {
  %0 = linalg.matvec ins(%m, %v : tensor<100x250xf32>, tensor<250xf32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
  %1 = linalg.vecmat ins(%vt, %m : tensor<100xf32>, tensor<100x250xf32>) outs(%ot : tensor<250xf32>) -> tensor<250xf32>
  %2 = linalg.batch_matvec ins(%bm, %bv : tensor<4x100x250xf32>, tensor<4x250xf32>) outs(%bo : tensor<4x100xf32>) -> tensor<4x100xf32>
  %3 = linalg.batch_vecmat ins(%bvt, %bm : tensor<4x100xf32>, tensor<4x100x250xf32>) outs(%bot : tensor<4x250xf32>) -> tensor<4x250xf32>
  return %0, %1, %2, %3 : tensor<100xf32>, tensor<250xf32>, tensor<4x100xf32>, tensor<4x250xf32>
}
// BF16-MATMUL-LABEL: func.func @matvec_family(
//       BF16-MATMUL:   linalg.matvec ins(%{{.+}}, %{{.+}} : tensor<100x250xbf16>, tensor<250xbf16>) outs(%{{.+}} : tensor<100xf32>)
//       BF16-MATMUL:   linalg.vecmat ins(%{{.+}}, %{{.+}} : tensor<100xbf16>, tensor<100x250xbf16>) outs(%{{.+}} : tensor<250xf32>)
//       BF16-MATMUL:   linalg.batch_matvec ins(%{{.+}}, %{{.+}} : tensor<4x100x250xbf16>, tensor<4x250xbf16>) outs(%{{.+}} : tensor<4x100xf32>)
//       BF16-MATMUL:   linalg.batch_vecmat ins(%{{.+}}, %{{.+}} : tensor<4x100xbf16>, tensor<4x100x250xbf16>) outs(%{{.+}} : tensor<4x250xf32>)

// -----

// The transpose_a/b forms of matmul and batch_matmul keep their maps.
func.func @transposed_forms(%a: tensor<250x100xf32>, %b: tensor<250x500xf32>, %c: tensor<100x500xf32>,
                            %ba: tensor<4x100x250xf32>, %bb: tensor<4x500x250xf32>, %bc: tensor<4x100x500xf32>)
    -> (tensor<100x500xf32>, tensor<4x100x500xf32>) {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                      affine_map<(d0, d1, d2) -> (d2, d1)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<250x100xf32>, tensor<250x500xf32>) outs(%c : tensor<100x500xf32>) -> tensor<100x500xf32>
  %1 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%ba, %bb : tensor<4x100x250xf32>, tensor<4x500x250xf32>) outs(%bc : tensor<4x100x500xf32>) -> tensor<4x100x500xf32>
  return %0, %1 : tensor<100x500xf32>, tensor<4x100x500xf32>
}
// BF16-MATMUL-LABEL: func.func @transposed_forms(
//       BF16-MATMUL:   linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  BF16-MATMUL-SAME:       ins(%{{.+}}, %{{.+}} : tensor<250x100xbf16>, tensor<250x500xbf16>)
//       BF16-MATMUL:   linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
//  BF16-MATMUL-SAME:       ins(%{{.+}}, %{{.+}} : tensor<4x100x250xbf16>, tensor<4x500x250xbf16>)

// -----

// Negative: a matmul with maps of no listed form (a broadcast LHS) stays.
func.func @matmul_other_maps(%a: tensor<250xf32>, %b: tensor<250x500xf32>, %c: tensor<100x500xf32>) -> tensor<100x500xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>,
                                      affine_map<(d0, d1, d2) -> (d2, d1)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<250xf32>, tensor<250x500xf32>) outs(%c : tensor<100x500xf32>) -> tensor<100x500xf32>
  return %r : tensor<100x500xf32>
}
// F16-ALL-LABEL: func.func @matmul_other_maps(
//   F16-ALL-NOT:   arith.truncf
//       F16-ALL:   linalg.matmul

// -----

// Negative: an operand that is not f32 (an f64 accumulator) leaves the op.
func.func @f64_init(%a: tensor<100x250xf32>, %b: tensor<250x500xf32>, %c: tensor<100x500xf64>) -> tensor<100x500xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<100x250xf32>, tensor<250x500xf32>) outs(%c : tensor<100x500xf64>) -> tensor<100x500xf64>
  return %r : tensor<100x500xf64>
}
// F16-ALL-LABEL: func.func @f64_init(
//   F16-ALL-NOT:   arith.truncf
//       F16-ALL:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<100x250xf32>, tensor<250x500xf32>) outs(%{{.+}} : tensor<100x500xf64>)

// -----

// Negative: a generic contraction (what generalization makes of a matmul)
// is no named op of the list, so in IREE's pipeline, after
// GeneralizeLinalgNamedOps, generalized convolutions are never demoted.
func.func @generic_contraction(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>, %c: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d2, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>) outs(%c : tensor<16x12xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}
// F16-ALL-LABEL: func.func @generic_contraction(
//   F16-ALL-NOT:   arith.truncf
//       F16-ALL:   linalg.generic

// -----

// A named 2-D convolution: demoted under conv and all, not under matmul.
func.func @conv_2d_nchw_fchw(%in: tensor<1x16x130x130xf32>, %f: tensor<512x16x3x3xf32>, %o: tensor<1x512x128x128xf32>) -> tensor<1x512x128x128xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %f : tensor<1x16x130x130xf32>, tensor<512x16x3x3xf32>) outs(%o : tensor<1x512x128x128xf32>) -> tensor<1x512x128x128xf32>
  return %r : tensor<1x512x128x128xf32>
}
// BF16-MATMUL-LABEL: func.func @conv_2d_nchw_fchw(
//   BF16-MATMUL-NOT:   arith.truncf
//       BF16-MATMUL:   linalg.conv_2d_nchw_fchw
// BF16-CONV-LABEL: func.func @conv_2d_nchw_fchw(
//  BF16-CONV-SAME:     %[[IN:[a-zA-Z0-9]+]]: tensor<1x16x130x130xf32>, %[[F:[a-zA-Z0-9]+]]: tensor<512x16x3x3xf32>, %[[O:[a-zA-Z0-9]+]]: tensor<1x512x128x128xf32>)
//       BF16-CONV:   %[[DI:.+]] = linalg.generic {{.+}} ins(%[[IN]] : tensor<1x16x130x130xf32>) outs(%{{.+}} : tensor<1x16x130x130xbf16>)
//       BF16-CONV:     arith.truncf
//       BF16-CONV:   %[[DF:.+]] = linalg.generic {{.+}} ins(%[[F]] : tensor<512x16x3x3xf32>) outs(%{{.+}} : tensor<512x16x3x3xbf16>)
//       BF16-CONV:     arith.truncf
//       BF16-CONV:   linalg.conv_2d_nchw_fchw ins(%[[DI]], %[[DF]] : tensor<1x16x130x130xbf16>, tensor<512x16x3x3xbf16>) outs(%[[O]] : tensor<1x512x128x128xf32>)
// F16-ALL-LABEL: func.func @conv_2d_nchw_fchw(
//       F16-ALL:   linalg.conv_2d_nchw_fchw ins(%{{.+}}, %{{.+}} : tensor<1x16x130x130xf16>, tensor<512x16x3x3xf16>)

// -----

// A strided, dilated convolution keeps its strides and dilations (IREE's
// rewrite leaves them out, which would make it a unit-stride one).
func.func @strided_conv_2d_nhwc_hwcf(%in: tensor<1x17x17x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x17x17x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %r : tensor<1x7x7x16xf32>
}
// BF16-CONV-LABEL: func.func @strided_conv_2d_nhwc_hwcf(
//       BF16-CONV:   linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x17x17x8xbf16>, tensor<3x3x8x16xbf16>)

// -----

// Negative: a convolution outside IREE's list (depthwise) stays.
func.func @depthwise_conv(%in: tensor<1x10x10x8xf32>, %f: tensor<3x3x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
// F16-ALL-LABEL: func.func @depthwise_conv(
//   F16-ALL-NOT:   arith.truncf
//       F16-ALL:   linalg.depthwise_conv_2d_nhwc_hwc

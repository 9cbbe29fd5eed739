//===- Passes.td - the ONNX importer's cleanups -------------*- tablegen -*-===//
//
// Passes the importer runs on its own output after lowering TOSA to linalg.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_PASSES_TD
#define DISPATCHLAB_CORE_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

def SinkLayoutTransposesPass
    : InterfacePass<"dispatchlab-sink-layout-transposes",
                    "mlir::FunctionOpInterface"> {
  let summary = "Sink the importer's NHWC->NCHW transposes through "
                "elementwise ops, so activations stay channels-last";
  let description = [{
    The importer computes convolutions and pools in TOSA's NHWC and
    transposes back to ONNX's NCHW after each; tosa-reduce-transposes
    cancels a pair only when every path from a transpose ends in its
    inverse, which a residual stream (an add whose result feeds both the
    next block's convolution and the next add) never does. So ResNet's
    residual adds and ReLUs ran in NCHW, with a transpose on each side.

    Rules, applied to a fixed point:
    - An elementwise `linalg.generic` (parallel loops, one result with an
      identity map whose init it does not read, no `linalg.index`) whose
      every input read through an identity map is a `linalg.transpose` by
      the same permutation P, and whose users are all transposes, slices
      or such elementwise ops, is computed before the transposes: it reads
      their inputs, its other (broadcast) inputs read through their maps
      composed with P, and one transpose by P of its result replaces it.
      This is IREE's SinkTransposeThroughUnaryElementwiseInput
      (GlobalOptimization/PropagateLinalgTranspose) for inputs that are all
      transposed alike, where IREE's rule takes a single one.
    - A transpose of a transpose becomes one transpose, or none when the
      two cancel (IREE's ComposeTransposes; upstream's canonicalization of
      linalg.transpose does it).
    - A slice of a transpose becomes a transpose of a slice (IREE's
      SinkTransposeThroughExtractSlice), for slices that keep their rank.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // DISPATCHLAB_CORE_ONNX_PASSES_TD

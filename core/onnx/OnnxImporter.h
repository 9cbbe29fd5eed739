//===- OnnxImporter.h - ONNX model to linalg-on-tensors ---------*- C++ -*-===//
//
// Imports an ONNX model (`.onnx` binary or `.onnxtxt` text) into one
// `func.func @main` of linalg-on-tensors IR, the input `dispatchlab compile`
// forms dispatches from. The model is checked (onnx::checker) and its shapes
// inferred (onnx::shape_inference) with every dynamic input dim bound first:
// `dims` by dim_param name, then `batch` for a leading dim still dynamic. A
// dim left dynamic is an error naming the input.
//
// Operators lower to TOSA where TOSA has them and to linalg/tensor/arith
// where it has not; the upstream TOSA passes (tosa-reduce-transposes, which
// cancels the NCHW<->NHWC transposes around TOSA's convolutions and pools,
// tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor) then
// finish the lowering. Every op gets a NameLoc of its ONNX node name (or first
// output name), so compile reports name ops by the model's names.
//
// Weights are parameters, never inline constants. Each initializer that the
// computation reads becomes a `@main` argument carrying
//   {dispatchlab.parameter = "<initializer name>"}.
// Work that depends only on weights (layout transposes, reshapes, gate
// slices, kernel flips, casts, BatchNormalization folded into a conv's weight
// and bias) is imported as IR into a second function, the parameter function
// `@main_parameters` (private, tagged {dispatchlab.parameters_of = @main}).
// It takes the initializers it reads, tagged like `@main`'s, and returns
// the derived weights; `@main` takes each as an argument carrying
//   {dispatchlab.parameter_result = <index of the result>},
// so dispatch formation sees exactly the weights a layer reads, and no
// dispatch exists only to relayout a weight. It runs once when a model is
// loaded with its weights (IREE hoists such work into initializers the same
// way). Derived weights computed the same way are one argument, as each
// initializer is. The IR is the same whether or not the file carries weight
// data (values never enter it), so a model with stripped weights imports to
// exactly the IR of the full model, and compile stays fast on large models.
// Two kinds of initializer data are read on the host: integer tensors of at
// most 1024 elements and scalars (shape operands, epsilons), which fold
// import-time shape computations (Shape, Gather, Concat, ... on static
// shapes) and are inlined when a computation reads them.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_ONNXIMPORTER_H
#define DISPATCHLAB_CORE_ONNX_ONNXIMPORTER_H

#include "core/support/WeightArguments.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <string>

namespace dispatchlab {

/// The parameter function of `module`, or null when no weight is derived.
mlir::func::FuncOp findParameterFunction(mlir::ModuleOp module);

struct OnnxImportOptions {
  /// Value of a model input's leading dim when it is dynamic and not named
  /// in `dims`.
  int64_t batch = 1;
  /// Values of dynamic dims by their dim_param name.
  std::map<std::string, int64_t> dims;
};

/// Imports the model at `path`. Errors are reported as one-line diagnostics
/// at the file's location (`path:0:0: error: ...`); never crashes on
/// malformed input.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxModel(llvm::StringRef path, mlir::MLIRContext &context,
                const OnnxImportOptions &options);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ONNX_ONNXIMPORTER_H

//===- Passes.h - dispatchlab codegen passes --------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PASSES_H
#define DISPATCHLAB_CORE_CODEGEN_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dispatchlab {

/// Unit attribute on the functions OutlineDispatchRegions creates.
inline constexpr llvm::StringLiteral kDispatchFunctionAttr =
    "dispatchlab.dispatch";

#define GEN_PASS_DECL
#include "core/codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "core/codegen/Passes.h.inc"

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_PASSES_H

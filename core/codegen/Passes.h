//===- Passes.h - dispatchlab codegen passes --------------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PASSES_H
#define DISPATCHLAB_CORE_CODEGEN_PASSES_H

#include "core/support/WeightArguments.h"
#include "heuristics/DispatchDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
/// On those functions: the dispatch's FLOPs and the bytes it reads and
/// writes (core/analysis/CompileStats.h's DispatchWork).
inline constexpr llvm::StringLiteral kDispatchFlopsAttr = "dispatchlab.flops";
inline constexpr llvm::StringLiteral kDispatchBytesAttr = "dispatchlab.bytes";

/// On a dispatch region (FillPaddingBorders): per result, the interior
/// box (offsets, then sizes) outside which the result holds zeros, or an
/// empty array. OutlineDispatchRegions hands it to the arguments of the
/// dispatches reading that result as kZeroPaddedInteriorAttr, which
/// SkipPaddingTaps reads.
inline constexpr llvm::StringLiteral kZeroPaddedResultsAttr =
    "dispatchlab.zero_padded_results";
inline constexpr llvm::StringLiteral kZeroPaddedInteriorAttr =
    "dispatchlab.zero_padded_interior";

/// Marks the transposes TransposeWeights creates: tiled on their own, never
/// fused into a tile loop.
inline constexpr llvm::StringLiteral kWeightTransposeAttr =
    "dispatchlab.weight_transpose";

/// Marks a dispatch argument PackWeightPanels laid out in column panels
/// ([panels, d0, ..., T]); PrefetchWeightPanels reads it.
inline constexpr llvm::StringLiteral kWeightPanelsAttr =
    "dispatchlab.weight_panels";

/// The external functions InstrumentDispatchCalls calls around each dispatch
/// call, with the call site's index (i64), and the module attribute naming
/// each index's callee (an array of strings).
inline constexpr llvm::StringLiteral kDispatchBeginFunction =
    "dispatchlab_dispatch_begin";
inline constexpr llvm::StringLiteral kDispatchEndFunction =
    "dispatchlab_dispatch_end";
inline constexpr llvm::StringLiteral kDispatchCallsAttr =
    "dispatchlab.dispatch_calls";

#define GEN_PASS_DECL
#include "core/codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "core/codegen/Passes.h.inc"

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_PASSES_H

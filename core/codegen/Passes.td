//===- Passes.td - dispatchlab codegen passes ---------------*- tablegen -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PASSES_TD
#define DISPATCHLAB_CORE_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def OutlineDispatchRegionsPass
    : Pass<"dispatchlab-outline-dispatch-regions", "mlir::ModuleOp"> {
  let summary = "Outline each dispatch.region into its own func.func";
  let description = [{
    Every `dispatch.region` becomes a private `func.func` named like the
    reports name it (`<function>_dispatch_<n>`): the values it captures from
    above become arguments, the values its `dispatch.return` yields become
    results. The region is replaced by a `func.call`, so the host function
    calls the dispatches in program order and each one can be compiled on
    its own.
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TileAndFuseDispatchesPass
    : Pass<"dispatchlab-tile-and-fuse-dispatches", "mlir::func::FuncOp"> {
  let summary = "Tile each dispatch's last op and fuse its producers into "
                "the tile loops";
  let description = [{
    Runs on the functions OutlineDispatchRegions created. The op producing the
    dispatch's results (or the value a result inserts into a captured tensor)
    is tiled along its parallel loops (the innermost two
    get `tile-sizes`, outer ones 1) with scf.for, and every producer inside
    the dispatch (matmul, fill, elementwise ops) is fused into the innermost
    loop, so intermediate values exist one tile at a time: a fused matmul +
    epilogue never materializes the full matmul result (iree-org/iree#8303).
    Reduction loops of the tiled ops are then tiled by
    `reduction-tile-size`, keeping vectors small. A tile size is the largest
    divisor of the loop's extent not above the target, so every tile is
    full and statically shaped (vectorizable without masks). Dispatches
    whose results come from several ops, or from non-Linalg ops, or with
    dynamic shapes are left untiled.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Target tile sizes of the innermost two parallel loops">,
    Option<"reductionTileSize", "reduction-tile-size", "int64_t", "16",
           "Target tile size of reduction loops">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def VectorizeDispatchesPass
    : Pass<"dispatchlab-vectorize-dispatches", "mlir::func::FuncOp"> {
  let summary = "Vectorize the statically shaped Linalg ops of dispatches";
  let description = [{
    Every Linalg op in a dispatch function whose iteration space is static
    and at most `max-vector-elements` large becomes vector ops (upstream
    linalg::vectorize, contractions as vector.contract, which lowers to
    FMAs); others stay as they are and become loops later.
  }];
  let options = [
    Option<"maxVectorElements", "max-vector-elements", "int64_t", "4096",
           "Largest iteration space (product of loop extents) vectorized">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def LowerVectorsPass : Pass<"dispatchlab-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "Lower n-D vector ops to what convert-vector-to-llvm takes";
  let description = [{
    Upstream vector lowering patterns, applied to a fixpoint after
    bufferization: contractions to outer products and FMAs, multi-reductions
    to element-wise ops across the parallel dims, transposes and broadcasts to element-wise
    inserts, and transfer permutation maps to minor-identity transfers plus
    broadcasts/transposes. convert-vector-to-scf then unrolls the n-D
    transfers to 1-D ones.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // DISPATCHLAB_CORE_CODEGEN_PASSES_TD

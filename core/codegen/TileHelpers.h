//===- TileHelpers.h - what both tiling passes do alike ---------*- C++ -*-===//
//
// Shared by dispatchlab-tile-and-fuse-dispatches and
// dispatchlab-tile-data-tiled-dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_TILEHELPERS_H
#define DISPATCHLAB_CORE_CODEGEN_TILEHELPERS_H

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace dispatchlab {

/// The largest divisor of `extent` not above `target`: full tiles only.
int64_t getFullTileSize(int64_t extent, int64_t target);

/// Erases the ops of `ops` left without uses (some only once others are
/// gone), as fused producers are once every consumer has its own copy.
void eraseDead(mlir::RewriterBase &rewriter,
               llvm::SmallVector<mlir::Operation *> &ops);

/// After splitOp, a part reads slices of the dispatch's intermediate
/// values; each such slice becomes the producer computed on that slice
/// only (transitively), so tiling the part fuses the producers again.
/// Producers `keepWhole` holds stay as they are. The original producers are
/// added to `originals`.
mlir::LogicalResult
sliceProducers(mlir::RewriterBase &rewriter, mlir::Operation *part,
               llvm::SetVector<mlir::Operation *> &originals,
               llvm::function_ref<bool(mlir::Operation *)> keepWhole);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_TILEHELPERS_H

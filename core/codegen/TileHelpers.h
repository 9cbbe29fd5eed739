//===- TileHelpers.h - what both tiling passes do alike ---------*- C++ -*-===//
//
// Shared by dispatchlab-tile-and-fuse-dispatches and
// dispatchlab-tile-data-tiled-dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_TILEHELPERS_H
#define DISPATCHLAB_CORE_CODEGEN_TILEHELPERS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/SetVector.h"

namespace dispatchlab {

/// The largest divisor of `extent` not above `target`: full tiles only.
int64_t getFullTileSize(int64_t extent, int64_t target);

/// Erases the ops of `ops` left without uses (some only once others are
/// gone), as fused producers are once every consumer has its own copy.
void eraseDead(mlir::RewriterBase &rewriter,
               llvm::SmallVector<mlir::Operation *> &ops);

/// Splits `root` along `loop` at `at` (linalg::splitOp) into a head and a
/// tail whose producers are sliced to each part: a part reads slices of the
/// dispatch's intermediate values, and each such slice becomes the
/// producer computed on that slice only (transitively), so tiling the part
/// fuses the producers again. Producers `keepWhole` holds stay as they are;
/// the original producers are added to `originals`.
///
/// splitOp gives the tail, as init, its slice of the head's result
/// inserted into the original init. Where the two parts write disjoint
/// slices the tail reads the original init instead, so that its init's
/// producer (a bias broadcast) is sliced and fused into its tiles too; and
/// where they together overwrite the whole original init, the head's
/// result is inserted into an empty tensor, so that init is no longer
/// computed whole, outside any tile loop, before the parts.
mlir::FailureOr<std::pair<mlir::TilingInterface, mlir::TilingInterface>>
splitAndSliceProducers(mlir::RewriterBase &rewriter, mlir::TilingInterface root,
                       unsigned loop, int64_t at,
                       llvm::SetVector<mlir::Operation *> &originals,
                       llvm::function_ref<bool(mlir::Operation *)> keepWhole);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_TILEHELPERS_H

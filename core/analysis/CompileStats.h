//===- CompileStats.h - what `dispatchlab compile` reports ------*- C++ -*-===//
//
// Statistics over a module after dispatch formation, counted the way IREE's
// Stream DumpStatistics pass counts them: dispatch sites, unique executables
// (after DeduplicateExecutables), DMA fills and copies left outside
// dispatches, and bytes passed between dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ANALYSIS_COMPILESTATS_H
#define DISPATCHLAB_CORE_ANALYSIS_COMPILESTATS_H

#include "heuristics/DispatchDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dispatchlab {

struct DispatchGroupStats {
  /// See getNamedDispatchRegions.
  std::string name;
  /// The region's `dispatchlab.kind` attribute: "fused", "scalar" or "copy".
  std::string kind;
  std::string root;
  /// The root's op name (`linalg.conv_2d_nhwc_fhwc`): what kind of work the
  /// dispatch is, for breakdowns across models.
  std::string rootOp;
  /// What the root computes, recognised structurally so that generalized
  /// named ops still count: "conv", "contraction", "reduction",
  /// "elementwise" or "other".
  std::string rootClass;
  /// `rootClass` refined by the root's shape, for roofline breakdowns:
  /// "conv_1x1", "conv_kxk" or "conv_depthwise" (each with "_strided" when a
  /// stride exceeds 1), "pool" (a convolution without multiplies),
  /// "matmul", "batch_matmul" (a batch dimension above 1), "reduction",
  /// "elementwise", "copy" (a root that moves data without arithmetic) or
  /// "other". A contraction with two or more non-unit M dimensions and no
  /// batch is "conv_1x1": that is what a 1x1 convolution over an image
  /// becomes, though a dense layer over batch x sequence looks the same.
  /// A strided one is a multiply-accumulate reading its image at
  /// `d * stride` ("conv_1x1_strided", though its rootClass is "reduction").
  std::string rootShapeClass;
  /// Non-cloneable ops of the body, in program order (the root included).
  std::vector<std::string> members;
  /// Cloneable ops of the body (fills, empties, constants, slices...).
  std::vector<std::string> cloned;
  /// Distinct ranked tensors captured from above, not counting results of
  /// cloneable ops (IREE clones those in rather than passing them).
  unsigned numOperands = 0;
  unsigned numResults = 0;
  /// Hex xxh3 of the outlined body; equal hashes mean one executable.
  std::string executableHash;
  /// The graph's edges into this dispatch, each named once in order of first
  /// use: another dispatch's name, `%argN` for the function's N-th argument,
  /// or the name of an op outside dispatches. Reshapes and cloned ops are
  /// looked through to the tensors they read.
  std::vector<std::string> reads;
  /// Edges out: indices of the function results this dispatch produces.
  std::vector<int64_t> returns;
  /// Arithmetic work: for each Linalg op of the body, the product of its
  /// static loop ranges times the arith and math ops of its payload
  /// (constants and casts excepted), so a multiply-add counts 2. Other ops
  /// (slices, packs) count 0, and so does a Linalg op with a dynamic loop
  /// range.
  int64_t flops = 0;
  /// Minimum memory traffic, each tensor counted once (the roofline
  /// convention). Read: the distinct ranked tensors captured from above
  /// (reshapes outside looked through), except empties, inlined constants
  /// and a destination the dispatch only inserts into; a tensor the body
  /// only takes extract_slices of counts those slices. Dynamically shaped
  /// tensors count 0.
  int64_t bytesRead = 0;
  /// Bytes of the results; a result built by inserting slices into a
  /// captured tensor (a pad's interior) counts only the inserted slices.
  /// Dynamically shaped results count 0.
  int64_t bytesWritten = 0;
};

/// A set_encoding left inside a dispatch (seed 002).
struct UnhoistedEncoding {
  std::string op;
  std::string dispatch;
  /// The op in the same dispatch that produces the encoded tensor.
  std::string source;
};

struct CompileStats {
  std::string model;
  /// Canonical option text: one `key=value` per line.
  std::string options;
  int64_t dispatches = 0;
  int64_t executables = 0;
  int64_t fills = 0;
  int64_t copies = 0;
  int64_t genericBefore = 0;
  int64_t genericAfter = 0;
  /// Bytes of tensors produced by one dispatch and consumed by another.
  /// Dynamically shaped tensors count 0.
  int64_t transientBytes = 0;
  /// Every iree_encoding.set_encoding, inside dispatches or not.
  int64_t setEncodings = 0;
  std::vector<UnhoistedEncoding> unhoistedEncodings;
  std::vector<DispatchGroupStats> groups;
};

/// Computes every field but `model`, `options`, `genericBefore` and
/// `genericAfter`, which the caller knows.
CompileStats computeCompileStats(mlir::ModuleOp module);

/// The minimum work of one dispatch, as DispatchGroupStats counts it;
/// `captured` is getCapturedValues(region).
struct DispatchWork {
  int64_t flops = 0;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
};
DispatchWork computeDispatchWork(dispatch::RegionOp region,
                                 llvm::ArrayRef<mlir::Value> captured);

//===----------------------------------------------------------------------===//
// Helpers shared by the stats, the table and the dispatch graph.
//===----------------------------------------------------------------------===//

/// Names ops for reports: `%name` from the NameLoc the model loader attaches,
/// else `<op name>#<pre-order index in its function>`, not counting the
/// payload ops of Linalg ops.
class OpNamer {
public:
  std::string getName(mlir::Operation *op);

private:
  llvm::DenseMap<mlir::Operation *, unsigned> indexInFunction;
};

/// True for ops IREE clones into each consumer dispatch (with the default
/// inline-constant limit) rather than making them dispatch members.
bool isClonedIntoDispatch(mlir::Operation *op);

/// Values used in `region`'s body but defined outside it, in order of first
/// use: the arguments IREE's outlining gives the executable.
llvm::SmallVector<mlir::Value> getCapturedValues(dispatch::RegionOp region);

/// The op `region` was formed around: the one marked `dispatchlab.root`, else
/// the first non-cloneable op with reduction loops, else the last op.
mlir::Operation *getRootOp(dispatch::RegionOp region);

/// Marks a dispatch codegen adds for an encode op between dispatches
/// (PlaceEncodingPacks): it is not one of the formed dispatches.
inline constexpr llvm::StringLiteral kEncodingDispatchAttr =
    "dispatchlab.encoding_dispatch";

/// Every dispatch region of `module` with its report name
/// `<function>_dispatch_<n>` (numbered per function like IREE's outlining),
/// in the order reports list them. Encoding dispatches are numbered apart,
/// `<function>_encoding_<n>`, so the formed ones keep their names in codegen.
llvm::SmallVector<std::pair<dispatch::RegionOp, std::string>>
getNamedDispatchRegions(mlir::ModuleOp module);

/// Whether `op` is a host's initializer (HoistIntoGlobals) or inside one:
/// its work is done once, outside the program IREE counts (const-eval), so
/// the stats and the graph leave it out.
bool isInInitializer(mlir::Operation *op);

/// True for reshapes and casts outside dispatches: IREE turns those into
/// metadata-only flow.tensor.reshape ops that move no data.
bool isMetadataOnlyOp(mlir::Operation *op);

/// Follows `value` up through metadata-only ops, to the value whose buffer
/// it aliases.
mlir::Value stripViewOps(mlir::Value value);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ANALYSIS_COMPILESTATS_H

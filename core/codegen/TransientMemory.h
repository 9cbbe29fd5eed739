//===- TransientMemory.h - buffers between dispatches -----------*- C++ -*-===//
//
// After bufferization (results turned into out-parameters), the host
// function allocates every buffer that one dispatch writes and a later one
// reads. Their peak total, in program order, is what the model needs beyond
// its inputs and outputs to run: `transient_peak_bytes`.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_TRANSIENTMEMORY_H
#define DISPATCHLAB_CORE_CODEGEN_TRANSIENTMEMORY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>

namespace dispatchlab {

/// The largest total size of the host function's allocations that are live
/// at once. A buffer is live from its allocation to the last op of the
/// function body that uses it or a view of it (uses nested in an op count at
/// that op). Arguments (inputs and output buffers) are not counted, nor are
/// buffers that only stage an output: written by one op and then only
/// copied into an argument.
int64_t computeTransientPeakBytes(mlir::func::FuncOp host);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_TRANSIENTMEMORY_H

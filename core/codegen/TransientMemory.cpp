//===- TransientMemory.cpp - buffers between dispatches -------------------===//

#include "core/codegen/TransientMemory.h"

#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <vector>

using namespace mlir;

namespace dispatchlab {

/// Whether `op` copies (a view of) `buffer` into (a view of) a function
/// argument: the caller's output buffer.
static bool isCopyToArgument(Operation *op,
                             const BufferViewFlowAnalysis::ValueSetT &buffer) {
  auto copy = dyn_cast<memref::CopyOp>(op);
  if (!copy || !buffer.contains(copy.getSource()))
    return false;
  Value target = copy.getTarget();
  while (auto view = target.getDefiningOp<ViewLikeOpInterface>())
    target = view.getViewSource();
  return isa<BlockArgument>(target);
}

int64_t computeTransientPeakBytes(func::FuncOp host) {
  if (host.getBody().empty())
    return 0;
  Block &body = host.getBody().front();
  llvm::DenseMap<Operation *, size_t> position;
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;
  auto positionOf = [&](Operation *op) -> std::optional<size_t> {
    Operation *ancestor = body.findAncestorOpInBlock(*op);
    if (!ancestor)
      return std::nullopt;
    return position.lookup(ancestor);
  };

  // Views (reshapes, subviews, casts) keep their buffer alive.
  BufferViewFlowAnalysis aliases(host);
  // delta[i]: bytes that become live at op i (negative: freed after op i-1).
  std::vector<int64_t> delta(body.getOperations().size() + 1, 0);
  host.walk([&](Operation *op) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      return;
    std::optional<size_t> start = positionOf(op);
    if (!start)
      return;
    BufferViewFlowAnalysis::ValueSetT buffer =
        aliases.resolve(op->getResult(0));
    size_t end = *start;
    llvm::SmallDenseSet<size_t> users;
    for (Value alias : buffer)
      for (Operation *user : alias.getUsers()) {
        std::optional<size_t> use = positionOf(user);
        if (!use)
          continue;
        end = std::max(end, *use);
        if (!isa<ViewLikeOpInterface, memref::DeallocOp>(user) &&
            !isCopyToArgument(user, buffer))
          users.insert(*use);
      }
    // Written by one op and at most copied to an output: no other op
    // reads it, so it stands for that output rather than crossing a
    // dispatch boundary (buffer-results-to-out-params leaves such copies).
    if (users.size() < 2)
      return;
    int64_t bytes = getStaticByteSize(op->getResult(0).getType());
    delta[*start] += bytes;
    delta[end + 1] -= bytes;
  });
  int64_t live = 0, peak = 0;
  for (int64_t change : delta) {
    live += change;
    peak = std::max(peak, live);
  }
  return peak;
}

} // namespace dispatchlab

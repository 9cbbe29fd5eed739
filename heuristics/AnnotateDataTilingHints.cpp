//===- AnnotateDataTilingHints.cpp - mark contractions to data-tile -------===//
//
// Mirrors IREE's DispatchCreation AnnotateDataTilingHints for the matmul op
// type: every data-tiling candidate (isDataTilingCandidate) gets the hint
// SetEncoding reads, unless the function already carries one (then someone
// chose by hand, as IREE respects).
//
//===----------------------------------------------------------------------===//

#include "heuristics/OpClassification.h"
#include "heuristics/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace dispatchlab {
#define GEN_PASS_DEF_ANNOTATEDATATILINGHINTSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
struct AnnotateDataTilingHintsPass
    : public dispatchlab::impl::AnnotateDataTilingHintsPassBase<
          AnnotateDataTilingHintsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    WalkResult walk = getOperation().walk([&](Operation *op) {
      if (op->hasAttr(kDataTilingHintAttr))
        return WalkResult::interrupt();
      if (isDataTilingCandidate(op))
        candidates.push_back(op);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return;
    for (Operation *op : candidates)
      op->setAttr(kDataTilingHintAttr, UnitAttr::get(op->getContext()));
  }
};
} // namespace

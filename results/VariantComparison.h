//===- VariantComparison.h - two variants' dispatches compared -*- C++ -*-===//
//
// Which ops a variant moved: two variants of one model compared dispatch by
// dispatch. Dispatch names are positional (`main_dispatch_3`), so a dispatch
// is unchanged when the other variant has one with the same members, and an
// op moved when its dispatch changed on either side.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_VARIANTCOMPARISON_H
#define DISPATCHLAB_RESULTS_VARIANTCOMPARISON_H

#include "proto/results.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

struct VariantComparison {
  /// Names of the dispatches of A (of B) that B (A) has no dispatch with the
  /// same members for, in each variant's order.
  std::vector<std::string> changedInA, changedInB;

  /// An op in a changed dispatch: where each variant put it (absent when the
  /// variant has no dispatch member of that name, e.g. fused away).
  struct MovedOp {
    std::string op;
    std::optional<std::string> dispatchInA, dispatchInB;
  };
  /// A's members in A's order, then B's members A lacks.
  std::vector<MovedOp> moved;

  bool same() const { return changedInA.empty() && changedInB.empty(); }
};

VariantComparison compareVariants(const results::CompileStats &a,
                                  const results::CompileStats &b);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_VARIANTCOMPARISON_H

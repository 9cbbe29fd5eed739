//===- DispatchGraph.h - a result's dispatches as a Graphviz graph -*- C++
//-*-===//
//
// The dispatch graph of a stored result, from its stats alone: a box per
// dispatch (its name and root), ellipses for the function's arguments and
// results, plain nodes for ops left outside dispatches, and an edge per
// tensor read (the groups' `reads` and `returns`).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_DISPATCHGRAPH_H
#define DISPATCHLAB_RESULTS_DISPATCHGRAPH_H

#include "proto/results.pb.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace dispatchlab {

/// `stats` in the dot language; dispatches named in `highlighted` are
/// filled in a highlight colour.
std::string dispatchGraphDot(const results::CompileStats &stats,
                             llvm::ArrayRef<std::string> highlighted = {});

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_DISPATCHGRAPH_H

//===- DotGraph.h - dispatches as a Graphviz graph --------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_ANALYSIS_DOTGRAPH_H
#define DISPATCHLAB_CORE_ANALYSIS_DOTGRAPH_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// Prints `module` as a Graphviz digraph: one `cluster_N` subgraph per
/// dispatch (labelled with its name and root) holding its member ops; nodes
/// for function arguments, results, and fills/slices/other non-cloneable ops
/// left outside dispatches. Edges are tensors labelled with their byte size;
/// edges from one dispatch into another are bold (the transient bytes).
/// Cloned ops and reshapes are not drawn: edges pass through them.
void printDispatchGraph(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ANALYSIS_DOTGRAPH_H

//===- DotGraph.cpp - dispatches as a Graphviz graph ----------------------===//

#include "core/analysis/DotGraph.h"

#include "core/analysis/CompileStats.h"
#include "core/support/DotString.h"
#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace dispatchlab {

namespace {

/// A drawn node that produces a tensor some edge carries.
struct Source {
  std::string node;
  /// The op behind the node, null for function arguments.
  Operation *op;
  Value value;
};

class DotPrinter {
public:
  explicit DotPrinter(llvm::raw_ostream &os) : os(os) {}

  void print(ModuleOp module);

private:
  void printNode(StringRef id, ArrayRef<std::string> lines,
                 StringRef attrs = "");
  void printEdges(StringRef consumer, Operation *consumerOp,
                  ValueRange operands);
  void collectSources(Value value, SmallVectorImpl<Source> &sources,
                      llvm::DenseSet<Value> &visited);
  std::string newNodeId(StringRef prefix) {
    return (prefix + Twine(nextNode++)).str();
  }

  llvm::raw_ostream &os;
  OpNamer namer;
  /// Ordered so the edges print deterministically.
  llvm::MapVector<Operation *, std::string> opNodes;
  llvm::DenseMap<Value, std::string> argNodes;
  unsigned nextNode = 0;
};

} // namespace

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

static std::string formatBytes(int64_t bytes) {
  if (bytes == 0)
    return "dynamic";
  if (bytes < 1024)
    return llvm::formatv("{0} B", bytes).str();
  if (bytes < 1024 * 1024)
    return llvm::formatv("{0:F1} KiB", bytes / 1024.0).str();
  return llvm::formatv("{0:F1} MiB", bytes / (1024.0 * 1024.0)).str();
}

/// Outside dispatches, only ops that survive as work are drawn: the stats'
/// fills and copies and anything IREE would not clone away.
static bool isDrawnOutsideOp(Operation *op) {
  if (isa<dispatch::RegionOp, FunctionOpInterface>(op) ||
      op->hasTrait<OpTrait::ReturnLike>() || isMetadataOnlyOp(op) ||
      op->getParentOfType<dispatch::RegionOp>() || isInInitializer(op))
    return false;
  if (!llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return false;
  return isa<linalg::FillOp, tensor::ExtractSliceOp>(op) ||
         !isClonedIntoDispatch(op);
}

void DotPrinter::printNode(StringRef id, ArrayRef<std::string> lines,
                           StringRef attrs) {
  os << "  " << id << " [label=\"" << escapeDotString(llvm::join(lines, "\n"))
     << "\"" << attrs << "];\n";
}

/// Finds the drawn nodes behind `value`, looking through what is not drawn:
/// reshapes, region results (to the member yielding them) and cloned ops (to
/// the tensors they read).
void DotPrinter::collectSources(Value value, SmallVectorImpl<Source> &sources,
                                llvm::DenseSet<Value> &visited) {
  value = stripViewOps(value);
  if (!visited.insert(value).second)
    return;
  if (auto it = argNodes.find(value); it != argNodes.end()) {
    sources.push_back({it->second, nullptr, value});
    return;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return;
  if (auto region = dyn_cast<dispatch::RegionOp>(def)) {
    Value yielded = region.getReturnOp().getOperand(
        cast<OpResult>(value).getResultNumber());
    collectSources(yielded, sources, visited);
    return;
  }
  if (auto it = opNodes.find(def); it != opNodes.end()) {
    sources.push_back({it->second, def, value});
    return;
  }
  for (Value operand : def->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      collectSources(operand, sources, visited);
}

void DotPrinter::printEdges(StringRef consumer, Operation *consumerOp,
                            ValueRange operands) {
  auto consumerRegion =
      consumerOp ? consumerOp->getParentOfType<dispatch::RegionOp>() : nullptr;
  SmallVector<Source> sources;
  llvm::DenseSet<Value> visited;
  for (Value operand : operands)
    if (isa<RankedTensorType>(operand.getType()))
      collectSources(operand, sources, visited);

  llvm::StringSet<> drawn;
  for (const Source &source : sources) {
    if (!drawn.insert(source.node).second)
      continue;
    auto producerRegion =
        source.op ? source.op->getParentOfType<dispatch::RegionOp>() : nullptr;
    bool crossesDispatches =
        producerRegion && consumerRegion && producerRegion != consumerRegion;
    os << "  " << source.node << " -> " << consumer << " [label=\""
       << escapeDotString(
              formatBytes(getStaticByteSize(source.value.getType())))
       << "\"" << (crossesDispatches ? ", style=bold, penwidth=2" : "")
       << "];\n";
  }
}

void DotPrinter::print(ModuleOp module) {
  os << "digraph dispatches {\n";
  os << "  node [shape=box, fontname=monospace];\n";
  os << "  edge [fontname=monospace];\n";

  // Nodes first: Graphviz places a node in the first subgraph naming it.
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal() || isInInitializer(func))
      continue;
    for (BlockArgument arg : func.getArguments()) {
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      std::string id = newNodeId("arg");
      argNodes[arg] = id;
      printNode(id,
                {(func.getName() + ": %arg" + Twine(arg.getArgNumber())).str(),
                 typeToString(arg.getType())},
                ", shape=ellipse");
    }
  }
  unsigned cluster = 0;
  for (auto &[region, name] : getNamedDispatchRegions(module)) {
    Operation *root = getRootOp(region);
    os << "  subgraph cluster_" << cluster++ << " {\n";
    os << "  label=\""
       << escapeDotString(name +
                          "\nroot: " + (root ? namer.getName(root) : "none"))
       << "\";\n";
    for (Operation &op : region.getBody().front().without_terminator()) {
      if (isClonedIntoDispatch(&op))
        continue;
      std::string id = newNodeId("op");
      opNodes[&op] = id;
      printNode(id, {namer.getName(&op), op.getName().getStringRef().str()},
                &op == root ? ", style=filled, fillcolor=lightgrey" : "");
    }
    os << "  }\n";
  }
  module.walk([&](Operation *op) {
    if (!isDrawnOutsideOp(op))
      return;
    std::string id = newNodeId("op");
    opNodes[op] = id;
    printNode(id, {namer.getName(op), op->getName().getStringRef().str()},
              ", style=dashed");
  });

  for (auto &[op, id] : opNodes)
    printEdges(id, op, op->getOperands());
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal() || isInInitializer(func))
      continue;
    Operation *terminator = func.getFunctionBody().back().getTerminator();
    for (auto [index, value] : llvm::enumerate(terminator->getOperands())) {
      if (!isa<RankedTensorType>(value.getType()))
        continue;
      std::string id = newNodeId("out");
      printNode(id,
                {(func.getName() + ": result " + Twine(index)).str(),
                 typeToString(value.getType())},
                ", shape=ellipse");
      printEdges(id, nullptr, value);
    }
  }
  os << "}\n";
}

void printDispatchGraph(ModuleOp module, llvm::raw_ostream &os) {
  DotPrinter(os).print(module);
}

} // namespace dispatchlab

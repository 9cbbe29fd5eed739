//===- DispatchGraph.cpp - a result's dispatches as a Graphviz graph ------===//

#include "results/DispatchGraph.h"

#include "core/support/DotString.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

namespace {
/// Prints nodes as they are first needed and remembers their ids.
class GraphPrinter {
public:
  explicit GraphPrinter(llvm::raw_ostream &os) : os(os) {}

  void dispatch(const results::DispatchGroup &group, bool highlighted) {
    std::string id = "d" + std::to_string(ids.size());
    ids[group.name()] = id;
    std::string root = group.root().empty() ? group.kind() : group.root();
    if (!group.root_op().empty())
      root += " (" + group.root_op() + ")";
    os << "  " << id << " [label=\""
       << escapeDotString(group.name() + "\n" + root) << "\""
       << (highlighted ? ", style=filled, fillcolor=\"#ffd27f\"" : "")
       << "];\n";
  }

  /// The node of a read: a dispatch, an argument or an op outside.
  std::string source(const std::string &name) {
    if (auto it = ids.find(name); it != ids.end())
      return it->second;
    std::string id = "s" + std::to_string(ids.size());
    ids[name] = id;
    bool ellipse = llvm::StringRef(name).starts_with("%arg") ||
                   llvm::StringRef(name).starts_with("result ");
    os << "  " << id << " [label=\"" << escapeDotString(name)
       << "\", shape=" << (ellipse ? "ellipse" : "plain") << "];\n";
    return id;
  }

  std::string result(int64_t index) {
    return source("result " + std::to_string(index));
  }

private:
  llvm::raw_ostream &os;
  llvm::StringMap<std::string> ids;
};
} // namespace

std::string dispatchGraphDot(const results::CompileStats &stats,
                             llvm::ArrayRef<std::string> highlighted) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "digraph dispatches {\n  node [shape=box, fontname=\"sans-serif\", "
        "fontsize=10];\n";
  GraphPrinter printer(os);
  for (const results::DispatchGroup &group : stats.groups())
    printer.dispatch(group, llvm::is_contained(highlighted, group.name()));
  for (const results::DispatchGroup &group : stats.groups()) {
    std::string consumer = printer.source(group.name());
    // A node is printed when first named, so before its edge's statement.
    for (const std::string &read : group.reads()) {
      std::string producer = printer.source(read);
      os << "  " << producer << " -> " << consumer << ";\n";
    }
    for (int64_t index : group.returns()) {
      std::string result = printer.result(index);
      os << "  " << consumer << " -> " << result << ";\n";
    }
  }
  os << "}\n";
  return text;
}

} // namespace dispatchlab

//===- GraphvizSvg.h - Graphviz graphs as inline SVG ------------*- C++ -*-===//
//
// Runs Graphviz's `dot -Tsvg` (found on PATH) and returns the SVG element
// alone, fit to inline in an HTML page: no XML prolog, DOCTYPE or namespace
// attributes, so the page references no URL.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_GRAPHVIZSVG_H
#define DISPATCHLAB_RESULTS_GRAPHVIZSVG_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dispatchlab {

class GraphvizSvg {
public:
  /// `graph` in the dot language as an `<svg>` element; nullopt when `dot`
  /// is missing or fails. Either is reported on stderr once per renderer,
  /// naming Graphviz, and the page goes on without that graph.
  std::optional<std::string> render(llvm::StringRef graph);

  /// False once `dot` was looked for and not found.
  bool available();

private:
  std::optional<std::string> program;
  bool searched = false, warnedFailure = false;
};

/// The `<svg ...>...</svg>` element of `dot -Tsvg` output without its
/// namespace attributes (inline SVG needs none), ids and comments; nullopt
/// without one.
std::optional<std::string> extractInlineSvg(llvm::StringRef svgDocument);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_GRAPHVIZSVG_H

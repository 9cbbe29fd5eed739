//===- GraphvizSvg.cpp - Graphviz graphs as inline SVG --------------------===//

#include "results/GraphvizSvg.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

bool GraphvizSvg::available() {
  if (!searched) {
    searched = true;
    if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("dot"))
      program = *found;
    else
      llvm::WithColor::warning(llvm::errs(), "dispatchlab report")
          << "Graphviz's `dot` is not on PATH: the page has no dispatch "
             "graphs (scripts/setup.sh installs graphviz)\n";
  }
  return program.has_value();
}

/// `svg` without comments, namespace attributes (they name URLs; inline SVG
/// needs none) and ids (they would repeat across a page's graphs). One pass:
/// a page may inline thousands of nodes.
static std::string withoutCommentsAndIds(llvm::StringRef svg) {
  std::string kept;
  kept.reserve(svg.size());
  while (!svg.empty()) {
    if (svg.starts_with("<!--")) {
      size_t end = svg.find("-->");
      svg = end == llvm::StringRef::npos ? "" : svg.drop_front(end + 3);
      if (svg.starts_with("\n"))
        svg = svg.drop_front();
      continue;
    }
    if (svg.starts_with(" id=\"") || svg.starts_with(" xmlns=\"") ||
        svg.starts_with(" xmlns:")) {
      size_t open = svg.find('"');
      size_t close = svg.find('"', open + 1);
      if (close != llvm::StringRef::npos) {
        svg = svg.drop_front(close + 1);
        continue;
      }
    }
    kept += svg.front();
    svg = svg.drop_front();
  }
  return kept;
}

std::optional<std::string> extractInlineSvg(llvm::StringRef svgDocument) {
  size_t begin = svgDocument.find("<svg");
  size_t end = svgDocument.rfind("</svg>");
  if (begin == llvm::StringRef::npos || end == llvm::StringRef::npos ||
      end < begin)
    return std::nullopt;
  return withoutCommentsAndIds(
      svgDocument.slice(begin, end + llvm::StringRef("</svg>").size()));
}

std::optional<std::string> GraphvizSvg::render(llvm::StringRef graph) {
  if (!available())
    return std::nullopt;
  llvm::SmallString<128> input, output, errors;
  if (llvm::sys::fs::createTemporaryFile("dispatch-graph", "dot", input) ||
      llvm::sys::fs::createTemporaryFile("dispatch-graph", "svg", output) ||
      llvm::sys::fs::createTemporaryFile("dispatch-graph", "err", errors))
    return std::nullopt;
  llvm::FileRemover removeInput(input), removeOutput(output),
      removeErrors(errors);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec)
      return std::nullopt;
    os << graph;
  }
  llvm::StringRef args[] = {"dot", "-Tsvg", "-o", output, input};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt,
                                                llvm::StringRef(errors)};
  int status = llvm::sys::ExecuteAndWait(*program, args, std::nullopt,
                                         redirects, /*SecondsToWait=*/60);
  auto svg = llvm::MemoryBuffer::getFile(output);
  std::optional<std::string> inlined =
      status == 0 && svg ? extractInlineSvg((*svg)->getBuffer()) : std::nullopt;
  if (!inlined && !warnedFailure) {
    warnedFailure = true;
    auto message = llvm::MemoryBuffer::getFile(errors);
    llvm::WithColor::warning(llvm::errs(), "dispatchlab report")
        << "Graphviz's dot failed (exit " << status << "), graph left out: "
        << (message ? (*message)->getBuffer().trim().split('\n').first
                    : llvm::StringRef("no message"))
        << "\n";
  }
  return inlined;
}

} // namespace dispatchlab

//===- GraphvizSvg.cpp - Graphviz graphs as inline SVG --------------------===//

#include "results/GraphvizSvg.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
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

std::optional<std::string> extractInlineSvg(llvm::StringRef svgDocument) {
  size_t begin = svgDocument.find("<svg");
  size_t end = svgDocument.rfind("</svg>");
  if (begin == llvm::StringRef::npos || end == llvm::StringRef::npos ||
      end < begin)
    return std::nullopt;
  std::string svg =
      svgDocument.slice(begin, end + llvm::StringRef("</svg>").size()).str();
  // Namespaces name URLs; ids would repeat across a page's graphs, and the
  // comments only repeat the titles.
  llvm::Regex unwanted(" (xmlns(:[a-z]+)?|id)=\"[^\"]*\"|<!--[^>]*-->\n?");
  while (unwanted.match(svg))
    svg = unwanted.sub("", svg);
  return svg;
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

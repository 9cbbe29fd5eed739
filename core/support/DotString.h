//===- DotString.h - text inside a Graphviz quoted string -------*- C++ -*-===//
//
// Both dispatch graphs (`compile --emit=dot` from the IR, the HTML report's
// from stored stats) write labels through this one escaping.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_DOTSTRING_H
#define DISPATCHLAB_CORE_SUPPORT_DOTSTRING_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace dispatchlab {

/// `text` for a dot quoted string: quotes and backslashes escaped, and
/// `\n` turned into dot's line break.
std::string escapeDotString(llvm::StringRef text);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_DOTSTRING_H

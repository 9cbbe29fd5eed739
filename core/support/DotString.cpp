//===- DotString.cpp - text inside a Graphviz quoted string ---------------===//

#include "core/support/DotString.h"

namespace dispatchlab {

std::string escapeDotString(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '\n') {
      escaped += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c;
  }
  return escaped;
}

} // namespace dispatchlab

//===- Csv.cpp - RFC 4180 fields ------------------------------------------===//

#include "results/Csv.h"

namespace dispatchlab {

std::string csvField(llvm::StringRef text) {
  if (text.find_first_of(",\"\n") == llvm::StringRef::npos)
    return text.str();
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::string> parseCsvRecord(llvm::StringRef line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

} // namespace dispatchlab

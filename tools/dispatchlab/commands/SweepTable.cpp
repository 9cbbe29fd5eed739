//===- SweepTable.cpp - a finished sweep as a table -----------------------===//

#include "tools/dispatchlab/commands/SweepTable.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace dispatchlab {

void printSweepTable(const coordinator::SweepProgress &progress,
                     llvm::raw_ostream &os) {
  using Row = std::array<std::string, 7>;
  std::vector<Row> rows = {{"model", "variant", "state", "dispatches",
                            "executables", "transient", "error"}};
  for (const coordinator::JobRow &job : progress.rows()) {
    Row row = {job.model(), job.variant(), job.state(), "", "", "", ""};
    llvm::Expected<llvm::json::Value> stats =
        llvm::json::parse(job.stats_json());
    if (!stats)
      llvm::consumeError(stats.takeError());
    else if (const llvm::json::Object *object = stats->getAsObject()) {
      auto number = [&](const char *key) {
        std::optional<int64_t> value = object->getInteger(key);
        return value ? std::to_string(*value) : std::string();
      };
      row[3] = number("dispatches");
      row[4] = number("executables");
      row[5] = number("transient_bytes");
    }
    // First line only: stderr tails live in the database.
    row[6] = llvm::StringRef(job.error()).split('\n').first.str();
    rows.push_back(std::move(row));
  }
  std::array<size_t, 7> widths = {};
  for (const Row &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  for (const Row &row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      std::string padding(widths[i] - row[i].size(), ' ');
      bool numeric = i >= 3 && i <= 5;
      line += numeric ? padding + row[i] : row[i] + padding;
      if (i + 1 < row.size())
        line += "  ";
    }
    os << llvm::StringRef(line).rtrim() << "\n";
  }
}

} // namespace dispatchlab

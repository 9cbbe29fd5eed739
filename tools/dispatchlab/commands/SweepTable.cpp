//===- SweepTable.cpp - a finished sweep as a table -----------------------===//

#include "tools/dispatchlab/commands/SweepTable.h"

#include "results/Formatters.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace dispatchlab {

void printSweepTable(const coordinator::SweepProgress &progress,
                     llvm::raw_ostream &os) {
  TextGrid grid;
  grid.header = {"model",       "variant",   "state", "dispatches",
                 "executables", "transient", "error"};
  grid.numeric = {false, false, false, true, true, true, false};
  for (const coordinator::JobRow &job : progress.rows()) {
    std::vector<std::string> row = {
        job.model(), job.variant(), job.state(), "", "", "", ""};
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
    grid.rows.push_back(std::move(row));
  }
  printGrid(grid, OutputFormat::Table, os);
}

} // namespace dispatchlab

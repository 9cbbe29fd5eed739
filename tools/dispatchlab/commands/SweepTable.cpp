//===- SweepTable.cpp - a finished sweep as a table -----------------------===//

#include "tools/dispatchlab/commands/SweepTable.h"

#include "proto/ProtoJson.h"
#include "results/Formatters.h"

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
    llvm::Expected<results::CompileStats> stats =
        parseProtoJson<results::CompileStats>(job.stats_json());
    if (!stats) {
      llvm::consumeError(stats.takeError());
    } else {
      auto count = [](bool present, int64_t value) {
        return present ? std::to_string(value) : std::string();
      };
      row[3] = count(stats->has_dispatches(), stats->dispatches());
      row[4] = count(stats->has_executables(), stats->executables());
      row[5] = count(stats->has_transient_bytes(), stats->transient_bytes());
    }
    // First line only: stderr tails live in the database.
    row[6] = llvm::StringRef(job.error()).split('\n').first.str();
    grid.rows.push_back(std::move(row));
  }
  printGrid(grid, OutputFormat::Table, os);
}

} // namespace dispatchlab

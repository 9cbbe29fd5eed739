//===- SweepsCommand.cpp - `dispatchlab sweeps` ---------------------------===//
//
// The sweeps a database holds, one line each: what `--sweep NAME|ID` of
// report, jobs and diff can name.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/SweepsCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "results/Formatters.h"
#include "results/SweepListing.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getSweepsSubcommand() {
  static cl::SubCommand command(
      "sweeps", "The sweeps in the database: id, name, spec hash, created, "
                "jobs by state, commit");
  return command;
}

namespace {
llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab sweeps");
}

/// Enough of a SHA-256 to tell specs apart, as git shortens commits.
constexpr size_t kShortHash = 12;

void printSweeps(const std::vector<SweepListing> &sweeps,
                 llvm::raw_ostream &os) {
  TextGrid grid;
  grid.header = {"id",     "name",   "spec",    "created", "jobs",  "done",
                 "cached", "failed", "pending", "running", "commit"};
  grid.numeric = {true, false, false, false, true, true,
                  true, true,  true,  true,  false};
  for (const SweepListing &sweep : sweeps)
    grid.rows.push_back(
        {std::to_string(sweep.id), sweep.name,
         sweep.specHash.substr(0, kShortHash), formatUtcTime(sweep.submittedAt),
         std::to_string(sweep.jobs), std::to_string(sweep.done),
         std::to_string(sweep.cached), std::to_string(sweep.failed),
         std::to_string(sweep.pending), std::to_string(sweep.running),
         sweep.commits});
  printGrid(grid, OutputFormat::Table, os);
}
} // namespace

int runSweepsCommand() {
  try {
    ResultStore store(databasePath, ResultStore::Access::ReadOnly);
    std::vector<SweepListing> sweeps = listSweeps(store);
    if (sweeps.empty()) {
      llvm::outs() << "no sweeps in " << databasePath << "\n";
      return 0;
    }
    printSweeps(sweeps, llvm::outs());
  } catch (const StoreError &e) {
    error() << e.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace dispatchlab

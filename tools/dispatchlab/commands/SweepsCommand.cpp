//===- SweepsCommand.cpp - `dispatchlab sweeps` ---------------------------===//
//
// The sweeps a database holds, one line each: what `--sweep NAME|ID` of
// report, jobs and diff can name. `sweeps rm ID` deletes one (refused while
// a coordinator holding the database still has its jobs to run), `sweeps
// cancel ID` fails its pending jobs as cancelled.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/SweepsCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "coordinator/DatabaseLock.h"
#include "coordinator/JobQueue.h"
#include "results/Formatters.h"
#include "results/ReportQueries.h"
#include "results/SweepListing.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getSweepsSubcommand() {
  static cl::SubCommand command(
      "sweeps", "The sweeps in the database: id, name, spec hash, created, "
                "jobs by state, commit; `sweeps rm|cancel ID` manages one");
  return command;
}

namespace {
cl::list<std::string> action(cl::Positional, cl::desc("[rm|cancel ID]"),
                             cl::sub(getSweepsSubcommand()));

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

/// The sweep `selector` names, or nothing after an error line.
std::optional<SweepRef> selectSweep(ResultStore &store,
                                    llvm::StringRef selector) {
  std::optional<SweepRef> found = findSweep(store, selector);
  if (!found)
    error() << describeMissingSweep(store, selector, databasePath) << "\n";
  return found;
}

/// Removes the sweep, unless a coordinator holds the database and the
/// sweep still has jobs to run: it would lease or finish jobs that vanish.
int removeSweep(llvm::StringRef selector) {
  ResultStore store(databasePath);
  std::optional<SweepRef> sweep = selectSweep(store, selector);
  if (!sweep)
    return 1;
  JobQueue queue(store, QueuePolicy());
  llvm::Expected<std::unique_ptr<DatabaseLock>> lock =
      DatabaseLock::acquire(databasePath);
  if (!lock) {
    std::string held = llvm::toString(lock.takeError());
    SweepCounts counts = queue.counts(sweep->id);
    if (!counts.finished()) {
      error() << llvm::formatv(
          "sweep '{0}' (#{1}) has {2} pending and {3} running jobs and {4}; "
          "cancel it first (dispatchlab sweeps cancel {1}) and remove it "
          "once its running jobs end\n",
          sweep->name, sweep->id, counts.pending, counts.running, held);
      return 1;
    }
  }
  RemovedSweep removed = queue.removeSweep(sweep->id);
  llvm::outs() << llvm::formatv(
      "removed sweep '{0}' (#{1}): {2} jobs, {3} results and {4} models no "
      "other sweep uses\n",
      sweep->name, sweep->id, removed.jobs, removed.results, removed.models);
  return 0;
}

/// Fails the pending jobs as cancelled, through the database: every
/// JobQueue change is one transaction that reads the job's state afresh, so
/// a coordinator on the database leases none of them afterwards.
int cancelSweep(llvm::StringRef selector) {
  ResultStore store(databasePath);
  std::optional<SweepRef> sweep = selectSweep(store, selector);
  if (!sweep)
    return 1;
  JobQueue queue(store, QueuePolicy());
  int64_t cancelled = queue.cancelPending(sweep->id, unixNow());
  SweepCounts counts = queue.counts(sweep->id);
  llvm::outs() << llvm::formatv(
      "sweep '{0}' (#{1}): {2} pending jobs cancelled, {3} running left to "
      "finish\n",
      sweep->name, sweep->id, cancelled, counts.running);
  return 0;
}

int manageSweep() {
  llvm::StringRef verb = action[0];
  if ((verb != "rm" && verb != "cancel") || action.size() != 2) {
    error() << "expected 'sweeps', 'sweeps rm ID' or 'sweeps cancel ID'\n";
    return 2;
  }
  try {
    // Opened read-only first: a missing database is an error, not created.
    { ResultStore probe(databasePath, ResultStore::Access::ReadOnly); }
    return verb == "rm" ? removeSweep(action[1]) : cancelSweep(action[1]);
  } catch (const StoreError &e) {
    error() << e.what() << "\n";
    return 1;
  }
}
} // namespace

int runSweepsCommand() {
  if (!action.empty())
    return manageSweep();
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

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

/// Runs `change` on the sweep `selector` names, in the database opened for
/// writing.
llvm::Error changeSweep(
    llvm::StringRef selector,
    llvm::function_ref<llvm::Error(JobQueue &, const SweepRef &)> change) {
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath);
  if (!store)
    return store.takeError();
  llvm::Expected<SweepRef> sweep =
      requireSweep(**store, selector, databasePath);
  if (!sweep)
    return sweep.takeError();
  JobQueue queue(**store, QueuePolicy());
  return change(queue, *sweep);
}

/// Removes the sweep, unless a coordinator holds the database and the
/// sweep still has jobs to run: it would lease or finish jobs that vanish.
llvm::Error removeSweep(JobQueue &queue, const SweepRef &sweep) {
  llvm::Expected<std::unique_ptr<DatabaseLock>> lock =
      DatabaseLock::acquire(databasePath);
  if (!lock) {
    std::string held = llvm::toString(lock.takeError());
    llvm::Expected<SweepCounts> counts = queue.counts(sweep.id);
    if (!counts)
      return counts.takeError();
    if (!counts->finished())
      return llvm::createStringError(
          llvm::formatv(
              "sweep '{0}' (#{1}) has {2} pending and {3} running jobs and "
              "{4}; cancel it first (dispatchlab sweeps cancel {1}) and "
              "remove it once its running jobs end",
              sweep.name, sweep.id, counts->pending, counts->running, held)
              .str());
  }
  llvm::Expected<RemovedSweep> removed = queue.removeSweep(sweep.id);
  if (!removed)
    return removed.takeError();
  llvm::outs() << llvm::formatv(
      "removed sweep '{0}' (#{1}): {2} jobs, {3} results and {4} models no "
      "other sweep uses\n",
      sweep.name, sweep.id, removed->jobs, removed->results, removed->models);
  return llvm::Error::success();
}

/// Fails the pending jobs as cancelled, through the database: every
/// JobQueue change is one transaction that reads the job's state afresh, so
/// a coordinator on the database leases none of them afterwards.
llvm::Error cancelSweep(JobQueue &queue, const SweepRef &sweep) {
  llvm::Expected<int64_t> cancelled = queue.cancelPending(sweep.id, unixNow());
  if (!cancelled)
    return cancelled.takeError();
  llvm::Expected<SweepCounts> counts = queue.counts(sweep.id);
  if (!counts)
    return counts.takeError();
  llvm::outs() << llvm::formatv(
      "sweep '{0}' (#{1}): {2} pending jobs cancelled, {3} running left to "
      "finish\n",
      sweep.name, sweep.id, *cancelled, counts->running);
  return llvm::Error::success();
}

int manageSweep() {
  llvm::StringRef verb = action[0];
  if ((verb != "rm" && verb != "cancel") || action.size() != 2) {
    error() << "expected 'sweeps', 'sweeps rm ID' or 'sweeps cancel ID'\n";
    return 2;
  }
  // Opened read-only first: a missing database is an error, not created.
  llvm::Error failure =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly)
          .takeError();
  if (!failure)
    failure = changeSweep(action[1], verb == "rm" ? removeSweep : cancelSweep);
  if (failure) {
    error() << llvm::toString(std::move(failure)) << "\n";
    return 1;
  }
  return 0;
}

/// Prints every sweep of the database.
llvm::Error printAllSweeps() {
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  if (!store)
    return store.takeError();
  llvm::Expected<std::vector<SweepListing>> sweeps = listSweeps(**store);
  if (!sweeps)
    return sweeps.takeError();
  if (sweeps->empty())
    llvm::outs() << "no sweeps in " << databasePath << "\n";
  else
    printSweeps(*sweeps, llvm::outs());
  return llvm::Error::success();
}
} // namespace

int runSweepsCommand() {
  if (!action.empty())
    return manageSweep();
  if (llvm::Error failure = printAllSweeps()) {
    error() << llvm::toString(std::move(failure)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace dispatchlab

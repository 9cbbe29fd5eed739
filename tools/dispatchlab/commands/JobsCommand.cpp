//===- JobsCommand.cpp - `dispatchlab jobs` -------------------------------===//
//
// One line per job of a sweep, of any state: the way to a failed job, which
// has no result for `report` or `show RESULT` to find.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/JobsCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "proto/sweep.pb.h"
#include "results/Formatters.h"
#include "results/JobListing.h"
#include "results/ReportQueries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getJobsSubcommand() {
  static cl::SubCommand command(
      "jobs", "The jobs of a sweep, failed or not: model, variant, state, "
              "failure class, result id");
  return command;
}

namespace {
cl::opt<std::string>
    sweepSelector("sweep", cl::desc("Sweep name or id (default: the latest)"),
                  cl::value_desc("NAME|ID"), cl::sub(getJobsSubcommand()));
cl::opt<std::string> stateFilter("state",
                                 cl::desc("Only jobs in this state: pending, "
                                          "running, done, failed or cached"),
                                 cl::value_desc("STATE"),
                                 cl::sub(getJobsSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab jobs");
}

void printJobs(const SweepRef &ref, const std::vector<JobListing> &jobs,
               size_t total, llvm::raw_ostream &os) {
  os << llvm::formatv("sweep {0} (#{1}): ", ref.name, ref.id);
  if (stateFilter.empty())
    os << llvm::formatv("{0} jobs\n", total);
  else
    os << llvm::formatv("{0} of {1} jobs {2}\n", jobs.size(), total,
                        stateFilter);
  TextGrid grid;
  grid.header = {"job",   "model",   "variant", "kind",
                 "state", "failure", "result"};
  grid.numeric = {true, false, false, false, false, false, true};
  for (const JobListing &job : jobs)
    grid.rows.push_back({std::to_string(job.id), job.model, job.variant,
                         jobKindName(job.kind), job.state, job.failureClass,
                         job.resultId ? std::to_string(*job.resultId) : ""});
  printGrid(grid, OutputFormat::Table, os);
}

/// Prints the selected sweep's jobs.
llvm::Error listSweepJobs() {
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  if (!store)
    return store.takeError();
  llvm::Expected<SweepRef> ref =
      requireSweep(**store, sweepSelector, databasePath);
  if (!ref)
    return ref.takeError();
  JobFilter filter;
  filter.sweepId = ref->id;
  llvm::Expected<std::vector<JobListing>> all = listJobs(**store, filter);
  if (!all)
    return all.takeError();
  if (stateFilter.empty()) {
    printJobs(*ref, *all, all->size(), llvm::outs());
    return llvm::Error::success();
  }
  filter.state = stateFilter.getValue();
  llvm::Expected<std::vector<JobListing>> matching = listJobs(**store, filter);
  if (!matching)
    return matching.takeError();
  printJobs(*ref, *matching, all->size(), llvm::outs());
  return llvm::Error::success();
}
} // namespace

std::string jobKindName(int64_t kind) {
  if (!sweep::JobKind_IsValid(static_cast<int>(kind)))
    return llvm::formatv("kind {0}", kind).str();
  return llvm::StringRef(sweep::JobKind_Name(static_cast<sweep::JobKind>(kind)))
      .lower();
}

int runJobsCommand() {
  if (!stateFilter.empty() && !llvm::is_contained(jobStates(), stateFilter)) {
    error() << "unknown --state '" << stateFilter << "' ("
            << llvm::join(jobStates(), ", ") << ")\n";
    return 2;
  }
  if (llvm::Error failure = listSweepJobs()) {
    error() << llvm::toString(std::move(failure)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace dispatchlab

//===- ShowCommand.cpp - `dispatchlab show` -------------------------------===//
//
// Everything the database holds about one result: its key, provenance,
// worker, the jobs that produced or reused it, its model and options, and
// its dispatch groups; or, with --job, about one job (ShowJob.h), which may
// have failed and so have no result. The database keeps stats only, so
// `--emit=dot` and `--emit=dispatch-ir` compile the stored model bytes again
// with the stored options.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/ShowCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"
#include "tools/dispatchlab/commands/ShowJob.h"

#include "core/support/Provenance.h"
#include "proto/ProtoJson.h"
#include "results/Formatters.h"
#include "results/Metrics.h"
#include "results/ResultStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getShowSubcommand() {
  static cl::SubCommand command(
      "show", "Everything recorded for one result (by id or content key) "
              "or, with --job, one job");
  return command;
}

namespace {
cl::opt<std::string> selector(cl::Positional, cl::desc("RESULT_ID_OR_KEY"),
                              cl::sub(getShowSubcommand()));
cl::opt<std::string> jobSelector(
    "job", cl::desc("Show this job (ids as `dispatchlab jobs` lists them)"),
    cl::value_desc("JOB_ID"), cl::sub(getShowSubcommand()));
cl::opt<std::string>
    emit("emit",
         cl::desc("summary (default), stats (the stored JSON), dot or "
                  "dispatch-ir (compiled again from the stored model); "
                  "with --job also model (the stored model bytes)"),
         cl::init("summary"), cl::sub(getShowSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab show");
}

struct StoredResult {
  int64_t id = 0;
  std::string key, statsJson, provenanceJson;
  double wallSeconds = 0, createdAt = 0;
  std::string worker;
};

/// By id, by full content key, or by a unique key prefix of at least four
/// characters (like git). Text of digits only names an id when one exists;
/// content keys are hex, so such text may still be a key prefix. A key names
/// its newest result (what later jobs reuse); earlier reruns go by id.
llvm::Expected<StoredResult> findResult(ResultStore &store,
                                        llvm::StringRef text) {
  const std::string sql =
      "SELECT r.id, r.content_key, r.stats_json, r.provenance_json, "
      "r.wall_seconds, r.created_at, COALESCE(w.hostname || ' (worker #' || "
      "w.id || ', ' || w.cpu || ')', '') FROM results r LEFT JOIN workers w "
      "ON w.id = r.worker_id WHERE r.id = ?1 OR (?2 <> '' AND "
      "substr(r.content_key, 1, length(?2)) = ?2 AND r.id = (SELECT MAX(id) "
      "FROM results newest WHERE newest.content_key = r.content_key)) "
      "LIMIT 2";
  std::vector<StoredResult> found;
  auto lookUp = [&](int64_t id, llvm::StringRef prefix) -> llvm::Error {
    llvm::Expected<Statement &> query = store.query(sql, id, prefix);
    if (!query)
      return query.takeError();
    return query->forEachRow([&](const Statement &row) {
      found.push_back({row.getInt(0), row.getText(1), row.getText(2),
                       row.getText(3), row.getDouble(4), row.getDouble(5),
                       row.getText(6)});
    });
  };
  int64_t id = 0;
  if (!text.getAsInteger(10, id))
    if (llvm::Error error = lookUp(id, ""))
      return std::move(error);
  if (found.empty() && text.size() >= 4)
    if (llvm::Error error = lookUp(-1, text))
      return std::move(error);
  if (found.size() == 1)
    return found.front();
  return llvm::createStringError(
      found.empty() ? "no result '" + text.str() + "' in " + databasePath
                    : "key prefix '" + text.str() + "' is ambiguous");
}

/// How a COMPARE job measured, then a row per variant: its paired ratio to
/// the baseline and verdict, and where its code came from.
void printComparison(const results::Comparison &comparison,
                     llvm::raw_ostream &os) {
  os << llvm::formatv("  comparison   {0}: {1} rounds of {2} call(s) per "
                      "variant in {3:F2} s, stopped by {4}, order seed {5}, "
                      "{6} variant(s) compiled\n",
                      comparison.schedule(), comparison.rounds(),
                      comparison.calls_per_sample(),
                      comparison.rounds_seconds(), comparison.stopped_by(),
                      comparison.order_seed(), comparison.compiles());
  os << "  method       " << comparison.method() << "\n";
  if (comparison.has_noise_floor())
    os << "  noise floor  "
       << formatPairedRatio(comparison.noise_floor(), "(A/A)") << "\n";
  auto load = [](const results::HostConditions &host) {
    return host.has_load_average()
               ? llvm::formatv("{0:F2}", host.load_average()).str()
               : std::string("unknown");
  };
  os << "  load         " << load(comparison.host_before()) << " before, "
     << load(comparison.host_after()) << " after\n\n";

  TextGrid grid;
  grid.header = {"variant", "dispatches",           "median",
                 "cv",      "vs baseline (paired)", "code"};
  grid.numeric = {false, true, true, true, false, false};
  for (const results::ComparedVariant &variant : comparison.variants()) {
    bool timed = !variant.has_identical_to();
    std::string code = variant.has_relinked_from()
                           ? "linked again from " + variant.relinked_from()
                           : "compiled, cache " + variant.code_cache();
    grid.rows.push_back(
        {variant.name(), std::to_string(variant.dispatches()),
         timed ? formatDuration(variant.median_ms()) : "",
         timed ? formatCoefficientOfVariation(variant.cv()) : "",
         formatComparedVariant(variant), code});
  }
  printGrid(grid, OutputFormat::Table, os);
}

/// The counts of a result's stats and its dispatch groups, or its
/// comparison.
void printStats(const StoredResult &result, llvm::raw_ostream &os) {
  llvm::Expected<results::CompileStats> stats =
      parseProtoJson<results::CompileStats>(result.statsJson);
  if (!stats) {
    os << "  stats        (not stats JSON: "
       << llvm::toString(stats.takeError()) << ")\n";
    return;
  }
  if (stats->has_comparison()) {
    printComparison(stats->comparison(), os);
    return;
  }
  os << "  stats       ";
  JobRecord job;
  job.statsJson = result.statsJson;
  job.resultId = result.id;
  for (const Metric &metric : Metric::all())
    if (std::optional<double> value = metric.valueOf(job);
        value && metric.isCount)
      os << " " << metric.name << "=" << static_cast<int64_t>(*value);
  os << "\n\n";

  TextGrid groups;
  groups.header = {"group",  "kind",     "root",    "members",
                   "cloned", "operands", "results", "executable"};
  groups.numeric = {false, false, false, false, false, true, true, false};
  for (const results::DispatchGroup &group : stats->groups())
    groups.rows.push_back(
        {group.name(), group.kind(), group.root(),
         llvm::join(group.members(), " "), llvm::join(group.cloned(), " "),
         std::to_string(group.operands()), std::to_string(group.results()),
         group.executable()});
  printGrid(groups, OutputFormat::Table, os);
}

llvm::Error printSummary(ResultStore &store, const StoredResult &result,
                         llvm::raw_ostream &os) {
  os << "result " << result.id << "\n";
  os << "  content key  " << result.key << "\n";
  os << "  created      " << formatUtcTime(result.createdAt) << "\n";
  os << llvm::formatv("  wall time    {0:F3} s\n", result.wallSeconds);
  if (!result.worker.empty())
    os << "  worker       " << result.worker << "\n";
  os << "  provenance   " << result.provenanceJson << "\n";
  printLatency(result.statsJson, os);

  llvm::Expected<Statement &> jobs = store.query(
      "SELECT s.name, s.id, j.model_name, j.model_hash, j.variant, j.preset, "
      "j.state, j.options, length(m.content), m.extension FROM jobs j JOIN "
      "sweeps s ON s.id = j.sweep_id LEFT JOIN models m ON m.hash = "
      "j.model_hash WHERE j.result_id = ?1 ORDER BY j.id",
      result.id);
  if (!jobs)
    return jobs.takeError();
  std::string options;
  if (llvm::Error error = jobs->forEachRow([&](const Statement &job) {
        if (options.empty()) {
          os << "  model        " << job.getText(2) << " (" << job.getText(9)
             << ", " << job.getInt(8) << " bytes, sha256 " << job.getText(3)
             << ")\n";
          os << "  preset       " << job.getText(5) << "\n";
          options = job.getText(7);
        }
        os << llvm::formatv(
            "  job          sweep {0} (#{1}), variant {2}: {3}\n",
            job.getText(0), job.getInt(1), job.getText(4), job.getText(6));
      }))
    return error;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(options).split(lines, '\n', -1, false);
  os << "  options      " << llvm::join(lines, " ") << "\n";

  printStats(result, os);
  return llvm::Error::success();
}

/// What compiling a result again takes: the model and options of the
/// first job that points at it.
struct StoredCompile {
  StoredModel model;
  std::string preset, options;
};

llvm::Expected<StoredCompile> storedCompile(ResultStore &store,
                                            int64_t resultId) {
  llvm::Expected<Statement &> job =
      store.query("SELECT j.model_hash, j.preset, j.options FROM jobs j "
                  "WHERE j.result_id = ?1 ORDER BY j.id LIMIT 1",
                  resultId);
  if (!job)
    return job.takeError();
  std::optional<std::string> hash;
  StoredCompile compile;
  if (llvm::Error error = job->firstRow([&](const Statement &row) {
        hash = row.getText(0);
        compile.preset = row.getText(1);
        compile.options = row.getText(2);
      }))
    return std::move(error);
  if (!hash)
    return llvm::createStringError(
        llvm::formatv("no job points at result {0}", resultId).str());
  llvm::Expected<std::optional<StoredModel>> model = store.getModel(*hash);
  if (!model)
    return model.takeError();
  if (!*model)
    return llvm::createStringError("the database has no bytes for model " +
                                   *hash);
  compile.model = std::move(**model);
  return compile;
}

/// Writes the stored model to a temporary file and runs this binary's
/// `compile` on it with the stored preset and options.
llvm::Expected<int> recompile(ResultStore &store, const StoredResult &result) {
  llvm::Expected<StoredCompile> job = storedCompile(store, result.id);
  if (!job)
    return job.takeError();
  const StoredModel &model = job->model;
  const std::string &preset = job->preset, &options = job->options;
  llvm::SmallString<128> path;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "dispatchlab-show", llvm::StringRef(model.extension).drop_front(), fd,
          path))
    return llvm::createStringError("cannot create a temporary file: " +
                                   ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << model.content;
  }
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&runShowCommand));
  std::vector<std::string> args = {self, "compile", std::string(path),
                                   "--preset=" + preset};
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(options).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines)
    args.push_back(("--" + line).str());
  args.push_back("--emit=" + emit);

  Provenance current = Provenance::current();
  llvm::Expected<llvm::json::Value> stored =
      llvm::json::parse(result.provenanceJson);
  std::string storedCommit;
  if (stored && stored->getAsObject())
    storedCommit = stored->getAsObject()
                       ->getString("dispatchlab_commit")
                       .value_or("")
                       .str();
  else if (!stored)
    llvm::consumeError(stored.takeError());
  llvm::errs() << "dispatchlab show: the database stores no " << emit
               << " output; compiling " << model.name
               << " again from its stored bytes with the stored options\n";
  if (storedCommit != current.dispatchlabCommit)
    llvm::errs() << "dispatchlab show: warning: the result came from "
                    "dispatchlab "
                 << storedCommit << ", this is " << current.dispatchlabCommit
                 << "; the output may differ\n";
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(self, argRefs, std::nullopt, {}, 0, 0,
                                     &message);
  llvm::sys::fs::remove(path);
  if (rc < 0)
    return llvm::createStringError("cannot run " + self + ": " + message);
  return rc == 0 ? 0 : 1;
}

/// The stored bytes of the job's model on stdout.
llvm::Expected<std::optional<StoredResult>> printModel(ResultStore &store,
                                                       const JobListing &job) {
  llvm::Expected<std::optional<StoredModel>> model =
      store.getModel(job.modelHash);
  if (!model)
    return model.takeError();
  if (!*model)
    return llvm::createStringError(
        llvm::formatv("the database has no bytes for model {0} of job {1}",
                      job.model, job.id)
            .str());
  llvm::outs() << (*model)->content;
  return std::nullopt;
}

/// `show --job`: the job's summary or model bytes, else what its result
/// shows; nothing when the job has no such thing.
llvm::Expected<std::optional<StoredResult>> showJob(ResultStore &store) {
  int64_t id = 0;
  llvm::Expected<std::optional<JobListing>> job =
      llvm::StringRef(jobSelector).getAsInteger(10, id)
          ? std::optional<JobListing>()
          : findJob(store, id);
  if (!job)
    return job.takeError();
  if (!*job)
    return llvm::createStringError("no job '" + jobSelector + "' in " +
                                   databasePath +
                                   " (dispatchlab jobs lists a sweep's jobs)");
  if (emit == "summary") {
    printJob(**job, llvm::outs());
    return std::nullopt;
  }
  if (emit == "model")
    return printModel(store, **job);
  if ((*job)->resultId)
    return findResult(store, std::to_string(*(*job)->resultId));
  return llvm::createStringError(
      llvm::formatv("job {0} ({1}, variant {2}) is {3} and has no result for "
                    "--emit={4}",
                    (*job)->id, (*job)->model, (*job)->variant, (*job)->state,
                    emit)
          .str());
}

/// The result to show; nothing when what there was to show is printed.
llvm::Expected<std::optional<StoredResult>> selectResult(ResultStore &store) {
  if (!jobSelector.empty())
    return showJob(store);
  return findResult(store, selector);
}

/// Shows the selected result or job; the exit code.
llvm::Expected<int> show() {
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  if (!store)
    return store.takeError();
  llvm::Expected<std::optional<StoredResult>> result = selectResult(**store);
  if (!result)
    return result.takeError();
  if (!*result)
    return 0;
  if (emit == "stats") {
    llvm::outs() << (*result)->statsJson
                 << (llvm::StringRef((*result)->statsJson).ends_with("\n")
                         ? ""
                         : "\n");
    return 0;
  }
  if (emit != "summary")
    return recompile(**store, **result);
  if (llvm::Error error = printSummary(**store, **result, llvm::outs()))
    return std::move(error);
  return 0;
}
} // namespace

int runShowCommand() {
  bool jobOnly = emit == "model";
  if (emit != "summary" && emit != "stats" && emit != "dot" &&
      emit != "dispatch-ir" && !jobOnly) {
    error() << "unknown --emit '" << emit
            << "' (summary, stats, dot, dispatch-ir; model with --job)\n";
    return 2;
  }
  if (selector.empty() == jobSelector.empty() ||
      (jobOnly && jobSelector.empty())) {
    error() << (jobOnly ? "--emit=model needs --job JOB_ID"
                        : "name one result (RESULT_ID_OR_KEY) or one job "
                          "(--job JOB_ID)")
            << "\n";
    return 2;
  }
  llvm::Expected<int> rc = show();
  if (!rc) {
    error() << llvm::toString(rc.takeError()) << "\n";
    return 1;
  }
  return *rc;
}

} // namespace dispatchlab

//===- JobHandlers.cpp - what each kind of job runs and reports -----------===//

#include "workers/JobHandlers.h"

#include "coordinator/ComparedVariants.h"
#include "proto/ProtoJson.h"
#include "proto/results.pb.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace dispatchlab {

namespace {
/// `command MODEL --preset=P --KNOB=VALUE...`: the canonical options text
/// is the complete variant, every knob.
std::vector<std::string> modelArguments(llvm::StringRef command,
                                        const coordinator::Job &job,
                                        const JobContext &context) {
  std::vector<std::string> arguments = {command.str(), context.modelPath,
                                        "--preset=" + job.preset()};
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(job.options()).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines)
    arguments.push_back(("--" + line).str());
  return arguments;
}

llvm::Expected<JobCommand> prepareCompile(const coordinator::Job &job,
                                          const JobContext &context) {
  JobCommand command{modelArguments("compile", job, context)};
  command.arguments.push_back("--emit=stats");
  return command;
}

/// The cores a measuring job reserves (measurement.threads), or why this
/// worker cannot give them.
llvm::Expected<unsigned> reservedCores(const coordinator::Job &job,
                                       const JobContext &context) {
  unsigned threads = std::max(1u, job.measurement().threads());
  // Waiting for cores this worker does not have would never end.
  size_t usable = std::min<size_t>(context.slots, context.cores);
  if (threads > usable)
    return llvm::createStringError(
        llvm::formatv(
            "{0} job needs {1} cores (measurement.threads) but this worker "
            "pins {0} jobs to at most {2} ({3} slots, {4} usable cores)",
            job.kind() == sweep::RUN ? "run" : "compare", threads, usable,
            context.slots, context.cores)
            .str());
  return threads;
}

/// What `run` and `compare` share: JSON out, the threads, the warm-up and
/// the weights.
void addMeasurementFlags(const sweep::Measurement &measurement,
                         unsigned threads,
                         std::vector<std::string> &arguments) {
  arguments.push_back("--emit=json");
  arguments.push_back(llvm::formatv("--threads={0}", threads).str());
  // Every digit: formatv's default for doubles keeps two decimals.
  if (measurement.warmup_seconds() > 0)
    arguments.push_back(
        llvm::formatv("--warmup-seconds={0:e16}", measurement.warmup_seconds())
            .str());
  // Latency does not depend on weight values, and zoo models ship without
  // them: every measuring job uses seeded pseudo-random weights.
  arguments.push_back("--parameters=random");
}

/// The worker's caches (WorkerConfig), shared by its run and compare jobs.
void addCacheFlags(const JobContext &context,
                   std::vector<std::string> &arguments) {
  if (!context.cacheDirectory.empty())
    arguments.push_back("--cache-dir=" + context.cacheDirectory);
  if (context.cacheMaxMb != 0)
    arguments.push_back(
        llvm::formatv("--cache-max-mb={0}", context.cacheMaxMb).str());
}

llvm::Expected<JobCommand> prepareRun(const coordinator::Job &job,
                                      const JobContext &context) {
  const sweep::Measurement &measurement = job.measurement();
  llvm::Expected<unsigned> threads = reservedCores(job, context);
  if (!threads)
    return threads.takeError();
  JobCommand command{modelArguments("run", job, context), *threads};
  std::vector<std::string> &arguments = command.arguments;
  addMeasurementFlags(measurement, *threads, arguments);
  arguments.push_back(llvm::formatv("--repetitions={0}",
                                    std::max(1u, measurement.repetitions()))
                          .str());
  if (measurement.tolerance() > 0)
    arguments.push_back(
        llvm::formatv("--tolerance={0:e16}", measurement.tolerance()).str());
  addCacheFlags(context, arguments);
  return command;
}

/// The measurement's COMPARE settings as `dispatchlab compare`'s flags of
/// the same names; unset ones are left to compare's defaults.
void addCompareFlags(const sweep::Measurement &measurement,
                     std::vector<std::string> &arguments) {
  auto addDouble = [&](llvm::StringRef flag, double value) {
    if (value > 0)
      arguments.push_back(llvm::formatv("--{0}={1:e16}", flag, value).str());
  };
  addDouble("target-ci-percent", measurement.target_ci_percent());
  addDouble("budget-seconds", measurement.budget_seconds());
  addDouble("max-load", measurement.max_load());
  if (measurement.order_seed() > 0)
    arguments.push_back(
        llvm::formatv("--order-seed={0}", measurement.order_seed()).str());
  if (measurement.max_rounds() > 0)
    arguments.push_back(
        llvm::formatv("--max-rounds={0}", measurement.max_rounds()).str());
  if (measurement.copies() > 0)
    arguments.push_back(
        llvm::formatv("--copies={0}", measurement.copies()).str());
  if (measurement.aa())
    arguments.push_back("--aa");
}

/// `compare MODEL --variant=PRESET,KNOB=VALUE... --variant-name=NAME...`,
/// the baseline first, every knob of each variant spelled out.
llvm::Expected<JobCommand> prepareCompare(const coordinator::Job &job,
                                          const JobContext &context) {
  llvm::Expected<std::vector<ResolvedVariant>> variants =
      parseComparedVariants(job.options());
  if (!variants)
    return variants.takeError();
  llvm::Expected<unsigned> threads = reservedCores(job, context);
  if (!threads)
    return threads.takeError();
  JobCommand command{{"compare", context.modelPath}, *threads};
  std::vector<std::string> &arguments = command.arguments;
  for (const ResolvedVariant &variant : *variants) {
    llvm::SmallVector<llvm::StringRef> knobs;
    llvm::StringRef(variant.options).split(knobs, '\n', -1, false);
    arguments.push_back("--variant=" + variant.preset +
                        (knobs.empty() ? "" : "," + llvm::join(knobs, ",")));
  }
  // Separately: axis variants' names hold ',' and '='.
  for (const ResolvedVariant &variant : *variants)
    arguments.push_back("--variant-name=" + variant.name);
  addMeasurementFlags(job.measurement(), *threads, arguments);
  addCompareFlags(job.measurement(), arguments);
  addCacheFlags(context, arguments);
  return command;
}

/// The test kinds are `dispatchlab worker --test-job=...` children.
llvm::Expected<JobCommand> prepareTestCrash(const coordinator::Job &,
                                            const JobContext &) {
  return JobCommand{{"worker", "--test-job=crash"}};
}

llvm::Expected<JobCommand> prepareTestHang(const coordinator::Job &,
                                           const JobContext &) {
  return JobCommand{{"worker", "--test-job=hang"}};
}

llvm::Expected<JobCommand> prepareTestSleep(const coordinator::Job &job,
                                            const JobContext &) {
  return JobCommand{
      {"worker", "--test-job=sleep",
       llvm::formatv("--test-sleep-ms={0}", job.measurement().test_sleep_ms())
           .str()}};
}

/// The child's output as a JSON object.
llvm::Expected<llvm::json::Object> parseStatsObject(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> stats = llvm::json::parse(text);
  if (!stats || !stats->getAsObject()) {
    if (!stats)
      llvm::consumeError(stats.takeError());
    return llvm::createStringError(
        "exit code 0 but the output is not a stats JSON object");
  }
  return std::move(*stats->getAsObject());
}

/// The stats' "provenance", as compact JSON.
std::optional<std::string> provenanceOf(const llvm::json::Object &stats) {
  const llvm::json::Value *provenance = stats.get("provenance");
  if (!provenance)
    return std::nullopt;
  std::string json;
  llvm::raw_string_ostream os(json);
  os << *provenance;
  return json;
}

/// Stats as the child printed them.
llvm::Expected<JobStats> parseStatsOutput(llvm::StringRef text) {
  llvm::Expected<llvm::json::Object> stats = parseStatsObject(text);
  if (!stats)
    return stats.takeError();
  return JobStats{text.str(), provenanceOf(*stats)};
}

/// Results are compile stats at the top level (what reports pivot on); a
/// run job's record goes beside them under "run", its provenance also on
/// the stats.
llvm::Expected<JobStats> parseRunOutput(llvm::StringRef text) {
  if (llvm::Expected<llvm::json::Object> object = parseStatsObject(text);
      !object)
    return object.takeError();
  results::RunResult run;
  if (llvm::Error error = jsonToProto(text, run))
    return llvm::createStringError("exit code 0 but the run output is not a "
                                   "run result: " +
                                   llvm::toString(std::move(error)));
  if (!run.has_compile())
    return llvm::createStringError(
        "exit code 0 but the run output has no compile stats");
  results::CompileStats stats = std::move(*run.mutable_compile());
  run.clear_compile();
  if (run.has_provenance())
    *stats.mutable_provenance() = run.provenance();
  *stats.mutable_run() = std::move(run);
  llvm::json::Object merged = protoToJson(stats);
  std::optional<std::string> provenance = provenanceOf(merged);
  llvm::json::Value json(std::move(merged));
  return JobStats{llvm::formatv("{0:2}", json).str(), std::move(provenance)};
}

/// A comparison is stored beside the model's name and the provenance, under
/// "comparison" (results.proto's Comparison).
llvm::Expected<JobStats> parseCompareOutput(llvm::StringRef text) {
  llvm::Expected<llvm::json::Object> comparison = parseStatsObject(text);
  if (!comparison)
    return comparison.takeError();
  if (!comparison->getArray("variants"))
    return llvm::createStringError(
        "exit code 0 but the compare output has no variants");
  llvm::json::Object stored;
  for (const char *moved : {"model", "provenance"})
    if (llvm::json::Value *value = comparison->get(moved)) {
      stored[moved] = std::move(*value);
      comparison->erase(moved);
    }
  stored["comparison"] = std::move(*comparison);
  std::optional<std::string> provenance = provenanceOf(stored);
  llvm::json::Value stats(std::move(stored));
  return JobStats{llvm::formatv("{0:2}", stats).str(), std::move(provenance)};
}

const JobHandler kHandlers[] = {
    // In-process: the load test measures coordination, not process spawns.
    {sweep::TEST_NOOP, false, nullptr, nullptr},
    {sweep::COMPILE, true, prepareCompile, parseStatsOutput},
    {sweep::RUN, true, prepareRun, parseRunOutput},
    {sweep::COMPARE, true, prepareCompare, parseCompareOutput},
    {sweep::TEST_CRASH, false, prepareTestCrash, parseStatsOutput},
    {sweep::TEST_HANG, false, prepareTestHang, parseStatsOutput},
    {sweep::TEST_SLEEP, false, prepareTestSleep, parseStatsOutput},
};
} // namespace

const JobHandler *findJobHandler(sweep::JobKind kind) {
  const JobHandler *handler = llvm::find_if(
      kHandlers, [&](const JobHandler &h) { return h.kind == kind; });
  return handler == std::end(kHandlers) ? nullptr : handler;
}

} // namespace dispatchlab

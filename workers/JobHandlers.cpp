//===- JobHandlers.cpp - what each kind of job runs and reports -----------===//

#include "workers/JobHandlers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
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

llvm::Expected<JobCommand> prepareRun(const coordinator::Job &job,
                                      const JobContext &context) {
  const sweep::Measurement &measurement = job.measurement();
  unsigned threads = std::max(1u, measurement.threads());
  // Waiting for cores this worker does not have would never end.
  size_t usable = std::min<size_t>(context.slots, context.cores);
  if (threads > usable)
    return llvm::createStringError(
        llvm::formatv(
            "run job needs {0} cores (measurement.threads) but this worker "
            "pins run jobs to at most {1} ({2} slots, {3} usable cores)",
            threads, usable, context.slots, context.cores)
            .str());
  JobCommand command{modelArguments("run", job, context), threads};
  std::vector<std::string> &arguments = command.arguments;
  arguments.push_back("--emit=json");
  arguments.push_back(llvm::formatv("--threads={0}", threads).str());
  arguments.push_back(llvm::formatv("--repetitions={0}",
                                    std::max(1u, measurement.repetitions()))
                          .str());
  // Every digit: formatv's default for doubles keeps two decimals.
  if (measurement.tolerance() > 0)
    arguments.push_back(
        llvm::formatv("--tolerance={0:e16}", measurement.tolerance()).str());
  if (measurement.warmup_seconds() > 0)
    arguments.push_back(
        llvm::formatv("--warmup-seconds={0:e16}", measurement.warmup_seconds())
            .str());
  // Latency does not depend on weight values, and zoo models ship without
  // them: every run job uses seeded pseudo-random weights.
  arguments.push_back("--parameters=random");
  if (!context.cacheDirectory.empty())
    arguments.push_back("--cache-dir=" + context.cacheDirectory);
  if (context.cacheMaxMb != 0)
    arguments.push_back(
        llvm::formatv("--cache-max-mb={0}", context.cacheMaxMb).str());
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
/// run job's measurement goes beside them under "run".
llvm::Expected<JobStats> parseRunOutput(llvm::StringRef text) {
  llvm::Expected<llvm::json::Object> run = parseStatsObject(text);
  if (!run)
    return run.takeError();
  llvm::json::Object *compileStats = run->getObject("compile");
  if (!compileStats)
    return llvm::createStringError(
        "exit code 0 but the run output has no compile stats");
  llvm::json::Object merged = std::move(*compileStats);
  run->erase("compile");
  if (llvm::json::Value *provenance = run->get("provenance"))
    merged["provenance"] = *provenance;
  merged["run"] = std::move(*run);
  std::optional<std::string> provenance = provenanceOf(merged);
  llvm::json::Value stats(std::move(merged));
  return JobStats{llvm::formatv("{0:2}", stats).str(), std::move(provenance)};
}

const JobHandler kHandlers[] = {
    // In-process: the load test measures coordination, not process spawns.
    {sweep::TEST_NOOP, false, nullptr, nullptr},
    {sweep::COMPILE, true, prepareCompile, parseStatsOutput},
    {sweep::RUN, true, prepareRun, parseRunOutput},
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

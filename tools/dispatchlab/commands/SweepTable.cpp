//===- SweepTable.cpp - a finished sweep as a table -----------------------===//

#include "tools/dispatchlab/commands/SweepTable.h"

#include "proto/ProtoJson.h"
#include "results/Formatters.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

namespace {
/// The stats of a job with a result.
std::optional<results::CompileStats> statsOf(const coordinator::JobRow &job) {
  llvm::Expected<results::CompileStats> stats =
      parseProtoJson<results::CompileStats>(job.stats_json());
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return std::nullopt;
  }
  return std::move(*stats);
}

std::vector<std::string> rowOf(const coordinator::JobRow &job,
                               bool withLatency) {
  std::vector<std::string> row = {
      job.model(), job.variant(), job.state(), "", "", ""};
  if (withLatency)
    row.insert(row.end(), {"", ""});
  if (std::optional<results::CompileStats> stats = statsOf(job)) {
    auto count = [](bool present, int64_t value) {
      return present ? std::to_string(value) : std::string();
    };
    row[3] = count(stats->has_dispatches(), stats->dispatches());
    row[4] = count(stats->has_executables(), stats->executables());
    row[5] = count(stats->has_transient_bytes(), stats->transient_bytes());
    if (withLatency && stats->run().has_latency()) {
      const results::Latency &latency = stats->run().latency();
      row[6] = formatDuration(latency.median_ms());
      row[7] = formatCoefficientOfVariation(latency.cv());
    }
  }
  // First line only: stderr tails live in the database.
  row.push_back(llvm::StringRef(job.error()).split('\n').first.str());
  return row;
}
} // namespace

void printSweepTable(const coordinator::SweepProgress &progress,
                     llvm::raw_ostream &os) {
  // Latency columns only when the sweep measured some: compile sweeps keep
  // their table.
  bool withLatency = llvm::any_of(progress.rows(), [](const auto &job) {
    std::optional<results::CompileStats> stats = statsOf(job);
    return stats && stats->run().has_latency();
  });
  TextGrid grid;
  grid.header = {"model",      "variant",     "state",
                 "dispatches", "executables", "transient"};
  grid.numeric = {false, false, false, true, true, true};
  if (withLatency) {
    grid.header.insert(grid.header.end(), {"latency", "cv"});
    grid.numeric.insert(grid.numeric.end(), {true, true});
  }
  grid.header.push_back("error");
  grid.numeric.push_back(false);
  for (const coordinator::JobRow &job : progress.rows())
    grid.rows.push_back(rowOf(job, withLatency));
  printGrid(grid, OutputFormat::Table, os);
}

} // namespace dispatchlab

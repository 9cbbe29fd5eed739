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

/// Which optional columns the table has: latency when some job measured
/// it, the paired ratio when some job compared variants.
struct Columns {
  bool latency = false;
  bool paired = false;
};

std::vector<std::string> rowOf(const coordinator::JobRow &job,
                               const Columns &columns) {
  std::vector<std::string> row = {
      job.model(), job.variant(), job.state(), "", "", ""};
  row.resize(row.size() + 2 * columns.latency + columns.paired);
  if (std::optional<results::CompileStats> stats = statsOf(job)) {
    auto count = [](bool present, int64_t value) {
      return present ? std::to_string(value) : std::string();
    };
    row[3] = count(stats->has_dispatches(), stats->dispatches());
    row[4] = count(stats->has_executables(), stats->executables());
    row[5] = count(stats->has_transient_bytes(), stats->transient_bytes());
    if (columns.latency && stats->run().has_latency()) {
      const results::Latency &latency = stats->run().latency();
      row[6] = formatDuration(latency.median_ms());
      row[7] = formatCoefficientOfVariation(latency.cv());
    }
  }
  // First line only: stderr tails live in the database.
  row.push_back(llvm::StringRef(job.error()).split('\n').first.str());
  return row;
}

/// A COMPARE job's variants, a row each: its dispatches, median and cv,
/// and its ratio to the comparison's baseline from the same rounds.
void addComparedRows(const coordinator::JobRow &job,
                     const results::Comparison &comparison,
                     std::vector<std::vector<std::string>> &rows) {
  for (const results::ComparedVariant &variant : comparison.variants()) {
    bool timed = !variant.has_identical_to();
    rows.push_back({job.model(), variant.name(), job.state(),
                    std::to_string(variant.dispatches()), "", "",
                    timed ? formatDuration(variant.median_ms()) : "",
                    timed ? formatCoefficientOfVariation(variant.cv()) : "",
                    formatComparedVariant(variant), ""});
  }
}
} // namespace

void printSweepTable(const coordinator::SweepProgress &progress,
                     llvm::raw_ostream &os) {
  // Optional columns only when the sweep measured something: compile
  // sweeps keep their table.
  Columns columns;
  for (const coordinator::JobRow &job : progress.rows())
    if (std::optional<results::CompileStats> stats = statsOf(job)) {
      columns.latency |= stats->run().has_latency();
      columns.paired |= stats->has_comparison();
    }
  columns.latency |= columns.paired;
  TextGrid grid;
  grid.header = {"model",      "variant",     "state",
                 "dispatches", "executables", "transient"};
  grid.numeric = {false, false, false, true, true, true};
  if (columns.latency) {
    grid.header.insert(grid.header.end(), {"latency", "cv"});
    grid.numeric.insert(grid.numeric.end(), {true, true});
  }
  if (columns.paired) {
    grid.header.push_back("vs baseline (paired)");
    grid.numeric.push_back(false);
  }
  grid.header.push_back("error");
  grid.numeric.push_back(false);
  for (const coordinator::JobRow &job : progress.rows()) {
    std::optional<results::CompileStats> stats = statsOf(job);
    if (stats && stats->has_comparison())
      addComparedRows(job, stats->comparison(), grid.rows);
    else
      grid.rows.push_back(rowOf(job, columns));
  }
  printGrid(grid, OutputFormat::Table, os);
}

} // namespace dispatchlab

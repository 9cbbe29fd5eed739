//===- DiffCommand.cpp - `dispatchlab diff` -------------------------------===//
//
// What changed between two sweeps, per (model, variant) matched by name: the
// dispatch count, which dispatch groups came or went, and for run results
// the latency when a Mann-Whitney U test over the raw samples calls the
// change significant. Groups are compared by executable hash, the stats'
// fingerprint of a dispatch's contents, so a group that only moved or was
// renamed does not count as a change.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/DiffCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "results/Formatters.h"
#include "results/ReportQueries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <map>

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getDiffSubcommand() {
  static cl::SubCommand command(
      "diff", "Dispatch and significant latency changes between two sweeps, "
              "per model and variant");
  return command;
}

namespace {
cl::list<std::string> sweeps(cl::Positional, cl::desc("SWEEP_A SWEEP_B"),
                             cl::OneOrMore, cl::sub(getDiffSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab diff");
}

/// A job's dispatch groups: executable hash -> names of the groups with it.
using GroupSet = std::map<std::string, std::vector<std::string>>;

struct Outcome {
  std::string text; // dispatch count or failure class
  std::optional<int64_t> dispatches;
  GroupSet groups;
  std::optional<LatencyRecord> latency;
};

Outcome outcomeOf(const JobRecord &job) {
  Outcome outcome;
  std::optional<double> dispatches = Metric::byDefault().valueOf(job);
  if (!dispatches) {
    outcome.text =
        job.state == "failed" ? classifyFailure(job.error) : job.state;
    return outcome;
  }
  outcome.dispatches = static_cast<int64_t>(*dispatches);
  outcome.latency = latencyOf(job);
  outcome.text = std::to_string(*outcome.dispatches);
  if (std::optional<results::CompileStats> stats = job.stats())
    for (const results::DispatchGroup &group : stats->groups())
      outcome.groups[group.executable()].push_back(group.name());
  return outcome;
}

/// Group names in `from` whose executables `to` has fewer of.
std::vector<std::string> missingFrom(const GroupSet &from, const GroupSet &to) {
  std::vector<std::string> names;
  for (const auto &[hash, groupNames] : from) {
    auto it = to.find(hash);
    size_t kept = it == to.end() ? 0 : it->second.size();
    for (size_t i = kept; i < groupNames.size(); ++i)
      names.push_back(groupNames[i]);
  }
  return names;
}

std::string describeGroups(llvm::StringRef sign,
                           const std::vector<std::string> &names) {
  if (names.empty())
    return "";
  // Long lists are summarized: the count is what a reader scans for.
  const size_t shown = 3;
  std::vector<std::string> head(names.begin(),
                                names.begin() + std::min(shown, names.size()));
  std::string text =
      llvm::formatv("{0}{1}: {2}", sign, names.size(), llvm::join(head, " "))
          .str();
  if (names.size() > shown)
    text += llvm::formatv(" ... (+{0} more)", names.size() - shown).str();
  return text;
}
/// Each (model, variant) of both sweeps, in first-seen order, with its
/// outcome on either side.
struct SweepPair {
  SweepRef refs[2];
  std::map<std::pair<std::string, std::string>, Outcome> outcomes[2];
  std::vector<std::pair<std::string, std::string>> order;

  /// Latency is compared only where both sweeps measured it.
  bool bothTimed(const std::pair<std::string, std::string> &key) const {
    auto a = outcomes[0].find(key), b = outcomes[1].find(key);
    return a != outcomes[0].end() && b != outcomes[1].end() &&
           a->second.latency && b->second.latency;
  }
};

/// Reads both sweeps; fails saying which one is missing.
llvm::Expected<SweepPair> loadSweepPair(ResultStore &store) {
  SweepPair pair;
  for (int side = 0; side < 2; ++side) {
    llvm::Expected<SweepRef> found =
        requireSweep(store, sweeps[side], databasePath);
    if (!found)
      return found.takeError();
    // Both names can select one sweep (an id and a name, or a name twice).
    if (side == 1 && found->id == pair.refs[0].id)
      return llvm::createStringError(
          llvm::formatv("'{0}' and '{1}' are the same sweep, {2} (#{3}); "
                        "name two sweeps",
                        sweeps[0], sweeps[1], found->name, found->id)
              .str());
    pair.refs[side] = *found;
    llvm::Expected<std::vector<JobRecord>> jobs =
        loadSweepJobs(store, found->id);
    if (!jobs)
      return jobs.takeError();
    for (const JobRecord &job : *jobs) {
      auto key = std::make_pair(job.model, job.variant);
      if (!pair.outcomes[0].count(key) && !pair.outcomes[1].count(key))
        pair.order.push_back(key);
      pair.outcomes[side][key] = outcomeOf(job);
    }
  }
  return pair;
}

/// The diff's rows and what its closing lines count.
struct DiffTable {
  TextGrid grid;
  bool timed = false;
  int differing = 0, latencyTested = 0, latencyChanged = 0;
  size_t fewestSamples = std::numeric_limits<size_t>::max();
  int64_t totals[2] = {0, 0};
};

/// The latency cell of a pair both sweeps timed; true in `significant`
/// when the U test calls the change significant.
std::string compareLatencies(const LatencyRecord &before,
                             const LatencyRecord &after, DiffTable &table,
                             bool &significant) {
  std::optional<double> ratio;
  if (before.medianMs > 0)
    ratio = after.medianMs / before.medianMs;
  std::optional<LatencyComparison> comparison;
  if (!before.samplesMs.empty() && !after.samplesMs.empty()) {
    comparison = compareLatency(before.samplesMs, after.samplesMs);
    ++table.latencyTested;
    table.fewestSamples = std::min(
        {table.fewestSamples, before.samplesMs.size(), after.samplesMs.size()});
    significant = comparison->significant();
    table.latencyChanged += significant;
  }
  return formatLatencyRatio(ratio, comparison ? &*comparison : nullptr);
}

/// One row for a pair both sweeps hold, unless nothing about it changed.
void addChangedRow(const SweepPair &pair,
                   const std::pair<std::string, std::string> &key,
                   DiffTable &table) {
  const Outcome &from = pair.outcomes[0].at(key),
                &to = pair.outcomes[1].at(key);
  if (from.dispatches && to.dispatches) {
    table.totals[0] += *from.dispatches;
    table.totals[1] += *to.dispatches;
  }
  std::vector<std::string> removed = missingFrom(from.groups, to.groups);
  std::vector<std::string> added = missingFrom(to.groups, from.groups);
  std::string latency;
  bool latencySignificant = false;
  if (pair.bothTimed(key))
    latency =
        compareLatencies(*from.latency, *to.latency, table, latencySignificant);
  if (from.text == to.text && removed.empty() && added.empty() &&
      !latencySignificant)
    return;
  ++table.differing;
  std::string change;
  if (from.dispatches && to.dispatches)
    change =
        llvm::formatv("{0}{1}", *to.dispatches >= *from.dispatches ? "+" : "",
                      *to.dispatches - *from.dispatches)
            .str();
  std::string groups = describeGroups("-", removed);
  std::string plus = describeGroups("+", added);
  groups += (groups.empty() || plus.empty() ? "" : "; ") + plus;
  table.grid.rows.push_back(
      {key.first, key.second, from.text, to.text, change, groups});
  if (table.timed)
    table.grid.rows.back().push_back(latency);
}

DiffTable buildDiffTable(const SweepPair &pair) {
  DiffTable table;
  table.timed = llvm::any_of(
      pair.order, [&](const auto &key) { return pair.bothTimed(key); });
  TextGrid &grid = table.grid;
  grid.header = {"model",           "variant", pair.refs[0].name,
                 pair.refs[1].name, "change",  "groups"};
  grid.numeric = {false, false, true, true, true, false};
  if (table.timed) {
    grid.header.push_back("latency");
    grid.numeric.push_back(false);
  }
  for (const auto &key : pair.order) {
    bool inFirst = pair.outcomes[0].count(key),
         inSecond = pair.outcomes[1].count(key);
    if (inFirst && inSecond) {
      addChangedRow(pair, key, table);
      continue;
    }
    ++table.differing;
    grid.rows.push_back({key.first, key.second,
                         inFirst ? pair.outcomes[0].at(key).text : "-",
                         inSecond ? pair.outcomes[1].at(key).text : "-", "",
                         inFirst ? "only in " + pair.refs[0].name
                                 : "only in " + pair.refs[1].name});
    if (table.timed)
      grid.rows.back().push_back("");
  }
  return table;
}

void printDiff(const SweepPair &pair, const DiffTable &table) {
  if (!table.grid.rows.empty())
    printGrid(table.grid, OutputFormat::Table, llvm::outs());
  const SweepRef(&refs)[2] = pair.refs;
  llvm::outs() << llvm::formatv(
      "{0} of {1} (model, variant) pairs differ between {2} (#{3}) and {4} "
      "(#{5}); dispatches over the pairs both finished: {6} -> {7}\n",
      table.differing, pair.order.size(), refs[0].name, refs[0].id,
      refs[1].name, refs[1].id, table.totals[0], table.totals[1]);
  if (table.latencyTested)
    llvm::outs() << llvm::formatv(
        "latency ({0} / {1} median): {2} of {3} pairs with samples in both "
        "changed significantly (two-sided Mann-Whitney U, alpha {4:F2})\n",
        refs[1].name, refs[0].name, table.latencyChanged, table.latencyTested,
        kSignificanceAlpha);
  if (table.fewestSamples < kRecommendedSamples)
    llvm::outs() << llvm::formatv(
        "warning: as few as {0} samples per result; the U test needs about "
        "{1} repetitions to detect a change\n",
        table.fewestSamples, kRecommendedSamples);
}
} // namespace

int runDiffCommand() {
  if (sweeps.size() != 2) {
    error() << "expected two sweeps (name or id), got " << sweeps.size()
            << "\n";
    return 2;
  }
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  llvm::Expected<SweepPair> pair =
      store ? loadSweepPair(**store) : store.takeError();
  if (!pair) {
    error() << llvm::toString(pair.takeError()) << "\n";
    return 1;
  }
  printDiff(*pair, buildDiffTable(*pair));
  return 0;
}

} // namespace dispatchlab

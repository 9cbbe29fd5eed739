//===- ReproduceCommand.cpp - `dispatchlab reproduce` ---------------------===//
//
// Runs the sweep behind a published table (experiments/published/TABLE.txtpb,
// through the embedded sweep, so stored results are reused) and prints our
// numbers beside seed 003's for the models both have. Absolute counts are
// not comparable (other models, other IREE, our re-implementation), so what
// is compared is the direction of each change: does the heuristic give
// fewer, the same or more of a thing in both?
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/ReproduceCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "results/Csv.h"
#include "results/Formatters.h"
#include "results/ReportQueries.h"
#include "tools/dispatchlab/commands/SweepCommand.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <google/protobuf/text_format.h>

#include <map>
#include <thread>

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getReproduceSubcommand() {
  static cl::SubCommand command(
      "reproduce", "Run the sweep behind a published table of seed 003 and "
                   "compare the directions of change");
  return command;
}

namespace {
cl::opt<std::string> tableName(cl::Positional,
                               cl::desc("elementwise-fusion|aggressive-fusion"),
                               cl::Required, cl::sub(getReproduceSubcommand()));
cl::opt<unsigned>
    workers("workers", cl::desc("Local worker slots (default: one per core)"),
            cl::init(std::max(1u, std::thread::hardware_concurrency())),
            cl::sub(getReproduceSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab reproduce");
}

/// A published column and the stats key it corresponds to.
struct MetricColumn {
  const char *published, *ours;
};

/// One "published before -> after" against "our variant before -> after".
struct Comparison {
  const char *beforeCsv, *afterCsv;
  /// Columns holding before/after when both are in one CSV (table 5);
  /// null when the CSVs share the metric columns (PR #8723 tables).
  const char *beforeColumn, *afterColumn;
  const char *publishedLabel;
  const char *oursBefore, *oursAfter;
};

struct TableDefinition {
  const char *name, *spec;
  /// zoo.json's `published` key naming each model's row.
  const char *zooKey;
  std::vector<MetricColumn> metrics;
  std::vector<Comparison> comparisons;
};

const TableDefinition kTables[] = {
    {"aggressive-fusion",
     "aggressive_fusion.txtpb",
     "aggressive_stream",
     {{"Dispatches", "dispatches"}},
     {{"aggressive_fusion_stream_dispatches.csv",
       "aggressive_fusion_stream_dispatches.csv", "Disabled", "Enabled",
       "published Disabled->Enabled", "iree-O0", "iree-O2"}}},
    {"elementwise-fusion",
     "elementwise_fusion.txtpb",
     "pr8723",
     {{"Fills", "fills"},
      {"Copies", "copies"},
      {"Dispatches", "dispatches"},
      {"Executables", "executables"},
      {"GenericBefore", "generic_before"},
      {"GenericAfter", "generic_after"}},
     {{"pr8723_base_f0f64ca23.csv", "pr8723_modified_v2_no_redundant.csv",
       nullptr, nullptr, "published base->modified(v2)", "pr8723-base",
       "pr8723-v2"},
      {"pr8723_modified_v1.csv", "pr8723_modified_v2_no_redundant.csv", nullptr,
       nullptr, "published modified(v1)->modified(v2)", "pr8723-v1",
       "pr8723-v2"}}},
};

/// experiments/ from the working directory upwards, else the source tree
/// this binary was built from.
std::optional<std::string> findExperimentsDir() {
  llvm::SmallString<256> dir;
  llvm::sys::fs::current_path(dir);
  for (; !dir.empty(); dir = llvm::sys::path::parent_path(dir)) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, "experiments", "published");
    if (llvm::sys::fs::is_directory(candidate))
      return std::string(llvm::sys::path::parent_path(candidate));
    if (llvm::sys::path::parent_path(dir) == dir)
      break;
  }
  llvm::SmallString<256> source(DISPATCHLAB_SOURCE_DIR);
  llvm::sys::path::append(source, "experiments");
  if (llvm::sys::fs::is_directory(source))
    return std::string(source);
  return std::nullopt;
}

/// Suffixes the sweep's name with a hash of the spec: when a new dispatchlab
/// ships a changed spec, `reproduce` runs it as a sweep of its own instead of
/// failing on the name an older spec took in the database (jobs both specs
/// share are still found by content key).
void nameAfterContent(sweep::SweepSpec &spec) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(spec, &text);
  std::string hash =
      llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true);
  spec.set_name(spec.name() + "-" + hash.substr(0, 8));
}

/// A published CSV: row name -> column -> value.
using PublishedTable = std::map<std::string, std::map<std::string, double>>;

std::optional<PublishedTable> readCsv(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  PublishedTable table;
  std::vector<std::string> header;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    std::vector<std::string> fields = parseCsvRecord(line);
    if (header.empty()) {
      for (llvm::StringRef field : fields)
        header.push_back(field.trim().str());
      continue;
    }
    for (size_t i = 1; i < fields.size() && i < header.size(); ++i) {
      double value;
      if (!llvm::StringRef(fields[i]).trim().getAsDouble(value))
        table[llvm::StringRef(fields[0]).trim().str()][header[i]] = value;
    }
  }
  return table;
}

/// zoo model name -> its row in the published table `key`.
std::map<std::string, std::string> readZooRows(const std::string &path,
                                               llvm::StringRef key) {
  std::map<std::string, std::string> rows;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return rows;
  llvm::Expected<llvm::json::Value> zoo =
      llvm::json::parse((*buffer)->getBuffer());
  if (!zoo) {
    llvm::consumeError(zoo.takeError());
    return rows;
  }
  const llvm::json::Array *models =
      zoo->getAsObject() ? zoo->getAsObject()->getArray("models") : nullptr;
  if (!models)
    return rows;
  for (const llvm::json::Value &value : *models) {
    const llvm::json::Object *model = value.getAsObject();
    const llvm::json::Object *published =
        model ? model->getObject("published") : nullptr;
    if (!published)
      continue;
    std::optional<llvm::StringRef> name = model->getString("name");
    std::optional<llvm::StringRef> row = published->getString(key);
    if (name && row)
      rows[name->str()] = row->str();
  }
  return rows;
}

const char *direction(double before, double after) {
  return after < before ? "fewer" : after > before ? "more" : "same";
}

std::string formatChange(double before, double after) {
  return llvm::formatv("{0} -> {1} ({2})", static_cast<int64_t>(before),
                       static_cast<int64_t>(after), direction(before, after))
      .str();
}
/// Our results of the reproduced sweep: model -> variant -> job, and the
/// models in the sweep's order.
struct OurResults {
  std::map<std::string, std::map<std::string, JobRecord>> jobs;
  std::vector<std::string> modelOrder;
};

/// Read back from the database: the same job view `report` uses.
llvm::Expected<OurResults> readOurResults(const LoadedSpec &loaded) {
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  if (!store)
    return store.takeError();
  llvm::Expected<std::optional<SweepRef>> sweep =
      findSweep(**store, loaded.spec.name());
  if (!sweep)
    return sweep.takeError();
  if (!*sweep)
    return llvm::createStringError("sweep '" + loaded.spec.name() +
                                   "' vanished from " + databasePath);
  llvm::Expected<std::vector<JobRecord>> jobs =
      loadSweepJobs(**store, (*sweep)->id);
  if (!jobs)
    return jobs.takeError();
  OurResults ours;
  for (JobRecord &job : *jobs) {
    if (!ours.jobs.count(job.model))
      ours.modelOrder.push_back(job.model);
    std::string model = job.model, variant = job.variant;
    ours.jobs[model][variant] = std::move(job);
  }
  return ours;
}

/// readOurResults, or nothing after an error line.
std::optional<OurResults> loadOurResults(const LoadedSpec &loaded) {
  llvm::Expected<OurResults> ours = readOurResults(loaded);
  if (!ours) {
    error() << llvm::toString(ours.takeError()) << "\n";
    return std::nullopt;
  }
  return std::move(*ours);
}

/// Our change for one metric next to the published one; counts agreement.
void addOurChange(const Comparison &comparison, const Metric &metric,
                  double pubBefore, double pubAfter,
                  std::map<std::string, JobRecord> &variants,
                  std::pair<int, int> &agreement,
                  std::vector<std::string> &row) {
  const JobRecord &oursBefore = variants[comparison.oursBefore];
  const JobRecord &oursAfter = variants[comparison.oursAfter];
  std::optional<double> valueBefore = metric.valueOf(oursBefore);
  std::optional<double> valueAfter = metric.valueOf(oursAfter);
  if (!valueBefore || !valueAfter) {
    const JobRecord &failed = valueBefore ? oursAfter : oursBefore;
    row.push_back(failed.state == "failed" ? classifyFailure(failed.error)
                                           : failed.state);
    row.push_back("n/a");
    return;
  }
  row.push_back(formatChange(*valueBefore, *valueAfter));
  bool agrees = llvm::StringRef(direction(pubBefore, pubAfter)) ==
                direction(*valueBefore, *valueAfter);
  row.push_back(agrees ? "agree" : "disagree");
  auto &[yes, total] = agreement;
  yes += agrees;
  ++total;
}

/// One published table against ours: a row per model and metric, then how
/// often the directions agree.
void printComparison(const TableDefinition &table, const Comparison &comparison,
                     const PublishedTable &before, const PublishedTable &after,
                     const std::map<std::string, std::string> &zooRows,
                     OurResults &ours, llvm::raw_ostream &os) {
  std::string oursLabel = llvm::formatv("ours {0}->{1}", comparison.oursBefore,
                                        comparison.oursAfter)
                              .str();
  TextGrid grid;
  grid.header = {"model", "published row"};
  if (table.metrics.size() > 1)
    grid.header.push_back("metric");
  grid.header.insert(grid.header.end(),
                     {comparison.publishedLabel, oursLabel, "agree"});
  grid.numeric.assign(grid.header.size(), false);
  std::map<std::string, std::pair<int, int>> agreement; // metric -> (y, n)
  for (const std::string &model : ours.modelOrder) {
    auto zooRow = zooRows.find(model);
    if (zooRow == zooRows.end() || !before.count(zooRow->second) ||
        !after.count(zooRow->second))
      continue;
    const auto &publishedBefore = before.at(zooRow->second);
    const auto &publishedAfter = after.at(zooRow->second);
    for (const MetricColumn &metric : table.metrics) {
      const char *beforeColumn =
          comparison.beforeColumn ? comparison.beforeColumn : metric.published;
      const char *afterColumn =
          comparison.afterColumn ? comparison.afterColumn : metric.published;
      if (!publishedBefore.count(beforeColumn) ||
          !publishedAfter.count(afterColumn))
        continue;
      double pubBefore = publishedBefore.at(beforeColumn);
      double pubAfter = publishedAfter.at(afterColumn);
      std::vector<std::string> row = {model, zooRow->second};
      if (table.metrics.size() > 1)
        row.push_back(metric.published);
      row.push_back(formatChange(pubBefore, pubAfter));
      addOurChange(comparison, *Metric::find(metric.ours), pubBefore, pubAfter,
                   ours.jobs[model], agreement[metric.published], row);
      grid.rows.push_back(std::move(row));
    }
  }
  os << comparison.publishedLabel << " vs " << oursLabel << ":\n";
  printGrid(grid, OutputFormat::Table, os);
  std::vector<std::string> summary;
  for (const MetricColumn &metric : table.metrics) {
    auto [yes, total] = agreement[metric.published];
    summary.push_back(
        llvm::formatv("{0} {1}/{2}", metric.published, yes, total).str());
  }
  os << "direction agrees: " << llvm::join(summary, ", ") << "\n\n";
}
} // namespace

int runReproduceCommand() {
  const TableDefinition *table = nullptr;
  for (const TableDefinition &candidate : kTables)
    if (tableName == candidate.name)
      table = &candidate;
  if (!table) {
    error() << "unknown table '" << tableName
            << "' (elementwise-fusion or aggressive-fusion)\n";
    return 2;
  }
  std::optional<std::string> experiments = findExperimentsDir();
  if (!experiments) {
    error() << "cannot find the experiments/ directory\n";
    return 1;
  }
  auto path = [&](llvm::StringRef a, llvm::StringRef b = "") {
    llvm::SmallString<256> result(*experiments);
    llvm::sys::path::append(result, a, b);
    return std::string(result);
  };

  llvm::Expected<LoadedSpec> loaded =
      loadSweepSpec(path("published", table->spec));
  if (!loaded) {
    llvm::errs() << llvm::toString(loaded.takeError()) << "\n";
    return 2;
  }
  nameAfterContent(loaded->spec);
  coordinator::SweepProgress final;
  if (int rc = runEmbeddedSweep(*loaded, {databasePath, workers, false}, final))
    return rc;
  std::optional<OurResults> ours = loadOurResults(*loaded);
  if (!ours)
    return 1;
  std::map<std::string, std::string> zooRows =
      readZooRows(path("models", "zoo.json"), table->zooKey);
  for (const Comparison &comparison : table->comparisons) {
    std::optional<PublishedTable> before =
        readCsv(path("published", comparison.beforeCsv));
    std::optional<PublishedTable> after =
        readCsv(path("published", comparison.afterCsv));
    if (!before || !after) {
      error() << "cannot read " << comparison.beforeCsv << " or "
              << comparison.afterCsv << "\n";
      return 1;
    }
    printComparison(*table, comparison, *before, *after, zooRows, *ours,
                    llvm::outs());
  }
  return 0;
}

} // namespace dispatchlab

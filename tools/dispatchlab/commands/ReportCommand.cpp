//===- ReportCommand.cpp - `dispatchlab report` ---------------------------===//
//
// One metric of a sweep as a pivot table (models x variants), optionally
// relative to a baseline variant (latency: ratios with confidence intervals
// and a U test over the raw samples), in text, Markdown, CSV, JSON or a
// self-contained HTML page.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/ReportCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "results/Formatters.h"
#include "results/ReportQueries.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getReportSubcommand() {
  static cl::SubCommand command(
      "report", "Pivot table of one metric of a sweep's results");
  return command;
}

namespace {
cl::opt<std::string> sweep("sweep",
                           cl::desc("Sweep name or id (default: the latest)"),
                           cl::value_desc("NAME|ID"),
                           cl::sub(getReportSubcommand()));
cl::opt<std::string> rows("rows", cl::desc("model or variant"),
                          cl::init("model"), cl::sub(getReportSubcommand()));
cl::opt<std::string> cols("cols", cl::desc("variant or model"),
                          cl::init("variant"), cl::sub(getReportSubcommand()));
cl::opt<std::string> metric("metric", cl::desc(Metric::describeAll()),
                            cl::init(Metric::byDefault().name.str()),
                            cl::sub(getReportSubcommand()));
cl::opt<std::string>
    baseline("baseline", cl::desc("Show every variant relative to this one"),
             cl::value_desc("VARIANT"), cl::sub(getReportSubcommand()));
cl::opt<std::string> format("format", cl::desc("table, md, csv, json, html"),
                            cl::init("table"), cl::sub(getReportSubcommand()));
cl::opt<std::string> outputPath("o", cl::desc("Output file (default stdout)"),
                                cl::value_desc("FILE"), cl::init("-"),
                                cl::sub(getReportSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab report");
}

/// The report of the selected sweep in `output`'s format.
llvm::Expected<std::string> render(const PivotRequest &request,
                                   OutputFormat output) {
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  if (!store)
    return store.takeError();
  llvm::Expected<SweepRef> found = requireSweep(**store, sweep, databasePath);
  if (!found)
    return found.takeError();
  llvm::Expected<std::vector<JobRecord>> jobs =
      loadSweepJobs(**store, found->id);
  if (!jobs)
    return jobs.takeError();
  llvm::Expected<Pivot> pivot = buildPivot(*found, *jobs, request);
  if (!pivot)
    return pivot.takeError();
  // An HTML page of another metric also charts the dispatch counts it
  // comes from (no baseline, so it cannot fail).
  std::optional<Pivot> dispatches;
  if (output == OutputFormat::Html && *request.metric != Metric::byDefault())
    dispatches = llvm::cantFail(buildPivot(*found, *jobs, PivotRequest{}));
  std::string text;
  llvm::raw_string_ostream os(text);
  printPivot(*pivot, output, os, dispatches ? &*dispatches : nullptr, *jobs);
  return text;
}
} // namespace

int runReportCommand() {
  PivotRequest request;
  const Metric *parsedMetric = Metric::find(metric);
  std::optional<Dimension> rowDimension = parseDimension(rows);
  std::optional<Dimension> colDimension = parseDimension(cols);
  std::optional<OutputFormat> output = parseOutputFormat(format);
  if (!parsedMetric) {
    error() << "unknown --metric '" << metric << "'\n";
    return 2;
  }
  if (!rowDimension || !colDimension || *rowDimension == *colDimension) {
    error() << "--rows and --cols take 'model' and 'variant', one each\n";
    return 2;
  }
  if (!output) {
    error() << "unknown --format '" << format
            << "' (table, md, csv, json, html)\n";
    return 2;
  }
  request.metric = parsedMetric;
  request.rows = *rowDimension;
  if (!baseline.empty())
    request.baseline = baseline;

  llvm::Expected<std::string> text = render(request, *output);
  if (!text) {
    error() << llvm::toString(text.takeError()) << "\n";
    return 1;
  }
  std::error_code ec;
  llvm::ToolOutputFile out(outputPath, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error() << "cannot write " << outputPath << ": " << ec.message() << "\n";
    return 1;
  }
  out.os() << *text;
  out.keep();
  return 0;
}

} // namespace dispatchlab

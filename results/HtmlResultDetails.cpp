//===- HtmlResultDetails.cpp - each result's dispatch groups and graph ----===//

#include "results/DispatchGraph.h"
#include "results/HtmlSections.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace dispatchlab {

void GraphDrawer::print(const results::CompileStats &stats,
                        llvm::ArrayRef<std::string> highlighted,
                        llvm::raw_ostream &os) {
  int dispatches = stats.groups_size();
  if (dispatches > kMaxDispatches || drawn + dispatches > kPageDispatches) {
    os << llvm::formatv(
        "<p class=\"note\">graph not drawn: {0} dispatches ({1} per graph and "
        "{2} per page at most; `dispatchlab compile --emit=dot` draws "
        "any)</p>\n",
        dispatches, kMaxDispatches, kPageDispatches);
    return;
  }
  std::optional<std::string> graph =
      svg.render(dispatchGraphDot(stats, highlighted));
  if (!graph)
    return;
  drawn += dispatches;
  os << "<div class=\"graph\">" << *graph << "</div>\n";
  if (llvm::none_of(stats.groups(), [](const results::DispatchGroup &group) {
        return group.reads_size() || group.returns_size();
      }))
    os << "<p class=\"note\">no edges: this result was recorded before the "
          "stats had them (`sweep --force` records it again)</p>\n";
}

const JobRecord *findJob(llvm::ArrayRef<JobRecord> jobs, llvm::StringRef model,
                         llvm::StringRef variant) {
  auto it = llvm::find_if(jobs, [&](const JobRecord &job) {
    return job.model == model && job.variant == variant;
  });
  return it == jobs.end() ? nullptr : &*it;
}

static void printGroupsTable(const results::CompileStats &stats,
                             llvm::raw_ostream &os) {
  os << "<table class=\"groups\"><thead><tr><th>dispatch</th><th>kind</th>"
        "<th>root</th><th>members</th><th>cloned</th><th>operands</th>"
        "<th>results</th><th>reads</th></tr></thead><tbody>\n";
  for (const results::DispatchGroup &group : stats.groups()) {
    auto joined = [](const auto &names) {
      return htmlEscape(llvm::join(names.begin(), names.end(), " "));
    };
    std::string root = group.root();
    if (!group.root_op().empty())
      root += " (" + group.root_op() + ")";
    os << "<tr><td>" << htmlEscape(group.name()) << "</td><td>"
       << htmlEscape(group.kind()) << "</td><td>" << htmlEscape(root)
       << "</td><td>" << joined(group.members()) << "</td><td>"
       << joined(group.cloned()) << "</td><td>" << group.operands()
       << "</td><td>" << group.results() << "</td><td>" << joined(group.reads())
       << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

static void printResult(const JobRecord &job, size_t m, size_t v,
                        llvm::StringRef rowLabel, llvm::StringRef colLabel,
                        GraphDrawer &graphs, llvm::raw_ostream &os) {
  std::optional<results::CompileStats> stats = job.stats();
  if (!stats)
    return;
  os << llvm::formatv("<details class=\"result\" id=\"result-{0}-{1}\" "
                      "data-row=\"{2}\" data-col=\"{3}\">",
                      m, v, htmlEscape(rowLabel), htmlEscape(colLabel))
     << "<summary>" << htmlEscape(job.model) << " / " << htmlEscape(job.variant)
     << ": " << stats->groups_size()
     << (stats->groups_size() == 1 ? " dispatch" : " dispatches")
     << " (result #" << job.resultId.value_or(0) << ")</summary>\n";
  printGroupsTable(*stats, os);
  graphs.print(*stats, {}, os);
  os << "</details>\n";
}

void printResultDetails(const Pivot &pivot, const TextGrid &grid,
                        llvm::ArrayRef<JobRecord> jobs, GraphDrawer &graphs,
                        llvm::raw_ostream &os) {
  bool modelsDown = pivot.request.rows == Dimension::Model;
  os << "<h2>dispatch groups and graphs (click a table cell to open its "
        "result)</h2>\n<section id=\"results\">\n";
  for (size_t m = 0; m < pivot.models.size(); ++m)
    for (size_t v = 0; v < pivot.variants.size(); ++v) {
      const JobRecord *job = findJob(jobs, pivot.models[m], pivot.variants[v]);
      if (!job)
        continue;
      llvm::StringRef rowLabel = modelsDown ? grid.rows[m][0] : grid.rows[v][0];
      llvm::StringRef colLabel =
          modelsDown ? grid.header[v + 1] : grid.header[m + 1];
      printResult(*job, m, v, rowLabel, colLabel, graphs, os);
    }
  os << "</section>\n";
}

} // namespace dispatchlab

//===- HtmlSections.h - the HTML report's detail sections --*- C++ -*-===//
//
// Parts of the page printHtmlReport assembles: the provenance header, each
// result's dispatch groups and graph, and the variants side by side. The
// graphs share one budget so a page over a whole zoo stays a sane size.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_HTMLSECTIONS_H
#define DISPATCHLAB_RESULTS_HTMLSECTIONS_H

#include "results/Formatters.h"
#include "results/GraphvizSvg.h"
#include "results/JobRecord.h"
#include "results/ReportProvenance.h"
#include "results/ReportQueries.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// Draws dispatch graphs as inline SVG within a page-wide budget: a graph
/// of more than kMaxDispatches dispatches, or past kPageDispatches drawn in
/// all, is left out with a note saying so.
class GraphDrawer {
public:
  static constexpr int kMaxDispatches = 250, kPageDispatches = 3000;

  void print(const results::CompileStats &stats,
             llvm::ArrayRef<std::string> highlighted, llvm::raw_ostream &os);

private:
  GraphvizSvg svg;
  int drawn = 0;
};

/// `jobs`' job of one pivot cell; null if there is none.
const JobRecord *findJob(llvm::ArrayRef<JobRecord> jobs, llvm::StringRef model,
                         llvm::StringRef variant);

void printProvenanceSection(const ReportProvenance &provenance,
                            llvm::raw_ostream &os);

/// A `<details class="result">` per cell with a result: its dispatch groups
/// and graph. `grid` (the pivot's) gives the labels the table shows, which
/// the page's script matches to open the one clicked.
void printResultDetails(const Pivot &pivot, const TextGrid &grid,
                        llvm::ArrayRef<JobRecord> jobs, GraphDrawer &graphs,
                        llvm::raw_ostream &os);

/// Per model, the reference variant (the baseline, else the first) against
/// each other one: the ops that moved and both graphs side by side with the
/// dispatches that differ highlighted.
void printVariantComparisons(const Pivot &pivot, llvm::ArrayRef<JobRecord> jobs,
                             GraphDrawer &graphs, llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_HTMLSECTIONS_H

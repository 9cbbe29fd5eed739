//===- HtmlReport.h - a pivot as a self-contained HTML page -----*- C++ -*-===//
//
// The HTML report: a provenance header, the pivot as a sortable table, its
// charts, and with the sweep's jobs each result's dispatch groups and
// dispatch graph (click a cell to open them) and each model's variants side
// by side with the dispatches that differ highlighted. Inline style, script
// and SVG only: the page fetches nothing and names no URL.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_HTMLREPORT_H
#define DISPATCHLAB_RESULTS_HTMLREPORT_H

#include "results/JobRecord.h"
#include "results/ReportQueries.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

struct HtmlReportInputs {
  /// The same sweep's dispatch counts, charted under another metric's page.
  const Pivot *dispatches = nullptr;
  /// The pivot's jobs; without them the page has no provenance, groups,
  /// graphs or comparisons.
  llvm::ArrayRef<JobRecord> jobs;
};

void printHtmlReport(const Pivot &pivot, const HtmlReportInputs &inputs,
                     llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_HTMLREPORT_H

//===- HtmlCharts.h - the HTML report's SVG charts --------------*- C++ -*-===//
//
// Charts of a pivot as inline SVG elements (no namespace, no URL): bars per
// model and variant, and latency speedups with confidence intervals.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_HTMLCHARTS_H
#define DISPATCHLAB_RESULTS_HTMLCHARTS_H

#include "results/ReportQueries.h"

#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// Horizontal bars, one group per model and one bar per variant, each group
/// scaled to its own largest value.
void printBarChart(const Pivot &pivot, llvm::raw_ostream &os);

/// Latency relative to the pivot's baseline (which it must have) as speedup
/// bars with error bars from the confidence intervals.
void printSpeedupChart(const Pivot &pivot, llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_HTMLCHARTS_H

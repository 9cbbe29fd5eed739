//===- PairedCells.h - a COMPARE job's result as pivot cells ----*- C++ -*-===//
//
// A COMPARE job timed several variants of one model against a baseline in
// the same rounds. In a report each of those variants is a cell of its own,
// carrying the paired ratio, its interval and the verdict (against the
// noise floor), so that it sits beside the cells of RUN jobs and says which
// method it came from.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_PAIREDCELLS_H
#define DISPATCHLAB_RESULTS_PAIREDCELLS_H

#include "results/ReportQueries.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dispatchlab {

/// The stored comparison of `job`, if it has one.
std::optional<results::Comparison> comparisonOf(const JobRecord &job);

/// One (variant name, cell) per variant of `comparison` (the result of
/// `job`), in its order. A latency cell holds the variant's median and
/// samples and the paired ratio; other metrics read the variant's own
/// counts.
std::vector<std::pair<std::string, PivotCell>>
pairedCells(const JobRecord &job, const results::Comparison &comparison,
            const Metric &metric);

/// What the paired cells of `jobs` mean and the noise floor each model's
/// verdicts used; empty without comparisons.
std::vector<std::string> pairedNotes(const std::vector<JobRecord> &jobs);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_PAIREDCELLS_H

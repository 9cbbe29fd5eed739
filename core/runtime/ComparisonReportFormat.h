//===- ComparisonReportFormat.h - a comparison as JSON or a table -*- C++ -*-//
//
// What `dispatchlab compare` prints: per variant its median and CV, the
// paired ratio to the baseline with its interval and p-value, and the
// verdict; the rounds, why they stopped, the order seed and the host's
// conditions before and after. The JSON also holds every sample, indexed
// by round.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_COMPARISONREPORTFORMAT_H
#define DISPATCHLAB_CORE_RUNTIME_COMPARISONREPORTFORMAT_H

#include "core/runtime/PairedComparison.h"
#include "proto/results.pb.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// The comparison's record (proto/results.proto's Comparison), with the
/// model and provenance that a COMPARE job stores beside it.
results::Comparison toRecord(const CompareOptions &options,
                             const ComparisonReport &report);

/// The record as JSON: keys are its field names.
llvm::json::Value toJson(const CompareOptions &options,
                         const ComparisonReport &report);

void printTable(const CompareOptions &options, const ComparisonReport &report,
                llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_COMPARISONREPORTFORMAT_H

//===- RunReportFormat.h - a run's report as JSON or a table ----*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_RUNTIME_RUNREPORTFORMAT_H
#define DISPATCHLAB_CORE_RUNTIME_RUNREPORTFORMAT_H

#include "core/runtime/RunSession.h"
#include "proto/results.pb.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// The run's record: the compile stats, timings, latency samples, checks and
/// provenance (`--emit=json`; what sweeps store).
results::RunResult toRecord(const RunOptions &options, const RunReport &report);

/// The record as JSON: keys are its field names.
llvm::json::Value toJson(const RunOptions &options, const RunReport &report);

/// The same for a terminal, with the dispatch profile slowest first.
void printTable(const RunOptions &options, const RunReport &report,
                llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_RUNREPORTFORMAT_H

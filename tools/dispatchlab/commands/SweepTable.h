//===- SweepTable.h - a finished sweep as a table ---------------*- C++ -*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPTABLE_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPTABLE_H

#include "proto/coordinator.pb.h"

#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// One line per job: model, variant, state, the dispatch statistics of a
/// result (with latency median and cv when the sweep has run results), or
/// the error of a failure.
void printSweepTable(const coordinator::SweepProgress &progress,
                     llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_SWEEPTABLE_H

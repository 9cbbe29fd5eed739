//===- DispatchTable.h - compile statistics for humans ----------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_ANALYSIS_DISPATCHTABLE_H
#define DISPATCHLAB_CORE_ANALYSIS_DISPATCHTABLE_H

#include "core/analysis/CompileStats.h"

#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

/// A header with the model and totals, then one aligned row per dispatch:
/// index, kind, root, members, operands, results and a short executable hash
/// (rows sharing a hash share an executable).
void printDispatchTable(const CompileStats &stats, llvm::raw_ostream &os);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ANALYSIS_DISPATCHTABLE_H

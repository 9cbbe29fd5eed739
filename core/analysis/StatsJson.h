//===- StatsJson.h - compile statistics as JSON -----------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_ANALYSIS_STATSJSON_H
#define DISPATCHLAB_CORE_ANALYSIS_STATSJSON_H

#include "core/analysis/CompileStats.h"

#include "llvm/Support/JSON.h"

namespace dispatchlab {

/// The machine-readable report: `model`, `options` (an object of strings
/// parsed from the canonical `key=value` lines), `dispatches`,
/// `executables`, `fills`, `copies`, `generic_before`, `generic_after`,
/// `transient_bytes` and `groups` (objects with `name`, `kind`, `root`,
/// `members`, `cloned`, `operands`, `results`, `executable`).
llvm::json::Value toJson(const CompileStats &stats);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ANALYSIS_STATSJSON_H

//===- StatsJson.h - compile statistics as JSON -----------------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_ANALYSIS_STATSJSON_H
#define DISPATCHLAB_CORE_ANALYSIS_STATSJSON_H

#include "core/analysis/CompileStats.h"
#include "proto/results.pb.h"

#include "llvm/Support/JSON.h"

namespace dispatchlab {

/// The machine-readable report as its record (proto/results.proto); the
/// options are parsed from the canonical `key=value` lines.
results::CompileStats toRecord(const CompileStats &stats);

/// The record as JSON: keys are its field names.
llvm::json::Value toJson(const CompileStats &stats);

/// This build and host's provenance (core/support/Provenance.h) as a
/// record's `provenance`.
google::protobuf::Struct currentProvenanceRecord();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_ANALYSIS_STATSJSON_H

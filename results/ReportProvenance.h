//===- ReportProvenance.h - what produced a sweep's numbers -----*- C++ -*-===//
//
// The provenance a report prints above its table: the dispatchlab commits,
// LLVM versions and host CPUs its results were produced with (each distinct
// value once, so a sweep mixing builds or hosts says so), when they were
// recorded, and every variant's options in full.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_REPORTPROVENANCE_H
#define DISPATCHLAB_RESULTS_REPORTPROVENANCE_H

#include "results/JobRecord.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace dispatchlab {

struct ReportProvenance {
  /// Distinct values in order of first occurrence; more than one means the
  /// results come from several builds or hosts.
  std::vector<std::string> commits, llvmVersions, hostCpus, hostFeatures;
  /// Unix seconds of the oldest and newest result; 0 without results.
  double firstResultAt = 0, lastResultAt = 0;

  struct Variant {
    std::string name, preset;
    /// Canonical option text, one `key=value` per line.
    std::string options;
    /// Models whose job ran the variant with other options than the first.
    std::vector<std::string> modelsWithOtherOptions;
  };
  /// In the order the jobs first name them.
  std::vector<Variant> variants;
};

/// Gathers `jobs`' provenance (their provenance JSON; jobs without one are
/// left out of the commits and hosts).
ReportProvenance collectProvenance(llvm::ArrayRef<JobRecord> jobs);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_REPORTPROVENANCE_H

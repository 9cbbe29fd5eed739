//===- JobRecord.h - one sweep job as reports read it ------------*- C++
//-*-===//
//
// A job's row and its result's stats, and the readers every report shares:
// a stats number, a run job's latency samples and a failure's class.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_JOBRECORD_H
#define DISPATCHLAB_RESULTS_JOBRECORD_H

#include "proto/results.pb.h"
#include "results/NoiseFloor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dispatchlab {

/// One job of a sweep as the report needs it.
struct JobRecord {
  std::string model, variant, state, error;
  /// Empty unless the job has a result.
  std::string statsJson;
  std::optional<int64_t> resultId;
  double wallSeconds = 0;
  /// What the job ran with: its preset and canonical option text, and the
  /// provenance JSON of its result (or of its failure), empty if none.
  std::string preset, options, provenanceJson;
  /// When its result was recorded (unix seconds), 0 without one.
  double createdAt = 0;
  /// A comparison's: the noise floor that judges it
  /// (ResultStore::noiseFloorFor), if one was measured.
  std::optional<NoiseFloor> noiseFloor;

  /// The stored stats as their record, if the job has a result whose stats
  /// parse as one.
  std::optional<results::CompileStats> stats() const;
};

/// A run job's measurement: `run.latency` in its stats.
struct LatencyRecord {
  double medianMs = 0;
  /// Per-repetition times; empty for results recorded before run jobs kept
  /// them.
  std::vector<double> samplesMs;
};
std::optional<LatencyRecord> latencyOf(const JobRecord &job);

/// A failure's class for a table cell: "timeout", "crash (Segmentation
/// fault)", "failed: <dispatchlab's error line>", ...
std::string classifyFailure(llvm::StringRef error);

/// A failure's class for counting: "timeout", "crash", "memory limit" or
/// "error" (the child exited non-zero, or the worker refused the job), or
/// "cancelled" (sweeps cancel).
llvm::StringRef failureKind(llvm::StringRef error);

/// Failures counted by kind, kinds in the order they first occur: "2
/// crash, 1 error"; empty without failures.
std::string countFailureKinds(llvm::ArrayRef<std::string> errors);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_JOBRECORD_H

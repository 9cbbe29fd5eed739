//===- LatencyBenchmark.h - latency through Google Benchmark ----*- C++ -*-===//
//
// Times a callable (one model call) with the Google Benchmark library: warm-up
// calls first, then one repetition per sample, each timing exactly one call,
// so the samples are independent single-call latencies (what a rank test
// such as Mann-Whitney U compares). Samples are captured by a reporter of our
// own; nothing goes to stdout.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_LATENCYBENCHMARK_H
#define DISPATCHLAB_CORE_RUNTIME_LATENCYBENCHMARK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace dispatchlab {

struct LatencyStats {
  int64_t repetitions = 0;
  double medianMs = 0, meanMs = 0, stddevMs = 0, minMs = 0;
  /// Coefficient of variation, stddev / mean (0 when the mean is 0).
  double cv = 0;
};
/// Sample statistics of `seconds`, in milliseconds; stddev is the sample
/// (n - 1) standard deviation, 0 for one sample.
LatencyStats summarizeLatencies(std::vector<double> seconds);

struct LatencyMeasurement {
  /// Untimed calls before the first sample, and how long they took (the
  /// dropped first repetition not included).
  int64_t warmupCalls = 0;
  double warmupSeconds = 0;
  /// Wall time of each repetition's single call, in repetition order.
  std::vector<double> samplesSeconds;
  LatencyStats stats;
};

/// Calls `call` at least once and until `minWarmupSeconds` have passed, then
/// takes `repetitions` samples of one call each (plus one dropped: the
/// library's first timed call). An error from `call` aborts the
/// measurement, which fails with that first error.
llvm::Expected<LatencyMeasurement>
measureLatency(llvm::function_ref<llvm::Error()> call, unsigned repetitions,
               double minWarmupSeconds);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_LATENCYBENCHMARK_H

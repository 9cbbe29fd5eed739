//===- LatencyBenchmark.cpp - model latency through Google Benchmark ------===//

#include "core/runtime/LatencyBenchmark.h"

#include "core/support/Timing.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>

namespace dispatchlab {

LatencyStats summarizeLatencies(std::vector<double> seconds) {
  LatencyStats stats;
  stats.repetitions = seconds.size();
  if (seconds.empty())
    return stats;
  for (double &value : seconds)
    value *= 1e3;
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  stats.medianMs =
      n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  stats.minMs = seconds.front();
  stats.meanMs = std::accumulate(seconds.begin(), seconds.end(), 0.0) / n;
  double squares = 0;
  for (double value : seconds)
    squares += (value - stats.meanMs) * (value - stats.meanMs);
  stats.stddevMs = n > 1 ? std::sqrt(squares / (n - 1)) : 0;
  stats.cv = stats.meanMs > 0 ? stats.stddevMs / stats.meanMs : 0;
  return stats;
}

namespace {
/// Keeps the per-repetition runs but the first (the warm-up repetition);
/// the library's own aggregates (mean, median, ...) are dropped since
/// summarizeLatencies computes ours.
class SampleReporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context &) override { return true; }
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs) {
      if (run.run_type != Run::RT_Iteration || run.repetition_index == 0)
        continue;
      if (run.error_occurred) {
        failed = true;
        continue;
      }
      samples.push_back(run.real_accumulated_time / double(run.iterations));
    }
  }

  std::vector<double> samples;
  bool failed = false;
};

/// The library's flags are set once from a synthetic command line, so they
/// never see (or clash with) dispatchlab's llvm::cl options, and the
/// BENCHMARK_* environment variables that seed them cannot reorder the
/// repetitions, add perf counters or write a report file.
void initializeBenchmarkLibrary() {
  static bool initialized = [] {
    std::vector<std::string> flags = {
        "dispatchlab", "--benchmark_enable_random_interleaving=false",
        "--benchmark_perf_counters=", "--benchmark_out=",
        "--benchmark_min_warmup_time=0"};
    std::vector<char *> argv;
    for (std::string &flag : flags)
      argv.push_back(flag.data());
    argv.push_back(nullptr);
    int argc = flags.size();
    benchmark::Initialize(&argc, argv.data());
    return true;
  }();
  (void)initialized;
}

/// The body of the benchmark: the warm-up in the first repetition, then one
/// call per iteration. The library's callback can only flag a failure, so
/// the first call's error is kept here, as text.
class ModelCallLoop {
public:
  ModelCallLoop(llvm::function_ref<llvm::Error()> call, double minWarmupSeconds,
                LatencyMeasurement &measurement)
      : call(call), minWarmupSeconds(minWarmupSeconds),
        measurement(measurement) {}

  void run(benchmark::State &state) {
    if (measurement.warmupCalls == 0 && error.empty() && !warmUp()) {
      state.SkipWithError("warm-up failed");
      return;
    }
    for (auto _ : state) {
      if (error.empty() && callOnce())
        continue;
      state.SkipWithError("model call failed");
      break;
    }
  }

  /// The first call's error; empty while the calls succeed.
  std::string error;

private:
  bool callOnce() {
    llvm::Error failure = call();
    if (!failure)
      return true;
    error = llvm::toString(std::move(failure));
    return false;
  }

  // Untimed calls before the repetition's loop, whose one timed call is
  // then dropped: the library's timing code runs for the first time in it
  // (page faults in its code added microseconds). MinWarmUpTime cannot be
  // combined with a fixed iteration count.
  bool warmUp() {
    auto start = std::chrono::steady_clock::now();
    do {
      if (!callOnce())
        return false;
      ++measurement.warmupCalls;
      measurement.warmupSeconds = secondsSince(start);
    } while (measurement.warmupSeconds < minWarmupSeconds);
    return true;
  }

  llvm::function_ref<llvm::Error()> call;
  double minWarmupSeconds;
  LatencyMeasurement &measurement;
};
} // namespace

llvm::Expected<LatencyMeasurement>
measureLatency(llvm::function_ref<llvm::Error()> call, unsigned repetitions,
               double minWarmupSeconds) {
  initializeBenchmarkLibrary();
  LatencyMeasurement measurement;
  ModelCallLoop loop(call, minWarmupSeconds, measurement);
  constexpr const char *kName = "dispatchlab_model";
  // The first repetition is the warm-up (ModelCallLoop::warmUp).
  benchmark::RegisterBenchmark(
      kName, [&](benchmark::State &state) { loop.run(state); })
      ->Iterations(1)
      ->Repetitions(repetitions + 1)
      ->UseRealTime();
  SampleReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, std::string("^") + kName);
  benchmark::ClearRegisteredBenchmarks();
  if (!loop.error.empty())
    return llvm::createStringError(loop.error);
  if (reporter.failed)
    return llvm::createStringError("the benchmark library reported an error");
  if (reporter.samples.size() != repetitions)
    return llvm::createStringError("the benchmark library reported " +
                                   llvm::Twine(reporter.samples.size()) +
                                   " samples for " + llvm::Twine(repetitions) +
                                   " repetitions");
  measurement.samplesSeconds = std::move(reporter.samples);
  measurement.stats = summarizeLatencies(measurement.samplesSeconds);
  return measurement;
}

} // namespace dispatchlab

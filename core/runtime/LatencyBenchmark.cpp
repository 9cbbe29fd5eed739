//===- LatencyBenchmark.cpp - model latency through Google Benchmark ------===//

#include "core/runtime/LatencyBenchmark.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

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
} // namespace

std::optional<LatencyMeasurement>
measureLatency(llvm::function_ref<bool(std::string &)> call,
               unsigned repetitions, double minWarmupSeconds,
               std::string &error) {
  initializeBenchmarkLibrary();
  LatencyMeasurement measurement;
  // The first repetition is the warm-up: untimed calls before its loop, then
  // one timed call that is dropped, since the library's timing code runs
  // for the first time in it (page faults in its code added microseconds).
  // MinWarmUpTime cannot be combined with a fixed iteration count.
  auto warmUp = [&] {
    auto start = std::chrono::steady_clock::now();
    do {
      if (!call(error))
        return false;
      ++measurement.warmupCalls;
      measurement.warmupSeconds = std::chrono::duration<double>(
                                      std::chrono::steady_clock::now() - start)
                                      .count();
    } while (measurement.warmupSeconds < minWarmupSeconds);
    return true;
  };

  constexpr const char *kName = "dispatchlab_model";
  benchmark::RegisterBenchmark(kName,
                               [&](benchmark::State &state) {
                                 if (measurement.warmupCalls == 0 &&
                                     error.empty() && !warmUp()) {
                                   state.SkipWithError("warm-up failed");
                                   return;
                                 }
                                 for (auto _ : state) {
                                   if (error.empty() && call(error))
                                     continue;
                                   state.SkipWithError("model call failed");
                                   break;
                                 }
                               })
      ->Iterations(1)
      ->Repetitions(repetitions + 1)
      ->UseRealTime();
  SampleReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, std::string("^") + kName);
  benchmark::ClearRegisteredBenchmarks();
  if (reporter.failed || !error.empty()) {
    if (error.empty())
      error = "the benchmark library reported an error";
    return std::nullopt;
  }
  if (reporter.samples.size() != repetitions) {
    error = "the benchmark library reported " +
            std::to_string(reporter.samples.size()) + " samples for " +
            std::to_string(repetitions) + " repetitions";
    return std::nullopt;
  }
  measurement.samplesSeconds = std::move(reporter.samples);
  measurement.stats = summarizeLatencies(measurement.samplesSeconds);
  return measurement;
}

} // namespace dispatchlab

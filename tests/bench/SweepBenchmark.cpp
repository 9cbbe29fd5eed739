//===- SweepBenchmark.cpp - coordinator throughput in jobs/s --------------===//
//
// An in-process coordinator on loopback and N worker slots (each its own
// Worker, its own gRPC channel) draining no-op jobs: lease, report, two
// SQLite transactions per job. Measures coordination, not compilation.
//
//===----------------------------------------------------------------------===//

#include "coordinator/CoordinatorServer.h"
#include "coordinator/SweepExpander.h"
#include "workers/Worker.h"

#include "llvm/Support/FileSystem.h"

#include <benchmark/benchmark.h>

#include <thread>

using namespace dispatchlab;

/// Returns once sweep `sweepId` finished, or the store failed.
static llvm::Error waitForSweep(JobQueue &queue, int64_t sweepId) {
  while (true) {
    llvm::Expected<SweepCounts> counts = queue.counts(sweepId);
    if (!counts)
      return counts.takeError();
    if (counts->finished())
      return llvm::Error::success();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

static void BM_NoopJobs(benchmark::State &state) {
  const int workers = state.range(0);
  const int jobsPerIteration = 2000;
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory("sweep-bench", dir);
  ServerConfig config;
  config.dbPath = std::string(dir) + "/bench.db";
  llvm::Expected<std::unique_ptr<CoordinatorServer>> started =
      CoordinatorServer::start(config);
  if (!started) {
    state.SkipWithError(llvm::toString(started.takeError()).c_str());
    llvm::sys::fs::remove_directories(dir);
    return;
  }
  CoordinatorServer &server = **started;
  JobQueue &queue = server.getQueue();
  KeyContext context = KeyContext::current();

  int64_t jobsRun = 0;
  int iteration = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<ExpandedJob> jobs;
    std::vector<ModelContent> models = {
        {"m", ".mlir", "bench " + std::to_string(iteration++)}};
    std::string hash = sha256Hex(models[0].content);
    for (int i = 0; i < jobsPerIteration; ++i) {
      ResolvedVariant variant{"v" + std::to_string(i), sweep::TEST_NOOP,
                              "iree-O0", "n=" + std::to_string(i) + "\n"};
      jobs.push_back({"m", hash, variant, withDefaults({}),
                      contentKey(hash, variant, withDefaults({}), context)});
    }
    llvm::Expected<SubmitResult> submitted =
        queue.submit("bench", "", models, jobs, false, unixNow());
    if (!submitted) {
      state.SkipWithError(llvm::toString(submitted.takeError()).c_str());
      break;
    }
    std::atomic<bool> stop{false};
    std::vector<std::unique_ptr<Worker>> pool;
    for (int i = 0; i < workers; ++i)
      pool.push_back(std::make_unique<Worker>(
          WorkerConfig{{server.address(), ""}, 1, "/proc/self/exe", nullptr}));
    state.ResumeTiming();

    std::vector<std::thread> threads;
    for (auto &worker : pool)
      threads.emplace_back(
          [&, w = worker.get()] { llvm::consumeError(w->run(stop)); });
    llvm::Error failure = waitForSweep(queue, submitted->sweepId);
    stop = true;
    for (std::thread &thread : threads)
      thread.join();
    if (failure) {
      state.SkipWithError(llvm::toString(std::move(failure)).c_str());
      break;
    }
    jobsRun += jobsPerIteration;
  }
  state.counters["jobs/s"] =
      benchmark::Counter(jobsRun, benchmark::Counter::kIsRate);
  server.shutdown();
  llvm::sys::fs::remove_directories(dir);
}
BENCHMARK(BM_NoopJobs)
    ->ArgName("workers")
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

BENCHMARK_MAIN();

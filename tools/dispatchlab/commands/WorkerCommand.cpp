//===- WorkerCommand.cpp - `dispatchlab worker` ---------------------------===//
//
// Pulls jobs from a coordinator and runs them, until Ctrl-C/SIGTERM. Also
// the child side of the test-only job kinds (`--test-job`), which stand in
// for a compile that crashes, hangs or takes a while.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/WorkerCommand.h"

#include "core/support/SignalFlag.h"
#include "workers/Worker.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <thread>

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getWorkerSubcommand() {
  static cl::SubCommand command("worker",
                                "Run sweep jobs leased from a coordinator");
  return command;
}

namespace {
cl::opt<std::string> coordinatorAddress("coordinator",
                                        cl::desc("Coordinator address"),
                                        cl::value_desc("HOST:PORT"),
                                        cl::sub(getWorkerSubcommand()));
cl::opt<unsigned> slots("slots", cl::desc("Jobs run at once (default 1)"),
                        cl::init(1), cl::sub(getWorkerSubcommand()));
cl::opt<std::string>
    tokenFile("token-file",
              cl::desc("File holding the coordinator's shared token (default: "
                       "$DISPATCHLAB_TOKEN)"),
              cl::value_desc("FILE"), cl::sub(getWorkerSubcommand()));
cl::opt<std::string> tlsCa("tls-ca",
                           cl::desc("Use TLS, trusting this PEM certificate"),
                           cl::value_desc("FILE"),
                           cl::sub(getWorkerSubcommand()));
cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Where run jobs keep the reference's outputs for the next "
             "variant of the same model (dispatchlab run --cache-dir); "
             "default: no cache"),
    cl::value_desc("DIR"), cl::sub(getWorkerSubcommand()));
cl::opt<uint64_t>
    cacheMaxMb("cache-max-mb",
               cl::desc("Bound of --cache-dir (0: the run's default)"),
               cl::init(0), cl::sub(getWorkerSubcommand()));
cl::opt<bool> quiet("quiet", cl::desc("No line per job on stderr"),
                    cl::sub(getWorkerSubcommand()));
cl::opt<unsigned> coordinatorTimeout(
    "coordinator-timeout",
    cl::desc("Exit when the coordinator has been out of reach this long "
             "(0: never; default 120)"),
    cl::value_desc("SECONDS"), cl::init(120), cl::sub(getWorkerSubcommand()));
// Tests only: one machine standing for workers of several CPU classes (run
// jobs are leased by class). Its measurements would be filed under a class
// they were not taken on.
cl::opt<std::string> cpuClassOverride(
    "cpu-class-override", cl::Hidden,
    cl::desc("Register this CPU class instead of the host's (tests only)"),
    cl::value_desc("NAME"), cl::sub(getWorkerSubcommand()));

// Child side of the test-only job kinds.
cl::opt<std::string> testJob("test-job", cl::Hidden,
                             cl::desc("crash|hang|sleep (tests only)"),
                             cl::sub(getWorkerSubcommand()));
cl::opt<unsigned> testSleepMs("test-sleep-ms", cl::Hidden,
                              cl::sub(getWorkerSubcommand()));

int runTestJob() {
  if (testJob == "crash") {
    llvm::errs() << "test job: crashing on purpose\n";
    std::raise(SIGSEGV);
  } else if (testJob == "hang") {
    llvm::errs() << "test job: hanging on purpose\n";
    llvm::errs().flush();
    while (true)
      std::this_thread::sleep_for(std::chrono::hours(1));
  } else if (testJob == "sleep") {
    std::this_thread::sleep_for(std::chrono::milliseconds(testSleepMs));
    llvm::outs() << "{}\n";
    return 0;
  }
  llvm::WithColor::error(llvm::errs(), "dispatchlab worker")
      << "unknown --test-job '" << testJob << "'\n";
  return 2;
}
} // namespace

int runWorkerCommand() {
  if (!testJob.empty())
    return runTestJob();
  if (coordinatorAddress.empty()) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab worker")
        << "--coordinator HOST:PORT is required\n";
    return 2;
  }
  std::atomic<bool> &stop = stopOnInterrupt();
  WorkerConfig config;
  llvm::Expected<ClientConfig> client =
      loadClientConfig(coordinatorAddress, tokenFile, tlsCa);
  if (!client) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab worker")
        << llvm::toString(client.takeError()) << "\n";
    return 2;
  }
  config.client = std::move(*client);
  config.slots = std::max(1u, slots.getValue());
  config.cpuClassOverride = cpuClassOverride;
  config.cacheDirectory = cacheDir;
  config.cacheMaxMb = cacheMaxMb;
  config.log = quiet ? nullptr : &llvm::errs();
  config.notices = &llvm::errs();
  config.coordinatorTimeout = std::chrono::seconds(coordinatorTimeout);
  Worker worker(config);
  if (llvm::Error error = worker.run(stop)) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab worker")
        << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace dispatchlab

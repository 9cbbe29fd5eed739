//===- SweepCommand.cpp - `dispatchlab sweep` -----------------------------===//
//
// Runs every job of a sweep spec. Embedded (no --coordinator): a coordinator
// on a free loopback port with a fresh token and N local worker slots, all in
// this process; remote: submit to a running coordinator. Either way it
// follows the sweep's progress and prints its table. Interrupted embedded
// sweeps resume when the same command runs again.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/SweepCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "coordinator/CoordinatorClient.h"
#include "coordinator/CoordinatorReachability.h"
#include "coordinator/CoordinatorServer.h"
#include "coordinator/SweepExpander.h"
#include "coordinator/SweepSize.h"
#include "coordinator/SweepSpec.h"
#include "core/support/SignalFlag.h"
#include "results/JobRecord.h"
#include "tools/dispatchlab/commands/SweepTable.h"
#include "workers/Worker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>
#include <random>
#include <thread>

namespace cl = llvm::cl;
using namespace std::chrono_literals;

namespace dispatchlab {

cl::SubCommand &getSweepSubcommand() {
  static cl::SubCommand command(
      "sweep", "Run every (model x variant) job of a sweep spec and store the "
               "results");
  return command;
}

namespace {
cl::opt<std::string> specPath(cl::Positional, cl::desc("SPEC.txtpb"),
                              cl::Required, cl::sub(getSweepSubcommand()));
cl::opt<std::string> coordinatorAddress(
    "coordinator",
    cl::desc("Submit to this coordinator instead of running embedded"),
    cl::value_desc("HOST:PORT"), cl::sub(getSweepSubcommand()));
cl::opt<unsigned>
    workers("workers",
            cl::desc("Local worker slots when embedded "
                     "(default: one per core)"),
            cl::init(std::max(1u, std::thread::hardware_concurrency())),
            cl::sub(getSweepSubcommand()));
cl::opt<bool> force("force",
                    cl::desc("Run every job again instead of reusing stored "
                             "results"),
                    cl::sub(getSweepSubcommand()));
cl::opt<bool> allowLarge("allow-large",
                         cl::desc("Run a sweep of more than 100000 jobs"),
                         cl::sub(getSweepSubcommand()));
cl::opt<std::string> tokenFile(
    "token-file",
    cl::desc("The coordinator's shared token (default: $DISPATCHLAB_TOKEN)"),
    cl::value_desc("FILE"), cl::sub(getSweepSubcommand()));
cl::opt<unsigned> coordinatorTimeout(
    "coordinator-timeout",
    cl::desc("Give up when the coordinator has been out of reach this long "
             "(0: never; default 120)"),
    cl::value_desc("SECONDS"), cl::init(120), cl::sub(getSweepSubcommand()));
cl::opt<std::string> tlsCa("tls-ca",
                           cl::desc("Use TLS, trusting this PEM certificate"),
                           cl::value_desc("FILE"),
                           cl::sub(getSweepSubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab sweep");
}

/// The progress line: redrawn in place on a terminal, one plain line at most
/// every second otherwise.
class ProgressPrinter {
public:
  ProgressPrinter() : terminal(llvm::sys::Process::StandardErrIsDisplayed()) {}

  void update(const coordinator::SweepProgress &progress) {
    auto now = std::chrono::steady_clock::now();
    int64_t finished = progress.done() + progress.failed();
    if (!initialFinished)
      initialFinished = finished;
    bool last = progress.finished();
    if (!terminal && !last && now - lastPrinted < 1s)
      return;
    lastPrinted = now;
    std::string eta = "?";
    double elapsed = std::chrono::duration<double>(now - start).count();
    int64_t ranHere = finished - *initialFinished;
    int64_t remaining = progress.pending() + progress.running();
    if (ranHere > 0 && elapsed > 0) {
      int64_t seconds = static_cast<int64_t>(remaining * elapsed / ranHere);
      eta = llvm::formatv("{0}:{1:2}", seconds / 60, seconds % 60);
    }
    std::string line = llvm::formatv(
        "sweep {0}: {1}/{2} done, {3} failed, {4} cached, {5} running, ETA "
        "{6}",
        progress.name(), progress.done() + progress.cached(), progress.total(),
        progress.failed(), progress.cached(), progress.running(), eta);
    if (terminal) {
      llvm::errs() << "\r\033[K" << line << (last ? "\n" : "");
      lineOpen = !last;
    } else {
      llvm::errs() << line << "\n";
    }
    llvm::errs().flush();
  }

  /// Ends a progress line being redrawn, so what follows starts a line.
  void interrupted() {
    if (lineOpen)
      llvm::errs() << "\n";
    lineOpen = false;
  }

  /// Says when the coordinator starts or stops failing to store results. An
  /// embedded coordinator's own lines say it already.
  void storeProblem(const std::string &problem) {
    if (problem == lastStoreProblem || coordinatorAddress.empty())
      return;
    notice(problem.empty()
               ? "dispatchlab sweep: the coordinator stores results again"
               : "dispatchlab sweep: the coordinator cannot store results: " +
                     problem);
    lastStoreProblem = problem;
  }

  /// A line of its own between progress lines.
  void notice(const std::string &line) {
    llvm::errs() << (terminal ? "\r\033[K" : "") << line << "\n";
    llvm::errs().flush();
    lineOpen = false;
  }

private:
  bool terminal;
  /// A progress line is drawn without its newline.
  bool lineOpen = false;
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point lastPrinted;
  std::optional<int64_t> initialFinished;
  std::string lastStoreProblem;
};

std::string randomToken() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 4; ++i)
    token += llvm::utohexstr((static_cast<uint64_t>(device()) << 32) | device(),
                             true, 16);
  return token;
}

enum class FollowResult { Finished, Interrupted, Failed };

/// Submits the sweep; nothing, after saying why, when that fails.
std::optional<coordinator::SubmitSweepReply>
submit(CoordinatorClient &client, const LoadedSpec &loaded, bool forceRerun) {
  coordinator::SubmitSweepRequest request;
  *request.mutable_spec() = loaded.spec;
  for (const ModelFile &model : loaded.models) {
    coordinator::Model &out = *request.add_models();
    out.set_name(model.name);
    out.set_extension(model.extension);
    out.set_content(model.content);
  }
  request.set_force(forceRerun);
  coordinator::SubmitSweepReply reply;
  grpc::Status status =
      client.stub().SubmitSweep(client.context(60s).get(), request, &reply);
  if (status.error_code() == grpc::StatusCode::ALREADY_EXISTS) {
    // The spec's name is taken: the user's file is what to change.
    // (reproduce submits embedded specs: no file of the user's to name.)
    error() << (specPath.empty() ? "" : specPath + ": ")
            << status.error_message() << "\n";
    return std::nullopt;
  }
  if (!status.ok()) {
    // A TLS server closes a plaintext connection without a word.
    bool maybeTls = status.error_code() == grpc::StatusCode::UNAVAILABLE &&
                    tlsCa.empty() && !coordinatorAddress.empty();
    error() << "cannot submit the sweep to " << coordinatorAddress
            << (coordinatorAddress.empty() ? "the embedded coordinator" : "")
            << ": " << status.error_message()
            << (maybeTls ? " (if the coordinator uses TLS, pass --tls-ca)" : "")
            << "\n";
    return std::nullopt;
  }
  llvm::errs() << llvm::formatv(
      "sweep {0}: {1} jobs, {2} cached{3}\n", loaded.spec.name(), reply.jobs(),
      reply.cached(),
      reply.resumed()
          ? llvm::formatv(" (resuming the sweep submitted before: {0} "
                          "finished)",
                          reply.finished())
                .str()
          : "");
  // Remote workers may be of other classes: say what the jobs wait for.
  if (!coordinatorAddress.empty() && !reply.run_cpu_class().empty())
    llvm::errs() << llvm::formatv("sweep {0}: run jobs go to workers of CPU "
                                  "class {1} only\n",
                                  loaded.spec.name(), reply.run_cpu_class());
  return reply;
}

/// One WatchSweep stream of sweep `sweepId` until it ends, or is cancelled
/// once `cancel` (polled every 50 ms) says so. Sets `finished` and `final`
/// when the sweep finished.
grpc::Status watchOnce(CoordinatorClient &client, int64_t sweepId,
                       ProgressPrinter &printer, CoordinatorReachability &reach,
                       llvm::function_ref<bool()> cancel, bool &finished,
                       coordinator::SweepProgress &final) {
  std::unique_ptr<grpc::ClientContext> context = client.context(std::nullopt);
  std::atomic<bool> done{false};
  // Ctrl-C (or giving up on a call that hangs) cancels the blocking read.
  std::thread canceller([&] {
    while (!done && !cancel())
      std::this_thread::sleep_for(50ms);
    if (!done)
      context->TryCancel();
  });
  coordinator::WatchSweepRequest watch;
  watch.set_sweep_id(sweepId);
  auto reader = client.stub().WatchSweep(context.get(), watch);
  coordinator::SweepProgress progress;
  while (reader->Read(&progress)) {
    reach.reached();
    printer.storeProblem(progress.store_problem());
    printer.update(progress);
    if (progress.finished()) {
      final = progress;
      finished = true;
    }
  }
  grpc::Status status = reader->Finish();
  done = true;
  canceller.join();
  return status;
}

/// Follows the sweep to its end, reconnecting while the coordinator is out
/// of reach (it may be restarting) for up to --coordinator-timeout, and
/// saying so.
FollowResult follow(CoordinatorClient &client, int64_t sweepId,
                    const std::atomic<bool> &stop,
                    coordinator::SweepProgress &final) {
  ProgressPrinter printer;
  CoordinatorReachability reach(client.address(),
                                std::chrono::seconds(coordinatorTimeout),
                                [&](const std::string &line) {
                                  printer.notice("dispatchlab sweep: " + line);
                                });
  // It answered the submission: losing it now is "lost", not "cannot reach".
  reach.reached();
  while (true) {
    bool finished = false;
    grpc::Status status = watchOnce(
        client, sweepId, printer, reach,
        [&] { return stop || reach.expired(); }, finished, final);
    if (finished)
      return FollowResult::Finished;
    if (stop) {
      printer.interrupted();
      return FollowResult::Interrupted;
    }
    if (isStoreRetry(status)) {
      // It answered; reading the sweep's state failed (a busy database).
      printer.storeProblem(status.error_message());
      std::this_thread::sleep_for(500ms);
      continue;
    }
    if (!isUnreachable(status) && !reach.expired()) {
      printer.interrupted();
      error() << "lost the coordinator at " << client.address() << ": "
              << status.error_message() << "\n";
      return FollowResult::Failed;
    }
    if (reach.expired() || !reach.failed(status)) {
      printer.interrupted();
      error() << reach.giveUpMessage()
              << "; the sweep may still be running there: run the same "
                 "command again to follow it\n";
      return FollowResult::Failed;
    }
    std::this_thread::sleep_for(500ms);
  }
}

/// Submits and follows the sweep, whose id it sets, to its end.
FollowResult submitAndFollow(CoordinatorClient &client,
                             const LoadedSpec &loaded, bool forceRerun,
                             const std::atomic<bool> &stop,
                             coordinator::SweepProgress &final,
                             int64_t &sweepId) {
  std::optional<coordinator::SubmitSweepReply> reply =
      submit(client, loaded, forceRerun);
  if (!reply)
    return FollowResult::Failed;
  sweepId = reply->sweep_id();
  return follow(client, sweepId, stop, final);
}

/// False, after an error line, when a run job of the spec is bound to a CPU
/// class other than this host's: the local workers are all of this host's
/// class, and such a job would wait for a worker that never comes.
bool localWorkersCanRun(const LoadedSpec &loaded) {
  KeyContext context = KeyContext::current();
  // A spec whose variants do not resolve is refused by the coordinator.
  llvm::Expected<std::vector<ResolvedVariant>> variants =
      resolveVariants(loaded.spec);
  if (!variants) {
    llvm::consumeError(variants.takeError());
    return true;
  }
  for (const ResolvedVariant &variant : *variants) {
    std::string cpuClass =
        jobCpuClass(variant.kind, loaded.spec.measurement(), context);
    if (cpuClass.empty() || cpuClass == context.cpuClass)
      continue;
    error() << llvm::formatv(
        "sweep '{0}' measures its run jobs on CPU class '{1}' but the local "
        "workers are '{2}'; submit it with --coordinator to a coordinator "
        "with workers of that class\n",
        loaded.spec.name(), cpuClass, context.cpuClass);
    return false;
  }
  return true;
}

/// The embedded run: a coordinator on a free loopback port with a fresh
/// token and local worker slots, all in this process.
llvm::Expected<FollowResult> runEmbedded(const LoadedSpec &loaded,
                                         const EmbeddedSweepOptions &options,
                                         const std::atomic<bool> &stop,
                                         coordinator::SweepProgress &final,
                                         int64_t &sweepId) {
  if (!localWorkersCanRun(loaded))
    return FollowResult::Failed;
  llvm::StringRef dbDir = llvm::sys::path::parent_path(options.dbPath);
  if (!dbDir.empty())
    llvm::sys::fs::create_directories(dbDir);
  ServerConfig config;
  config.dbPath = options.dbPath;
  // Nothing else on this machine may feed or drain the embedded queue.
  config.token = randomToken();
  bool created = !llvm::sys::fs::exists(options.dbPath);
  llvm::Expected<std::unique_ptr<CoordinatorServer>> server =
      CoordinatorServer::start(config);
  if (!server)
    return server.takeError();
  llvm::SmallString<256> absolute(options.dbPath);
  llvm::sys::fs::make_absolute(absolute);
  llvm::errs() << llvm::formatv("sweep {0}: results in {1}{2}\n",
                                loaded.spec.name(), absolute,
                                created ? " (a new database)" : "");
  JobQueue &queue = (*server)->getQueue();
  // This process owned the database's leases last time, and no worker
  // of that run is alive: hand their jobs out again.
  if (llvm::Error error = queue.releaseAllLeases().takeError())
    return std::move(error);

  WorkerConfig workerConfig;
  workerConfig.client = {(*server)->address(), config.token};
  workerConfig.slots = std::max(1u, options.workers);
  // Beside the database: the sweep's run jobs share the references of their
  // models, and a later sweep into the same database finds them.
  workerConfig.cacheDirectory = options.dbPath + ".cache";
  Worker worker(workerConfig);
  std::atomic<bool> stopWorkers{false};
  // The embedded coordinator accepts its own workers: no error to show.
  std::thread workerThread(
      [&] { llvm::consumeError(worker.run(stopWorkers)); });
  CoordinatorClient client({(*server)->address(), config.token});
  FollowResult result =
      submitAndFollow(client, loaded, options.force, stop, final, sweepId);
  stopWorkers = true;
  workerThread.join();
  // The workers abandoned their jobs without reporting: put them back now
  // rather than leaving them leased in the database until the next run.
  if (llvm::Error error = queue.releaseAllLeases().takeError())
    return std::move(error);
  (*server)->shutdown();
  return result;
}

/// 0 when no job of the finished sweep failed; else kExitJobsFailed, after
/// a line counting the failures by kind and naming the command that lists
/// them.
int finishedStatus(const coordinator::SweepProgress &final, int64_t sweepId) {
  if (final.failed() == 0)
    return 0;
  std::vector<std::string> errors;
  for (const coordinator::JobRow &job : final.rows())
    if (job.state() == "failed")
      errors.push_back(job.error());
  // A remote sweep's database is the coordinator's, wherever it runs.
  std::string dbFlag =
      coordinatorAddress.empty() && databasePath.getNumOccurrences()
          ? " --db " + databasePath
          : "";
  llvm::outs().flush();
  llvm::errs() << llvm::formatv(
      "sweep {0}: {1} of {2} jobs failed: {3}; see: dispatchlab jobs "
      "--sweep {4} --state failed{5}\n",
      final.name(), final.failed(), final.total(), countFailureKinds(errors),
      sweepId, dbFlag);
  return kExitJobsFailed;
}
} // namespace

int runEmbeddedSweep(const LoadedSpec &loaded,
                     const EmbeddedSweepOptions &options,
                     coordinator::SweepProgress &final) {
  std::atomic<bool> &stop = stopOnInterrupt();
  int64_t sweepId = 0;
  llvm::Expected<FollowResult> result =
      runEmbedded(loaded, options, stop, final, sweepId);
  if (!result) {
    error() << llvm::toString(result.takeError()) << "\n";
    return 1;
  }
  if (*result == FollowResult::Interrupted)
    return 130;
  return *result == FollowResult::Failed ? 1 : 0;
}

/// Where zoo names resolve when not beside the spec: the zoo of the
/// installation (bin/../experiments/models) and of the source tree this
/// binary was built from.
std::vector<std::string> zooDirectories() {
  std::vector<std::string> dirs;
  static int anchor;
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(llvm::sys::fs::getMainExecutable(
          "dispatchlab", static_cast<void *>(&anchor)))));
  llvm::sys::path::append(installed, "experiments", "models");
  llvm::SmallString<256> source(DISPATCHLAB_SOURCE_DIR);
  llvm::sys::path::append(source, "experiments", "models");
  for (llvm::StringRef dir : {installed.str(), source.str()})
    if (llvm::sys::fs::is_directory(dir) && !llvm::is_contained(dirs, dir))
      dirs.push_back(dir.str());
  return dirs;
}

/// The sweep submitted to --coordinator and followed.
static llvm::Expected<FollowResult>
followRemotely(const LoadedSpec &loaded, const std::atomic<bool> &stop,
               coordinator::SweepProgress &final, int64_t &sweepId) {
  llvm::Expected<ClientConfig> config =
      loadClientConfig(coordinatorAddress, tokenFile, tlsCa);
  if (!config)
    return config.takeError();
  CoordinatorClient client(*config);
  FollowResult result =
      submitAndFollow(client, loaded, force, stop, final, sweepId);
  if (result == FollowResult::Interrupted)
    llvm::errs() << "dispatchlab sweep: stopped following; the sweep "
                    "goes on at the coordinator\n";
  return result;
}

/// The sweep run by an embedded coordinator and workers.
static llvm::Expected<FollowResult>
runLocally(const LoadedSpec &loaded, const std::atomic<bool> &stop,
           coordinator::SweepProgress &final, int64_t &sweepId) {
  llvm::Expected<FollowResult> result =
      runEmbedded(loaded, {databasePath, workers, force}, stop, final, sweepId);
  if (result && *result == FollowResult::Interrupted)
    llvm::errs() << "dispatchlab sweep: interrupted; run the same "
                    "command again to resume (finished jobs are kept in "
                 << databasePath << ")\n";
  return result;
}

int runSweepCommand() {
  llvm::Expected<LoadedSpec> loaded = loadSweepSpec(specPath, zooDirectories());
  if (!loaded) {
    llvm::errs() << llvm::toString(loaded.takeError()) << "\n";
    return 2;
  }
  llvm::Expected<std::string> sizeWarning =
      checkSweepSize(loaded->spec, specPath, allowLarge);
  if (!sizeWarning) {
    llvm::errs() << llvm::toString(sizeWarning.takeError()) << "\n";
    return 2;
  }
  if (!sizeWarning->empty())
    llvm::errs() << *sizeWarning << "\n";
  std::atomic<bool> &stop = stopOnInterrupt();
  coordinator::SweepProgress final;
  int64_t sweepId = 0;
  llvm::Expected<FollowResult> result =
      coordinatorAddress.empty()
          ? runLocally(*loaded, stop, final, sweepId)
          : followRemotely(*loaded, stop, final, sweepId);
  if (!result) {
    error() << llvm::toString(result.takeError()) << "\n";
    return 1;
  }
  if (*result == FollowResult::Interrupted)
    return 130;
  if (*result == FollowResult::Failed)
    return 1;
  printSweepTable(final, llvm::outs());
  return finishedStatus(final, sweepId);
}

} // namespace dispatchlab

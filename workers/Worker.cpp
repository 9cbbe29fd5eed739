//===- Worker.cpp - a worker's loop ---------------------------------------===//

#include "workers/Worker.h"

#include "core/support/HostPinning.h"
#include "core/support/Provenance.h"
#include "workers/JobRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dispatchlab {

using namespace std::chrono_literals;

Worker::Worker(WorkerConfig config)
    : config(std::move(config)), client(this->config.client),
      reach(this->config.client.address, this->config.coordinatorTimeout,
            [this](const std::string &line) {
              // Until it first answers, it may be a coordinator that wants
              // TLS.
              bool hint = workerId == 0 && !this->config.client.tlsCaPem;
              notice(hint ? line + " (if it uses TLS, pass --tls-ca)" : line);
            }),
      cores(getAllowedCpus(), kCoreLockDir) {
  for (const std::string &dir : scratch.removedStale())
    notice("removed " + dir + ", left by a worker no longer running");
  std::string json;
  llvm::raw_string_ostream os(json);
  os << Provenance::current().toJson();
  provenanceJson = json;
}

Worker::~Worker() = default;

void Worker::log(const std::string &line) {
  if (!config.log)
    return;
  std::lock_guard<std::mutex> lock(logMutex);
  *config.log << "dispatchlab worker " << workerId << ": " << line << "\n";
  config.log->flush();
}

void Worker::notice(const std::string &line) {
  if (!config.notices)
    return;
  std::lock_guard<std::mutex> lock(logMutex);
  *config.notices << "dispatchlab worker " << workerId << ": " << line << "\n";
  config.notices->flush();
}

void Worker::noteCall(const grpc::Status &status) {
  if (!isUnreachable(status))
    reach.reached();
  else if (!reach.failed(status))
    gaveUp = true;
}

static bool isTransient(const grpc::Status &status) {
  return isStoreRetry(status) ||
         status.error_code() == grpc::StatusCode::UNAVAILABLE ||
         status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
         status.error_code() == grpc::StatusCode::INTERNAL;
}

llvm::Error Worker::registerWorker(const std::atomic<bool> &stop) {
  Provenance provenance = Provenance::current();
  coordinator::RegisterWorkerRequest request;
  coordinator::Host &host = *request.mutable_host();
  char hostname[256] = {};
  gethostname(hostname, sizeof(hostname) - 1);
  host.set_hostname(hostname);
  host.set_cpu(config.cpuClassOverride.empty() ? provenance.hostCpu
                                               : config.cpuClassOverride);
  host.set_cores(getAllowedCpus().size());
  host.set_features(provenance.hostFeatures);
  host.set_llvm_version(provenance.llvmVersion);
  host.set_dispatchlab_commit(provenance.dispatchlabCommit);
  request.set_slots(config.slots);
  while (keepRunning(stop)) {
    coordinator::RegisterWorkerReply reply;
    grpc::Status status =
        client.stub().RegisterWorker(client.context(5s).get(), request, &reply);
    // The id first: the line saying the coordinator is back names the
    // worker (and gives no TLS hint).
    if (status.ok())
      workerId = reply.worker_id();
    noteCall(status);
    if (status.ok()) {
      heartbeatSeconds = reply.heartbeat_seconds();
      log(llvm::formatv("registered (pid {0}, {1} slots)", getpid(),
                        config.slots));
      return llvm::Error::success();
    }
    if (!isTransient(status))
      return llvm::createStringError(
          llvm::formatv("coordinator refused the worker: {0}",
                        status.error_message())
              .str());
    // It may be starting or restarting: noteCall says so; keep trying.
    std::this_thread::sleep_for(500ms);
  }
  if (gaveUp)
    return llvm::createStringError(reach.giveUpMessage());
  return llvm::Error::success();
}

llvm::Error Worker::run(const std::atomic<bool> &stop) {
  if (llvm::Error error = registerWorker(stop))
    return error;
  std::vector<std::thread> slots;
  for (unsigned i = 0; i < config.slots; ++i)
    slots.emplace_back([&] { slotLoop(stop); });
  for (std::thread &slot : slots)
    slot.join();
  if (fatal)
    return llvm::createStringError(
        "coordinator stopped accepting this worker's token");
  // Its unreported jobs' leases expire and go to other workers.
  if (gaveUp)
    return llvm::createStringError(reach.giveUpMessage());
  return llvm::Error::success();
}

void Worker::slotLoop(const std::atomic<bool> &stop) {
  while (keepRunning(stop) && !fatal) {
    coordinator::LeaseJobRequest request;
    request.set_worker_id(workerId);
    request.set_wait_ms(1000);
    coordinator::LeaseJobReply reply;
    grpc::Status status =
        client.stub().LeaseJob(client.context(10s).get(), request, &reply);
    noteCall(status);
    if (status.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
      fatal = true;
      return;
    }
    if (!status.ok()) {
      // Coordinator restarting or unreachable: try again shortly.
      std::this_thread::sleep_for(250ms);
      continue;
    }
    if (!reply.has_job())
      continue;
    const coordinator::Job &job = reply.job();
    log(llvm::formatv("job {0} lease {1} started", job.job_id(),
                      job.lease_id()));
    std::optional<coordinator::ReportResultRequest> result = execute(job, stop);
    if (!result) {
      // execute gives up for one of two reasons: this worker is stopping, or
      // a heartbeat found the lease no longer current.
      log(llvm::formatv(
          "job {0} lease {1} abandoned: {2}", job.job_id(), job.lease_id(),
          keepRunning(stop) && !fatal
              ? "the coordinator no longer holds this lease (it expired and "
                "was leased again, the job was cancelled, or another run of "
                "its key finished first)"
              : "the worker is stopping"));
      continue;
    }
    report(*result, stop);
  }
}

void Worker::report(coordinator::ReportResultRequest &request,
                    const std::atomic<bool> &stop) {
  request.set_worker_id(workerId);
  std::string lastRetryReason;
  while (keepRunning(stop)) {
    coordinator::ReportResultReply reply;
    grpc::Status status =
        client.stub().ReportResult(client.context(10s).get(), request, &reply);
    noteCall(status);
    if (status.ok()) {
      log(llvm::formatv("job {0} lease {1} {2}{3}", request.job_id(),
                        request.lease_id(),
                        coordinator::Outcome_Name(request.outcome()),
                        reply.accepted() ? "" : " (duplicate, ignored)"));
      return;
    }
    if (!isTransient(status)) {
      log("report refused: " + status.error_message());
      return;
    }
    // Say why the result waits (a full database, say), once per change.
    if (status.error_message() != lastRetryReason)
      log(llvm::formatv("job {0} lease {1} report not stored yet: {2}",
                        request.job_id(), request.lease_id(),
                        status.error_message()));
    lastRetryReason = status.error_message();
    std::this_thread::sleep_for(250ms);
  }
}

llvm::Expected<std::string>
Worker::materializeModel(const coordinator::Job &job) {
  std::lock_guard<std::mutex> lock(modelMutex);
  if (scratch.path().empty())
    return llvm::createStringError(scratch.error());
  llvm::SmallString<256> path(scratch.path());
  llvm::sys::path::append(path, job.model_hash() + job.model().extension());
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError("cannot write " + std::string(path) + ": " +
                                   ec.message());
  os << job.model().content();
  os.close();
  if (os.has_error()) {
    os.clear_error();
    return llvm::createStringError("cannot write " + std::string(path));
  }
  return std::string(path);
}

bool Worker::leaseHeld(const coordinator::Job &job) {
  coordinator::HeartbeatRequest request;
  request.set_worker_id(workerId);
  request.set_job_id(job.job_id());
  request.set_lease_id(job.lease_id());
  coordinator::HeartbeatReply reply;
  grpc::Status status =
      client.stub().Heartbeat(client.context(2s).get(), request, &reply);
  noteCall(status);
  // An unreachable coordinator is not a reason to stop (until noteCall gives
  // up): it may be restarting, and the report will be retried.
  return !status.ok() || reply.lease_valid();
}

std::optional<ChildResult> Worker::runPinned(const coordinator::Job &job,
                                             const JobCommand &command,
                                             ChildLimits &limits,
                                             const std::atomic<bool> &stop) {
  bool leaseLost = false;
  auto lastHeartbeat = std::chrono::steady_clock::now();
  auto keepGoing = [&] {
    if (!keepRunning(stop))
      return false;
    auto now = std::chrono::steady_clock::now();
    if (now - lastHeartbeat < std::chrono::duration<double>(heartbeatSeconds))
      return true;
    lastHeartbeat = now;
    if (!leaseHeld(job))
      leaseLost = true;
    return !leaseLost;
  };
  // Latency jobs are pinned to cores reserved for them alone, so two
  // measurements never share a core; other jobs share cores among
  // themselves but never with a measurement. The lease is kept alive while
  // waiting.
  bool exclusive = command.exclusiveCores > 0;
  if (exclusive) {
    std::optional<std::vector<int>> reserved =
        cores.acquire(command.exclusiveCores, keepGoing);
    if (!reserved)
      return std::nullopt;
    limits.cpus = std::move(*reserved);
  } else {
    std::optional<int> shared = cores.acquireShared(keepGoing);
    if (!shared)
      return std::nullopt;
    limits.cpus = {*shared};
  }
  std::vector<std::string> argv = {config.selfExe};
  llvm::append_range(argv, command.arguments);
  ChildResult child = runChild(argv, limits, keepGoing);
  if (exclusive)
    cores.release(limits.cpus);
  else
    cores.releaseShared(limits.cpus.front());
  if (child.status == ChildResult::Status::Cancelled)
    return std::nullopt;
  return child;
}

namespace {
/// How a child that did not exit 0 failed. dispatchlab's own errors are one
/// line naming the op: the most useful thing a table can show of a failure.
/// The path before it is the worker's scratch copy of the model, so it is
/// left out.
std::string describeFailure(const ChildResult &child,
                            const ChildLimits &limits) {
  std::string error = child.describe(limits);
  llvm::StringRef tail(child.stderrTail);
  size_t at = tail.find("error: ");
  if (at != llvm::StringRef::npos)
    error += ": " + tail.substr(at).split('\n').first.trim().str();
  return error;
}

/// Fills `report` with how `child` ended and, when it succeeded, its stats.
void reportChild(coordinator::ReportResultRequest &report,
                 const JobHandler &handler, const ChildResult &child,
                 const ChildLimits &limits) {
  report.set_wall_seconds(child.wallSeconds);
  report.set_stderr_tail(child.stderrTail);
  report.set_exit_code(child.exitCode);
  report.set_signal(child.signal);
  if (child.status == ChildResult::Status::SpawnFailed) {
    report.set_outcome(coordinator::INFRASTRUCTURE_ERROR);
    report.set_error(child.describe(limits));
    return;
  }
  if (child.status != ChildResult::Status::Exited || child.exitCode != 0) {
    report.set_outcome(coordinator::FAILED);
    report.set_error(describeFailure(child, limits));
    return;
  }
  llvm::Expected<JobStats> stats = handler.parseOutput(child.stdoutText);
  if (!stats) {
    report.set_outcome(coordinator::FAILED);
    report.set_error(llvm::toString(stats.takeError()));
    return;
  }
  // The child's own provenance is the truth for what produced the numbers.
  if (stats->provenanceJson)
    report.set_provenance_json(*stats->provenanceJson);
  report.set_outcome(coordinator::SUCCEEDED);
  report.set_stats_json(stats->json);
}
} // namespace

std::optional<coordinator::ReportResultRequest>
Worker::execute(const coordinator::Job &job, const std::atomic<bool> &stop) {
  coordinator::ReportResultRequest report;
  report.set_job_id(job.job_id());
  report.set_lease_id(job.lease_id());
  report.set_provenance_json(provenanceJson);
  const JobHandler *handler = findJobHandler(job.kind());
  if (!handler) {
    report.set_outcome(coordinator::FAILED);
    report.set_error(llvm::formatv("unknown job kind {0}", (int)job.kind()));
    return report;
  }
  if (!handler->prepare) {
    report.set_outcome(coordinator::SUCCEEDED);
    report.set_stats_json("{}");
    return report;
  }
  JobContext context{"", config.slots, cores.size(), config.cacheDirectory,
                     config.cacheMaxMb};
  if (handler->needsModel) {
    llvm::Expected<std::string> model = materializeModel(job);
    if (!model) {
      report.set_outcome(coordinator::INFRASTRUCTURE_ERROR);
      report.set_error(llvm::toString(model.takeError()));
      return report;
    }
    context.modelPath = std::move(*model);
  }
  llvm::Expected<JobCommand> command = handler->prepare(job, context);
  if (!command) {
    report.set_outcome(coordinator::FAILED);
    report.set_error(llvm::toString(command.takeError()));
    return report;
  }
  ChildLimits limits;
  limits.timeoutSeconds = job.measurement().timeout_seconds();
  limits.memoryLimitMb = job.measurement().memory_limit_mb();
  std::optional<ChildResult> child = runPinned(job, *command, limits, stop);
  if (!child)
    return std::nullopt;
  reportChild(report, *handler, *child, limits);
  return report;
}

} // namespace dispatchlab

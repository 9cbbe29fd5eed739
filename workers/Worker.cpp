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
#include <fcntl.h>
#include <numeric>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dispatchlab {

using namespace std::chrono_literals;

CorePool::CorePool(std::vector<int> cpus, std::string lockDir)
    : cpus(std::move(cpus)), busy(this->cpus.size(), false),
      sharers(this->cpus.size(), 0), lockDir(std::move(lockDir)),
      lockFds(this->cpus.size(), -1) {
  // Shared by every user's workers, like /tmp itself.
  if (!this->lockDir.empty() && mkdir(this->lockDir.c_str(), 01777) == 0)
    chmod(this->lockDir.c_str(), 01777);
}

CorePool::~CorePool() {
  for (int fd : lockFds)
    if (fd >= 0)
      close(fd);
}

bool CorePool::lockHost(size_t index, bool exclusive) {
  if (lockDir.empty())
    return true;
  std::string path = llvm::formatv("{0}/cpu{1}", lockDir, cpus[index]);
  // Not inherited by children: a lock must end with its reservation.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  // Unable to coordinate (e.g. another user's file without write access):
  // fall back to this process's reservations rather than never running.
  if (fd < 0)
    return true;
  fchmod(fd, 0666);
  if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    close(fd);
    return false;
  }
  lockFds[index] = fd;
  return true;
}

void CorePool::unlockHost(size_t index) {
  if (lockFds[index] >= 0)
    close(lockFds[index]);
  lockFds[index] = -1;
}

bool CorePool::waitTurn(llvm::function_ref<bool()> take,
                        llvm::function_ref<bool()> keepGoing) {
  std::unique_lock<std::mutex> lock(mutex);
  auto self = queue.insert(queue.end(), nextRequest++);
  while (true) {
    if (queue.begin() == self && take()) {
      queue.erase(self);
      freed.notify_all();
      return true;
    }
    // Other processes release cores without a notification: poll.
    freed.wait_for(lock, 100ms);
    lock.unlock();
    bool go = keepGoing();
    lock.lock();
    if (!go) {
      queue.erase(self);
      freed.notify_all();
      return false;
    }
  }
}

std::optional<std::vector<int>>
CorePool::acquire(unsigned count, llvm::function_ref<bool()> keepGoing) {
  std::vector<int> reserved;
  auto take = [&] {
    std::vector<size_t> taken;
    for (size_t i = 0; i < cpus.size() && taken.size() < count; ++i)
      if (!busy[i] && sharers[i] == 0 && lockHost(i, /*exclusive=*/true))
        taken.push_back(i);
    // All or nothing, so two wide jobs cannot each hold half.
    if (taken.size() < count) {
      for (size_t i : taken)
        unlockHost(i);
      return false;
    }
    for (size_t i : taken) {
      busy[i] = true;
      reserved.push_back(cpus[i]);
    }
    return true;
  };
  if (!waitTurn(take, keepGoing))
    return std::nullopt;
  return reserved;
}

void CorePool::release(llvm::ArrayRef<int> cores) {
  std::lock_guard<std::mutex> lock(mutex);
  for (int core : cores) {
    size_t index = std::find(cpus.begin(), cpus.end(), core) - cpus.begin();
    busy[index] = false;
    unlockHost(index);
  }
  freed.notify_all();
}

std::optional<int>
CorePool::acquireShared(llvm::function_ref<bool()> keepGoing) {
  int core = -1;
  auto take = [&] {
    std::vector<size_t> order(cpus.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(
        order, [&](size_t a, size_t b) { return sharers[a] < sharers[b]; });
    for (size_t i : order) {
      // The first sharer takes the host lock for all of them.
      if (busy[i] || (sharers[i] == 0 && !lockHost(i, /*exclusive=*/false)))
        continue;
      ++sharers[i];
      core = cpus[i];
      return true;
    }
    return false;
  };
  if (!waitTurn(take, keepGoing))
    return std::nullopt;
  return core;
}

void CorePool::releaseShared(int core) {
  std::lock_guard<std::mutex> lock(mutex);
  size_t index = std::find(cpus.begin(), cpus.end(), core) - cpus.begin();
  if (--sharers[index] == 0)
    unlockHost(index);
  freed.notify_all();
}

Worker::Worker(WorkerConfig config)
    : config(std::move(config)), client(this->config.client),
      cores(getAllowedCpus(), kCoreLockDir) {
  llvm::SmallString<128> dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
  llvm::sys::path::append(dir,
                          llvm::formatv("dispatchlab-worker-{0}-{1}", getpid(),
                                        reinterpret_cast<uintptr_t>(this))
                              .str());
  scratchDir = std::string(dir);
  std::string json;
  llvm::raw_string_ostream os(json);
  os << Provenance::current().toJson();
  provenanceJson = json;
}

Worker::~Worker() { llvm::sys::fs::remove_directories(scratchDir); }

void Worker::log(const std::string &line) {
  if (!config.log)
    return;
  std::lock_guard<std::mutex> lock(logMutex);
  *config.log << "dispatchlab worker " << workerId << ": " << line << "\n";
  config.log->flush();
}

static bool isTransient(const grpc::Status &status) {
  return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
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
  bool toldUnreachable = false;
  while (!stop) {
    coordinator::RegisterWorkerReply reply;
    grpc::Status status =
        client.stub().RegisterWorker(client.context(5s).get(), request, &reply);
    if (status.ok()) {
      workerId = reply.worker_id();
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
    // It may be starting or restarting: say so once and keep trying.
    if (!toldUnreachable)
      log(llvm::formatv(
          "coordinator unreachable ({0}); retrying{1}", status.error_message(),
          config.client.tlsCaPath.empty() ? " (if it uses TLS, pass --tls-ca)"
                                          : ""));
    toldUnreachable = true;
    std::this_thread::sleep_for(500ms);
  }
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
  return llvm::Error::success();
}

void Worker::slotLoop(const std::atomic<bool> &stop) {
  while (!stop && !fatal) {
    coordinator::LeaseJobRequest request;
    request.set_worker_id(workerId);
    request.set_wait_ms(1000);
    coordinator::LeaseJobReply reply;
    grpc::Status status =
        client.stub().LeaseJob(client.context(10s).get(), request, &reply);
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
      log(llvm::formatv("job {0} lease {1} abandoned", job.job_id(),
                        job.lease_id()));
      continue;
    }
    report(*result, stop);
  }
}

void Worker::report(coordinator::ReportResultRequest &request,
                    const std::atomic<bool> &stop) {
  request.set_worker_id(workerId);
  std::string lastRetryReason;
  while (!stop) {
    coordinator::ReportResultReply reply;
    grpc::Status status =
        client.stub().ReportResult(client.context(10s).get(), request, &reply);
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
  llvm::SmallString<256> path(scratchDir);
  llvm::sys::path::append(path, job.model_hash() + job.model().extension());
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  if (std::error_code ec = llvm::sys::fs::create_directories(scratchDir))
    return llvm::createStringError("cannot create " + scratchDir + ": " +
                                   ec.message());
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
  // An unreachable coordinator is not a reason to stop: it may be
  // restarting, and the report will be retried.
  return !client.stub()
              .Heartbeat(client.context(2s).get(), request, &reply)
              .ok() ||
         reply.lease_valid();
}

std::optional<ChildResult> Worker::runPinned(const coordinator::Job &job,
                                             const JobCommand &command,
                                             ChildLimits &limits,
                                             const std::atomic<bool> &stop) {
  bool leaseLost = false;
  auto lastHeartbeat = std::chrono::steady_clock::now();
  auto keepGoing = [&] {
    if (stop)
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
  JobContext context{"", config.slots, cores.size()};
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

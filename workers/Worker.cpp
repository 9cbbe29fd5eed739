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

bool Worker::registerWorker(const std::atomic<bool> &stop, std::string &error) {
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
      return true;
    }
    if (!isTransient(status)) {
      error = llvm::formatv("coordinator refused the worker: {0}",
                            status.error_message());
      return false;
    }
    // It may be starting or restarting: say so once and keep trying.
    if (!toldUnreachable)
      log(llvm::formatv(
          "coordinator unreachable ({0}); retrying{1}", status.error_message(),
          config.client.tlsCaPath.empty() ? " (if it uses TLS, pass --tls-ca)"
                                          : ""));
    toldUnreachable = true;
    std::this_thread::sleep_for(500ms);
  }
  return true;
}

bool Worker::run(const std::atomic<bool> &stop, std::string &error) {
  if (!registerWorker(stop, error))
    return false;
  std::vector<std::thread> slots;
  for (unsigned i = 0; i < config.slots; ++i)
    slots.emplace_back([&] { slotLoop(stop); });
  for (std::thread &slot : slots)
    slot.join();
  if (fatal) {
    error = "coordinator stopped accepting this worker's token";
    return false;
  }
  return true;
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
    std::this_thread::sleep_for(250ms);
  }
}

std::string Worker::materializeModel(const coordinator::Job &job) {
  std::lock_guard<std::mutex> lock(modelMutex);
  llvm::SmallString<256> path(scratchDir);
  llvm::sys::path::append(path, job.model_hash() + job.model().extension());
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  if (std::error_code ec = llvm::sys::fs::create_directories(scratchDir))
    throw std::runtime_error("cannot create " + scratchDir + ": " +
                             ec.message());
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    throw std::runtime_error("cannot write " + std::string(path) + ": " +
                             ec.message());
  os << job.model().content();
  os.close();
  if (os.has_error())
    throw std::runtime_error("cannot write " + std::string(path));
  return std::string(path);
}

std::optional<coordinator::ReportResultRequest>
Worker::execute(const coordinator::Job &job, const std::atomic<bool> &stop) {
  coordinator::ReportResultRequest report;
  report.set_job_id(job.job_id());
  report.set_lease_id(job.lease_id());
  report.set_provenance_json(provenanceJson);

  std::vector<std::string> argv = {config.selfExe};
  switch (job.kind()) {
  case sweep::TEST_NOOP:
    // In-process: the load test measures coordination, not process spawns.
    report.set_outcome(coordinator::SUCCEEDED);
    report.set_stats_json("{}");
    return report;
  case sweep::RUN:
  case sweep::COMPILE: {
    std::string modelPath;
    try {
      modelPath = materializeModel(job);
    } catch (const std::runtime_error &e) {
      report.set_outcome(coordinator::INFRASTRUCTURE_ERROR);
      report.set_error(e.what());
      return report;
    }
    bool isRun = job.kind() == sweep::RUN;
    argv.insert(argv.end(), {isRun ? "run" : "compile", modelPath,
                             "--preset=" + job.preset()});
    // The canonical options text is the complete variant: every knob.
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(job.options()).split(lines, '\n', -1, false);
    for (llvm::StringRef line : lines)
      argv.push_back(("--" + line).str());
    if (isRun) {
      const sweep::Measurement &measurement = job.measurement();
      unsigned threads = std::max(1u, measurement.threads());
      // Waiting for cores this worker does not have would never end.
      size_t usable = std::min<size_t>(config.slots, cores.size());
      if (threads > usable) {
        report.set_outcome(coordinator::FAILED);
        report.set_error(llvm::formatv(
            "run job needs {0} cores (measurement.threads) but this worker "
            "pins run jobs to at most {1} ({2} slots, {3} usable cores)",
            threads, usable, config.slots, cores.size()));
        return report;
      }
      argv.push_back("--emit=json");
      argv.push_back(llvm::formatv("--threads={0}", threads).str());
      argv.push_back(llvm::formatv("--repetitions={0}",
                                   std::max(1u, measurement.repetitions()))
                         .str());
      // Every digit: formatv's default for doubles keeps two decimals.
      if (measurement.tolerance() > 0)
        argv.push_back(
            llvm::formatv("--tolerance={0:e16}", measurement.tolerance())
                .str());
      if (measurement.warmup_seconds() > 0)
        argv.push_back(llvm::formatv("--warmup-seconds={0:e16}",
                                     measurement.warmup_seconds())
                           .str());
      // Latency does not depend on weight values, and zoo models ship
      // without them: every run job uses seeded pseudo-random weights.
      argv.push_back("--parameters=random");
    } else {
      argv.push_back("--emit=stats");
    }
    break;
  }
  case sweep::TEST_CRASH:
    argv.insert(argv.end(), {"worker", "--test-job=crash"});
    break;
  case sweep::TEST_HANG:
    argv.insert(argv.end(), {"worker", "--test-job=hang"});
    break;
  case sweep::TEST_SLEEP:
    argv.insert(argv.end(), {"worker", "--test-job=sleep",
                             llvm::formatv("--test-sleep-ms={0}",
                                           job.measurement().test_sleep_ms())
                                 .str()});
    break;
  default:
    report.set_outcome(coordinator::FAILED);
    report.set_error(llvm::formatv("unknown job kind {0}", (int)job.kind()));
    return report;
  }

  ChildLimits limits;
  limits.timeoutSeconds = job.measurement().timeout_seconds();
  limits.memoryLimitMb = job.measurement().memory_limit_mb();
  bool leaseLost = false;
  auto lastHeartbeat = std::chrono::steady_clock::now();
  auto keepGoing = [&] {
    if (stop)
      return false;
    auto now = std::chrono::steady_clock::now();
    if (now - lastHeartbeat < std::chrono::duration<double>(heartbeatSeconds))
      return true;
    lastHeartbeat = now;
    coordinator::HeartbeatRequest request;
    request.set_worker_id(workerId);
    request.set_job_id(job.job_id());
    request.set_lease_id(job.lease_id());
    coordinator::HeartbeatReply reply;
    // An unreachable coordinator is not a reason to stop: it may be
    // restarting, and the report will be retried.
    if (client.stub()
            .Heartbeat(client.context(2s).get(), request, &reply)
            .ok() &&
        !reply.lease_valid())
      leaseLost = true;
    return !leaseLost;
  };
  // Latency jobs are pinned to cores reserved for them alone, so two
  // measurements never share a core; other jobs share cores among
  // themselves but never with a measurement. The lease is kept alive while
  // waiting.
  bool measures = job.kind() == sweep::RUN;
  if (measures) {
    std::optional<std::vector<int>> reserved =
        cores.acquire(std::max(1u, job.measurement().threads()), keepGoing);
    if (!reserved)
      return std::nullopt;
    limits.cpus = std::move(*reserved);
  } else {
    std::optional<int> shared = cores.acquireShared(keepGoing);
    if (!shared)
      return std::nullopt;
    limits.cpus = {*shared};
  }
  ChildResult child = runChild(argv, limits, keepGoing);
  if (measures)
    cores.release(limits.cpus);
  else
    cores.releaseShared(limits.cpus.front());
  if (child.status == ChildResult::Status::Cancelled)
    return std::nullopt;

  report.set_wall_seconds(child.wallSeconds);
  report.set_stderr_tail(child.stderrTail);
  report.set_exit_code(child.exitCode);
  report.set_signal(child.signal);
  if (child.status == ChildResult::Status::SpawnFailed) {
    report.set_outcome(coordinator::INFRASTRUCTURE_ERROR);
    report.set_error(child.describe(limits));
    return report;
  }
  if (child.status != ChildResult::Status::Exited || child.exitCode != 0) {
    report.set_outcome(coordinator::FAILED);
    std::string error = child.describe(limits);
    // dispatchlab's own errors are one line naming the op: the most useful
    // thing a table can show of a failure. The path before it is the
    // worker's scratch copy of the model, so it is left out.
    llvm::StringRef tail(child.stderrTail);
    size_t at = tail.find("error: ");
    if (at != llvm::StringRef::npos)
      error += ": " + tail.substr(at).split('\n').first.trim().str();
    report.set_error(error);
    return report;
  }
  llvm::Expected<llvm::json::Value> stats = llvm::json::parse(child.stdoutText);
  if (!stats || !stats->getAsObject()) {
    if (!stats)
      llvm::consumeError(stats.takeError());
    report.set_outcome(coordinator::FAILED);
    report.set_error("exit code 0 but the output is not a stats JSON object");
    return report;
  }
  if (job.kind() == sweep::RUN) {
    // Results are compile stats at the top level (what reports pivot on);
    // a run job's measurement goes beside them under "run".
    llvm::json::Object &run = *stats->getAsObject();
    llvm::json::Object *compileStats = run.getObject("compile");
    if (!compileStats) {
      report.set_outcome(coordinator::FAILED);
      report.set_error("exit code 0 but the run output has no compile stats");
      return report;
    }
    llvm::json::Object merged = std::move(*compileStats);
    run.erase("compile");
    if (llvm::json::Value *provenance = run.get("provenance"))
      merged["provenance"] = *provenance;
    merged["run"] = std::move(run);
    *stats = std::move(merged);
  }
  // The child's own provenance is the truth for what produced the numbers.
  if (const llvm::json::Value *provenance =
          stats->getAsObject()->get("provenance")) {
    std::string json;
    llvm::raw_string_ostream os(json);
    os << *provenance;
    report.set_provenance_json(json);
  }
  report.set_outcome(coordinator::SUCCEEDED);
  report.set_stats_json(job.kind() == sweep::RUN
                            ? llvm::formatv("{0:2}", *stats).str()
                            : child.stdoutText);
  return report;
}

} // namespace dispatchlab

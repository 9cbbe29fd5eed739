//===- CoordinatorService.cpp - the Coordinator gRPC service --------------===//

#include "coordinator/CoordinatorService.h"

#include "coordinator/CoordinatorReachability.h"
#include "coordinator/SweepSpec.h"

#include "google/protobuf/text_format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <thread>

namespace dispatchlab {

CoordinatorService::CoordinatorService(JobQueue &queue, KeyContext context,
                                       std::string token)
    : queue(queue), keyContext(std::move(context)), token(std::move(token)) {}

grpc::Status CoordinatorService::authorize(grpc::ServerContext *context) const {
  if (token.empty())
    return grpc::Status::OK;
  auto [begin, end] = context->client_metadata().equal_range("authorization");
  std::string expected = "Bearer " + token;
  for (auto it = begin; it != end; ++it) {
    // Compare every byte, so timing says nothing about a wrong token.
    const grpc::string_ref &given = it->second;
    if (given.size() != expected.size())
      continue;
    unsigned char difference = 0;
    for (size_t i = 0; i < given.size(); ++i)
      difference |= given.data()[i] ^ expected[i];
    if (difference == 0)
      return grpc::Status::OK;
  }
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                      "missing or wrong coordinator token");
}

/// What a retry may cure, in words; empty if it will not.
static std::string retryableState(const StoreError &error) {
  if (error.isFull())
    return "database full";
  if (error.isBusy())
    return "database busy";
  if (error.isUnwritable())
    return "database not writable";
  return "";
}

grpc::Status CoordinatorService::storeFailure(llvm::Error error,
                                              bool callerRetries) {
  std::string state;
  std::string text = llvm::toString(llvm::handleErrors(
      std::move(error), [&](std::unique_ptr<StoreError> failure) {
        if (callerRetries)
          state = retryableState(*failure);
        return llvm::Error(std::move(failure));
      }));
  std::string message =
      state.empty()
          ? llvm::formatv("{0}: {1}", queue.databasePath(), text).str()
          : llvm::formatv("{0} ({1}): retrying", state, queue.databasePath())
                .str();
  {
    std::lock_guard<std::mutex> lock(logMutex);
    auto now = std::chrono::steady_clock::now();
    if (now - lastLogged >= std::chrono::seconds(5)) {
      lastLogged = now;
      llvm::errs() << "dispatchlab coordinator: " << message << "\n";
      llvm::errs().flush();
    }
    if (!state.empty())
      storeProblem = message;
  }
  return grpc::Status(
      state.empty() ? grpc::StatusCode::INTERNAL : kStoreRetryCode, message);
}

void CoordinatorService::storeWorked() {
  std::lock_guard<std::mutex> lock(logMutex);
  storeProblem.clear();
}

std::string CoordinatorService::currentStoreProblem() {
  std::lock_guard<std::mutex> lock(logMutex);
  return storeProblem;
}

grpc::Status
CoordinatorService::SubmitSweep(grpc::ServerContext *context,
                                const coordinator::SubmitSweepRequest *request,
                                coordinator::SubmitSweepReply *reply) {
  if (grpc::Status status = authorize(context); !status.ok())
    return status;
  // Clients validate with file locations; this guards the service itself.
  std::vector<SpecIssue> issues = validateSweepSpec(request->spec());
  if (!issues.empty())
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        issues.front().fieldPath() + ": " +
                            issues.front().message);
  std::vector<ModelContent> models;
  for (const coordinator::Model &model : request->models())
    models.push_back({model.name(), model.extension(), model.content()});
  llvm::Expected<std::vector<ExpandedJob>> jobs =
      expandSweep(request->spec(), models, keyContext);
  if (!jobs)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        llvm::toString(jobs.takeError()));
  std::string specText;
  google::protobuf::TextFormat::PrintToString(request->spec(), &specText);
  llvm::Expected<SubmitResult> result =
      queue.submit(request->spec().name(), specText, models, *jobs,
                   request->force(), unixNow());
  // The client does not retry a submission: no "retrying" to promise.
  if (!result)
    return storeFailure(result.takeError(), /*callerRetries=*/false);
  if (result->nameTakenBy)
    return grpc::Status(
        grpc::StatusCode::ALREADY_EXISTS,
        llvm::formatv("sweep name '{0}' is taken in {1} by sweep #{2}, "
                      "submitted from another spec: rename this sweep, "
                      "remove #{2} (dispatchlab sweeps rm {2}) or pass "
                      "--force to add a sweep of the same name",
                      request->spec().name(), queue.databasePath(),
                      result->nameTakenBy)
            .str());
  reply->set_sweep_id(result->sweepId);
  reply->set_jobs(result->jobs);
  reply->set_cached(result->cached);
  reply->set_resumed(result->resumed);
  reply->set_finished(result->finished);
  for (const ExpandedJob &job : *jobs)
    if (!job.cpuClass.empty())
      reply->set_run_cpu_class(job.cpuClass);
  return grpc::Status::OK;
}

grpc::Status CoordinatorService::RegisterWorker(
    grpc::ServerContext *context,
    const coordinator::RegisterWorkerRequest *request,
    coordinator::RegisterWorkerReply *reply) {
  if (grpc::Status status = authorize(context); !status.ok())
    return status;
  const coordinator::Host &host = request->host();
  if (host.dispatchlab_commit() != keyContext.dispatchlabCommit ||
      host.llvm_version() != keyContext.llvmVersion)
    return grpc::Status(
        grpc::StatusCode::FAILED_PRECONDITION,
        llvm::formatv("worker runs dispatchlab {0} on LLVM {1}, the "
                      "coordinator keys results for {2} on LLVM {3}",
                      host.dispatchlab_commit(), host.llvm_version(),
                      keyContext.dispatchlabCommit, keyContext.llvmVersion));
  WorkerRecord record{host.hostname(),           host.cpu(),
                      host.features(),           host.llvm_version(),
                      host.dispatchlab_commit(), host.cores(),
                      request->slots()};
  llvm::Expected<int64_t> workerId = queue.addWorker(record, unixNow());
  if (!workerId)
    return storeFailure(workerId.takeError());
  reply->set_worker_id(*workerId);
  reply->set_heartbeat_seconds(queue.getPolicy().leaseSeconds / 4);
  return grpc::Status::OK;
}

/// The message of a leased job and its model (absent if the store lost it).
static void fillJob(const LeasedJob &leased,
                    const std::optional<StoredModel> &model,
                    coordinator::Job &job) {
  job.set_job_id(leased.jobId);
  job.set_lease_id(leased.leaseId);
  job.set_kind(static_cast<sweep::JobKind>(leased.kind));
  job.set_model_hash(leased.modelHash);
  if (model) {
    job.mutable_model()->set_name(model->name);
    job.mutable_model()->set_extension(model->extension);
    job.mutable_model()->set_content(model->content);
  }
  job.set_preset(leased.preset);
  job.set_options(leased.options);
  job.mutable_measurement()->ParseFromString(leased.measurement);
}

grpc::Status
CoordinatorService::LeaseJob(grpc::ServerContext *context,
                             const coordinator::LeaseJobRequest *request,
                             coordinator::LeaseJobReply *reply) {
  if (grpc::Status status = authorize(context); !status.ok())
    return status;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(request->wait_ms());
  while (true) {
    uint64_t seen = queue.version();
    llvm::Expected<std::optional<LeasedJob>> leased =
        queue.lease(request->worker_id(), unixNow());
    if (!leased)
      return storeFailure(leased.takeError());
    if (*leased) {
      llvm::Expected<std::optional<StoredModel>> model =
          queue.model((*leased)->modelHash);
      if (!model)
        return storeFailure(model.takeError());
      fillJob(**leased, *model, *reply->mutable_job());
      return grpc::Status::OK;
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline || context->IsCancelled() || queue.isShutDown())
      return grpc::Status::OK;
    // Wake on new work, and at least every 200 ms for backoffs and
    // expiring leases, which change nothing until their time comes.
    queue.waitForChange(
        seen, std::min(std::chrono::duration_cast<std::chrono::milliseconds>(
                           deadline - now),
                       std::chrono::milliseconds(200)));
  }
}

grpc::Status
CoordinatorService::Heartbeat(grpc::ServerContext *context,
                              const coordinator::HeartbeatRequest *request,
                              coordinator::HeartbeatReply *reply) {
  if (grpc::Status status = authorize(context); !status.ok())
    return status;
  llvm::Expected<bool> valid = queue.heartbeat(
      request->job_id(), request->lease_id(), request->worker_id(), unixNow());
  if (!valid)
    return storeFailure(valid.takeError());
  reply->set_lease_valid(*valid);
  return grpc::Status::OK;
}

grpc::Status CoordinatorService::ReportResult(
    grpc::ServerContext *context,
    const coordinator::ReportResultRequest *request,
    coordinator::ReportResultReply *reply) {
  if (grpc::Status status = authorize(context); !status.ok())
    return status;
  JobReport report;
  switch (request->outcome()) {
  case coordinator::SUCCEEDED:
    report.outcome = JobOutcome::Succeeded;
    break;
  case coordinator::FAILED:
    report.outcome = JobOutcome::Failed;
    break;
  case coordinator::INFRASTRUCTURE_ERROR:
    report.outcome = JobOutcome::InfrastructureError;
    break;
  default:
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "report without an outcome");
  }
  report.statsJson = request->stats_json();
  report.provenanceJson = request->provenance_json();
  report.error = request->error();
  report.exitCode = request->exit_code();
  report.signal = request->signal();
  report.stderrTail = request->stderr_tail();
  report.wallSeconds = request->wall_seconds();
  llvm::Expected<bool> accepted =
      queue.report(request->job_id(), request->lease_id(), request->worker_id(),
                   report, unixNow());
  if (!accepted)
    return storeFailure(accepted.takeError());
  reply->set_accepted(*accepted);
  // A heartbeat may update in place on a full disk; a stored result is the
  // write that says the database takes results again.
  storeWorked();
  return grpc::Status::OK;
}

/// One progress message of sweep `sweepId`; its job rows once it finished.
static llvm::Expected<coordinator::SweepProgress>
progressMessage(JobQueue &queue, int64_t sweepId, const std::string &name,
                const SweepCounts &counts, const std::string &storeProblem) {
  coordinator::SweepProgress progress;
  progress.set_name(name);
  progress.set_total(counts.total);
  progress.set_done(counts.done);
  progress.set_failed(counts.failed);
  progress.set_cached(counts.cached);
  progress.set_running(counts.running);
  progress.set_pending(counts.pending);
  progress.set_finished(counts.finished());
  progress.set_store_problem(storeProblem);
  if (!counts.finished())
    return progress;
  llvm::Expected<std::vector<JobRowView>> rows = queue.rows(sweepId);
  if (!rows)
    return rows.takeError();
  for (const JobRowView &row : *rows) {
    coordinator::JobRow &out = *progress.add_rows();
    out.set_model(row.model);
    out.set_variant(row.variant);
    out.set_state(row.state);
    out.set_stats_json(row.statsJson);
    out.set_error(row.error);
  }
  return progress;
}

grpc::Status CoordinatorService::WatchSweep(
    grpc::ServerContext *context, const coordinator::WatchSweepRequest *request,
    grpc::ServerWriter<coordinator::SweepProgress> *writer) {
  if (grpc::Status status = authorize(context); !status.ok())
    return status;
  llvm::Expected<std::string> name = queue.sweepName(request->sweep_id());
  if (!name)
    return storeFailure(name.takeError());
  if (name->empty())
    return grpc::Status(grpc::StatusCode::NOT_FOUND,
                        llvm::formatv("no sweep {0}", request->sweep_id()));
  std::optional<SweepCounts> last;
  std::string lastProblem;
  while (!context->IsCancelled()) {
    uint64_t seen = queue.version();
    llvm::Expected<SweepCounts> counts = queue.counts(request->sweep_id());
    if (!counts)
      return storeFailure(counts.takeError());
    std::string problem = currentStoreProblem();
    if (!last || !(*last == *counts) || problem != lastProblem ||
        counts->finished()) {
      llvm::Expected<coordinator::SweepProgress> progress =
          progressMessage(queue, request->sweep_id(), *name, *counts, problem);
      if (!progress)
        return storeFailure(progress.takeError());
      if (!writer->Write(*progress) || counts->finished())
        return grpc::Status::OK;
      last = *counts;
      lastProblem = problem;
      // At most ten updates a second, however fast jobs finish.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (queue.isShutDown())
      return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "coordinator shutting down");
    // Expiring leases change state with no event; look at least each
    // second (a database that is full again changes nothing either).
    queue.waitForChange(seen, std::chrono::milliseconds(1000));
  }
  return grpc::Status::CANCELLED;
}

} // namespace dispatchlab

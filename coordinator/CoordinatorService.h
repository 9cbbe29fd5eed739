//===- CoordinatorService.h - the Coordinator gRPC service ------*- C++ -*-===//
//
// gRPC glue over JobQueue: checks the shared token, converts messages and
// waits (long-poll leases, progress streams). The rules live in JobQueue and
// SweepExpander.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_COORDINATORSERVICE_H
#define DISPATCHLAB_COORDINATOR_COORDINATORSERVICE_H

#include "coordinator/JobQueue.h"
#include "coordinator/SweepExpander.h"
#include "proto/coordinator.grpc.pb.h"

#include <chrono>
#include <mutex>
#include <string>

namespace dispatchlab {

class CoordinatorService final : public coordinator::Coordinator::Service {
public:
  /// `token` empty: no authentication. Workers must match `context`'s
  /// dispatchlab commit and LLVM version, since results are keyed by them.
  CoordinatorService(JobQueue &queue, KeyContext context, std::string token);

  grpc::Status SubmitSweep(grpc::ServerContext *context,
                           const coordinator::SubmitSweepRequest *request,
                           coordinator::SubmitSweepReply *reply) override;
  grpc::Status RegisterWorker(grpc::ServerContext *context,
                              const coordinator::RegisterWorkerRequest *request,
                              coordinator::RegisterWorkerReply *reply) override;
  grpc::Status LeaseJob(grpc::ServerContext *context,
                        const coordinator::LeaseJobRequest *request,
                        coordinator::LeaseJobReply *reply) override;
  grpc::Status Heartbeat(grpc::ServerContext *context,
                         const coordinator::HeartbeatRequest *request,
                         coordinator::HeartbeatReply *reply) override;
  grpc::Status ReportResult(grpc::ServerContext *context,
                            const coordinator::ReportResultRequest *request,
                            coordinator::ReportResultReply *reply) override;
  grpc::Status
  WatchSweep(grpc::ServerContext *context,
             const coordinator::WatchSweepRequest *request,
             grpc::ServerWriter<coordinator::SweepProgress> *writer) override;

private:
  grpc::Status authorize(grpc::ServerContext *context) const;
  /// The status a database failure becomes, logged on stderr (at most every
  /// few seconds) naming the file: for a caller that retries, a full, busy or
  /// unwritable database is kStoreRetryCode, which workers retry with their
  /// result in hand, and sweep clients are told of it.
  grpc::Status storeFailure(llvm::Error error, bool callerRetries = true);
  /// A result was stored: the database takes writes again.
  void storeWorked();
  /// Why results cannot be stored now ("database full (DB): retrying"), or
  /// empty.
  std::string currentStoreProblem();

  JobQueue &queue;
  KeyContext keyContext;
  std::string token;
  std::mutex logMutex;
  std::chrono::steady_clock::time_point lastLogged;
  std::string storeProblem;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_COORDINATORSERVICE_H

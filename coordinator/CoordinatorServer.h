//===- CoordinatorServer.h - a running coordinator --------------*- C++ -*-===//
//
// Opens the result database and serves the Coordinator service on an
// address, with optional TLS; used by `dispatchlab coordinator`, by embedded
// sweeps and by the benchmark.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_COORDINATORSERVER_H
#define DISPATCHLAB_COORDINATOR_COORDINATORSERVER_H

#include "coordinator/CoordinatorService.h"
#include "coordinator/DatabaseLock.h"
#include "coordinator/JobQueue.h"
#include "results/ResultStore.h"

#include "llvm/Support/Error.h"

#include <grpcpp/server.h>

#include <memory>
#include <string>

namespace dispatchlab {

struct ServerConfig {
  /// HOST:PORT; port 0 picks a free one.
  std::string listen = "127.0.0.1:0";
  std::string dbPath;
  /// Empty: no token required.
  std::string token;
  /// PEM files; both set: TLS.
  std::string tlsCertPath, tlsKeyPath;
  QueuePolicy policy;
};

class CoordinatorServer {
public:
  /// Serving until shutdown(); fails (with a StoreError for the database)
  /// when the database is held by another coordinator, cannot be opened, is
  /// damaged or read-only, or the address cannot be bound.
  static llvm::Expected<std::unique_ptr<CoordinatorServer>>
  start(const ServerConfig &config);
  ~CoordinatorServer();

  /// The bound port (the chosen one when asked for 0).
  int port() const { return boundPort; }
  /// HOST:PORT clients connect to.
  std::string address() const;
  JobQueue &getQueue() { return *queue; }

  /// Stops serving: streams and long polls end, in-flight calls finish.
  void shutdown();
  /// Blocks until shutdown() (from another thread).
  void wait();

private:
  CoordinatorServer() = default;
  llvm::Error open(const ServerConfig &config);
  /// Serves the service on the configured address.
  llvm::Error listen(const ServerConfig &config);

  std::string host;
  int boundPort = 0;
  /// Declared before the store: released only after it is closed.
  std::unique_ptr<DatabaseLock> lock;
  std::unique_ptr<ResultStore> store;
  std::unique_ptr<JobQueue> queue;
  std::unique_ptr<CoordinatorService> service;
  std::unique_ptr<grpc::Server> server;
};

/// A whole file's content without its trailing newline (token files).
llvm::Expected<std::string> readSecretFile(const std::string &path);

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_COORDINATORSERVER_H

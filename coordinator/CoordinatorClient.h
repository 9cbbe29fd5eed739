//===- CoordinatorClient.h - connecting to a coordinator --------*- C++ -*-===//

#ifndef DISPATCHLAB_COORDINATOR_COORDINATORCLIENT_H
#define DISPATCHLAB_COORDINATOR_COORDINATORCLIENT_H

#include "proto/coordinator.grpc.pb.h"

#include "llvm/Support/Error.h"

#include <grpcpp/client_context.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace dispatchlab {

struct ClientConfig {
  /// HOST:PORT.
  std::string address;
  /// Sent as "authorization: Bearer TOKEN" when not empty.
  std::string token;
  /// The PEM root certificate's text; set (even empty): TLS.
  std::optional<std::string> tlsCaPem;
};

/// The configuration for `address` with the token of `tokenFile` (see
/// resolveToken) and, unless `tlsCaPath` is empty, its certificate.
llvm::Expected<ClientConfig> loadClientConfig(const std::string &address,
                                              const std::string &tokenFile,
                                              const std::string &tlsCaPath);

/// A stub and the per-call context setup every caller of the coordinator
/// shares (token, deadline).
class CoordinatorClient {
public:
  explicit CoordinatorClient(const ClientConfig &config);

  coordinator::Coordinator::Stub &stub() { return *stubPtr; }
  /// HOST:PORT, for messages.
  const std::string &address() const { return addressText; }

  /// A context carrying the token, with a deadline unless none is given.
  std::unique_ptr<grpc::ClientContext>
  context(std::optional<std::chrono::milliseconds> timeout) const;

private:
  std::string addressText;
  std::string token;
  std::unique_ptr<coordinator::Coordinator::Stub> stubPtr;
};

/// Silences gRPC's own log lines unless GRPC_VERBOSITY is set: failures
/// reach callers as statuses, which dispatchlab reports in one line.
void quietGrpcLogging();

/// The token of `tokenFile` if given, else $DISPATCHLAB_TOKEN, else empty.
llvm::Expected<std::string> resolveToken(const std::string &tokenFile);

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_COORDINATORCLIENT_H

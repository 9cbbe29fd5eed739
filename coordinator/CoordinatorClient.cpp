//===- CoordinatorClient.cpp - connecting to a coordinator ----------------===//

#include "coordinator/CoordinatorClient.h"

#include "coordinator/CoordinatorServer.h"

#include <grpc/support/log.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <cstdlib>

namespace dispatchlab {

void quietGrpcLogging() {
  // Its lines (a failed TLS handshake, ...) repeat the status in gRPC's
  // format; GRPC_VERBOSITY, when set, still turns them on for debugging.
  if (!std::getenv("GRPC_VERBOSITY"))
    gpr_set_log_function([](gpr_log_func_args *) {});
}

CoordinatorClient::CoordinatorClient(const ClientConfig &config)
    : addressText(config.address), token(config.token) {
  quietGrpcLogging();
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (config.tlsCaPem) {
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = *config.tlsCaPem + "\n";
    credentials = grpc::SslCredentials(options);
  } else {
    credentials = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(256 << 20);
  arguments.SetMaxSendMessageSize(256 << 20);
  // Reconnect quickly after a coordinator restart.
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  stubPtr = coordinator::Coordinator::NewStub(
      grpc::CreateCustomChannel(config.address, credentials, arguments));
}

std::unique_ptr<grpc::ClientContext> CoordinatorClient::context(
    std::optional<std::chrono::milliseconds> timeout) const {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!token.empty())
    context->AddMetadata("authorization", "Bearer " + token);
  if (timeout)
    context->set_deadline(std::chrono::system_clock::now() + *timeout);
  return context;
}

llvm::Expected<std::string> resolveToken(const std::string &tokenFile) {
  if (!tokenFile.empty())
    return readSecretFile(tokenFile);
  const char *fromEnv = std::getenv("DISPATCHLAB_TOKEN");
  return fromEnv ? fromEnv : "";
}

llvm::Expected<ClientConfig> loadClientConfig(const std::string &address,
                                              const std::string &tokenFile,
                                              const std::string &tlsCaPath) {
  ClientConfig config{address, ""};
  llvm::Expected<std::string> token = resolveToken(tokenFile);
  if (!token)
    return token.takeError();
  config.token = std::move(*token);
  if (tlsCaPath.empty())
    return config;
  llvm::Expected<std::string> certificate = readSecretFile(tlsCaPath);
  if (!certificate)
    return certificate.takeError();
  config.tlsCaPem = std::move(*certificate);
  return config;
}

} // namespace dispatchlab

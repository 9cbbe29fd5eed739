//===- CoordinatorServer.cpp - a running coordinator ----------------------===//

#include "coordinator/CoordinatorServer.h"

#include "coordinator/CoordinatorClient.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

namespace dispatchlab {

llvm::Expected<std::string> readSecretFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(llvm::formatv("cannot read '{0}': {1}", path,
                                                 buffer.getError().message())
                                       .str());
  return (*buffer)->getBuffer().rtrim("\r\n").str();
}

llvm::Expected<std::unique_ptr<CoordinatorServer>>
CoordinatorServer::start(const ServerConfig &config) {
  // The destructor shuts down what a failed start left running.
  std::unique_ptr<CoordinatorServer> server(new CoordinatorServer());
  if (llvm::Error error = server->open(config))
    return std::move(error);
  return std::move(server);
}

llvm::Error CoordinatorServer::open(const ServerConfig &config) {
  host = llvm::StringRef(config.listen).rsplit(':').first.str();
  if (config.dbPath != ":memory:") {
    llvm::Expected<std::unique_ptr<DatabaseLock>> acquired =
        DatabaseLock::acquire(config.dbPath);
    if (!acquired)
      return acquired.takeError();
    lock = std::move(*acquired);
  }
  llvm::Expected<std::unique_ptr<ResultStore>> opened =
      ResultStore::open(config.dbPath);
  if (!opened)
    return opened.takeError();
  store = std::move(*opened);
  queue = std::make_unique<JobQueue>(*store, config.policy);
  service = std::make_unique<CoordinatorService>(*queue, KeyContext::current(),
                                                 config.token);
  quietGrpcLogging();
  return listen(config);
}

/// TLS credentials from the PEM files of `config`.
static llvm::Expected<std::shared_ptr<grpc::ServerCredentials>>
tlsCredentials(const ServerConfig &config) {
  llvm::Expected<std::string> key = readSecretFile(config.tlsKeyPath);
  if (!key)
    return key.takeError();
  llvm::Expected<std::string> cert = readSecretFile(config.tlsCertPath);
  if (!cert)
    return cert.takeError();
  // gRPC would only say that it cannot listen.
  if (!llvm::StringRef(*cert).contains("-----BEGIN CERTIFICATE-----"))
    return llvm::createStringError(
        llvm::formatv("'{0}' is not a PEM certificate", config.tlsCertPath)
            .str());
  if (!llvm::StringRef(*key).contains("PRIVATE KEY-----"))
    return llvm::createStringError(
        llvm::formatv("'{0}' is not a PEM private key", config.tlsKeyPath)
            .str());
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key + "\n", *cert + "\n"});
  return grpc::SslServerCredentials(options);
}

llvm::Error CoordinatorServer::listen(const ServerConfig &config) {
  bool tls = !config.tlsCertPath.empty() || !config.tlsKeyPath.empty();
  llvm::Expected<std::shared_ptr<grpc::ServerCredentials>> credentials =
      tls ? tlsCredentials(config) : grpc::InsecureServerCredentials();
  if (!credentials)
    return credentials.takeError();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config.listen, *credentials, &boundPort);
  builder.RegisterService(service.get());
  // Leases carry model bytes; ONNX models exceed gRPC's 4 MB default.
  builder.SetMaxReceiveMessageSize(256 << 20);
  builder.SetMaxSendMessageSize(256 << 20);
  server = builder.BuildAndStart();
  if (!server || boundPort == 0)
    return llvm::createStringError(
        llvm::formatv("cannot listen on '{0}'{1}", config.listen,
                      tls ? " (address in use, or the TLS key does not match "
                            "the certificate)"
                          : "")
            .str());
  return llvm::Error::success();
}

CoordinatorServer::~CoordinatorServer() { shutdown(); }

std::string CoordinatorServer::address() const {
  std::string connectHost = host;
  // A wildcard bind is reachable on loopback.
  if (connectHost.empty() || connectHost == "0.0.0.0" || connectHost == "[::]")
    connectHost = "127.0.0.1";
  return llvm::formatv("{0}:{1}", connectHost, boundPort);
}

void CoordinatorServer::shutdown() {
  if (!server)
    return;
  queue->shutdown();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
}

void CoordinatorServer::wait() { server->Wait(); }

} // namespace dispatchlab

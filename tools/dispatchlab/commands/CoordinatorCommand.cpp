//===- CoordinatorCommand.cpp - `dispatchlab coordinator` -----------------===//
//
// Serves sweeps from a result database until Ctrl-C/SIGTERM. Restarting it
// on the same database resumes every unfinished sweep.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/CoordinatorCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "coordinator/CoordinatorClient.h"
#include "coordinator/CoordinatorServer.h"
#include "core/support/SignalFlag.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getCoordinatorSubcommand() {
  static cl::SubCommand command(
      "coordinator", "Hold sweeps in a result database and lease their jobs "
                     "to workers");
  return command;
}

namespace {
cl::opt<std::string> listen(
    "listen",
    cl::desc("Address to serve on (default 127.0.0.1:7411, loopback only; "
             "port 0 picks a free one)"),
    cl::value_desc("HOST:PORT"), cl::init("127.0.0.1:7411"),
    cl::sub(getCoordinatorSubcommand()));
cl::opt<std::string>
    portFile("port-file", cl::desc("Write the bound port here once listening"),
             cl::value_desc("FILE"), cl::sub(getCoordinatorSubcommand()));
cl::opt<std::string> tokenFile(
    "token-file",
    cl::desc("Require this shared token from workers and clients (default: "
             "$DISPATCHLAB_TOKEN; neither: no token)"),
    cl::value_desc("FILE"), cl::sub(getCoordinatorSubcommand()));
cl::opt<std::string> tlsCert("tls-cert", cl::desc("TLS certificate (PEM)"),
                             cl::value_desc("FILE"),
                             cl::sub(getCoordinatorSubcommand()));
cl::opt<std::string> tlsKey("tls-key", cl::desc("TLS private key (PEM)"),
                            cl::value_desc("FILE"),
                            cl::sub(getCoordinatorSubcommand()));
cl::opt<double> leaseSeconds(
    "lease-seconds",
    cl::desc("A job's lease without heartbeat; a dead worker's job is "
             "re-leased after this (default 30)"),
    cl::init(30), cl::sub(getCoordinatorSubcommand()));
cl::opt<int> maxAttempts(
    "max-attempts",
    cl::desc("Leases per job before infrastructure errors fail it (default 4)"),
    cl::init(4), cl::sub(getCoordinatorSubcommand()));
cl::opt<double> backoffSeconds("backoff-seconds",
                               cl::desc("First retry delay, doubled per "
                                        "retry (default 1)"),
                               cl::init(1),
                               cl::sub(getCoordinatorSubcommand()));
cl::opt<double> backoffCapSeconds("backoff-cap-seconds",
                                  cl::desc("Longest retry delay (default 60)"),
                                  cl::init(60),
                                  cl::sub(getCoordinatorSubcommand()));

bool isLoopback(llvm::StringRef address) {
  llvm::StringRef host = address.rsplit(':').first;
  return host == "127.0.0.1" || host == "localhost" || host == "[::1]" ||
         host.starts_with("127.");
}

llvm::Error writePortFile(const std::string &path, int port) {
  // Written whole, then renamed: a reader never sees half a number.
  std::string temporary = path + ".tmp";
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(temporary, ec);
    if (ec)
      return llvm::createStringError("cannot write " + temporary + ": " +
                                     ec.message());
    os << port << "\n";
  }
  if ((ec = llvm::sys::fs::rename(temporary, path)))
    return llvm::createStringError("cannot write " + path + ": " +
                                   ec.message());
  return llvm::Error::success();
}

/// The server's configuration from the command line.
llvm::Expected<ServerConfig> serverConfig() {
  ServerConfig config;
  config.listen = listen;
  config.dbPath = databasePath;
  llvm::Expected<std::string> token = resolveToken(tokenFile);
  if (!token)
    return token.takeError();
  config.token = std::move(*token);
  config.tlsCertPath = tlsCert;
  config.tlsKeyPath = tlsKey;
  config.policy.leaseSeconds = leaseSeconds;
  config.policy.maxAttempts = maxAttempts;
  config.policy.backoffBaseSeconds = backoffSeconds;
  config.policy.backoffCapSeconds = backoffCapSeconds;
  return config;
}

/// Serves until `stop`.
llvm::Error serve(const std::atomic<bool> &stop) {
  llvm::Expected<ServerConfig> config = serverConfig();
  if (!config)
    return config.takeError();
  if (!isLoopback(listen) && config->token.empty())
    llvm::WithColor::warning(llvm::errs(), "dispatchlab coordinator")
        << "listening on " << listen
        << " without a token: anyone who can reach it can submit jobs\n";
  if (!isLoopback(listen) && tlsCert.empty())
    llvm::WithColor::warning(llvm::errs(), "dispatchlab coordinator")
        << "listening on " << listen
        << " without TLS: the token and models cross the network in clear "
           "text (--tls-cert/--tls-key)\n";
  llvm::StringRef dbDir = llvm::sys::path::parent_path(databasePath);
  if (!dbDir.empty())
    llvm::sys::fs::create_directories(dbDir);

  llvm::Expected<std::unique_ptr<CoordinatorServer>> server =
      CoordinatorServer::start(*config);
  if (!server)
    return server.takeError();
  if (!portFile.empty())
    if (llvm::Error error = writePortFile(portFile, (*server)->port()))
      return error;
  llvm::outs() << llvm::formatv(
      "dispatchlab coordinator: listening on {0} (database {1}{2}{3})\n",
      (*server)->address(), databasePath,
      config->token.empty() ? "" : ", token", tlsCert.empty() ? "" : ", TLS");
  llvm::outs().flush();
  while (!stop)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  llvm::outs() << "dispatchlab coordinator: shutting down\n";
  (*server)->shutdown();
  (*server)->wait();
  return llvm::Error::success();
}
} // namespace

int runCoordinatorCommand() {
  if (tlsCert.empty() != tlsKey.empty()) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab coordinator")
        << "TLS needs both --tls-cert and --tls-key\n";
    return 2;
  }
  if (llvm::Error error = serve(stopOnInterrupt())) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab coordinator")
        << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace dispatchlab

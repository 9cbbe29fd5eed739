//===- CoordinatorReachability.h - how long the coordinator is gone -*- C++
//-*-//
//
// Clients and workers retry a coordinator they cannot reach (it may be
// restarting), but not silently and not forever: this says when it is lost,
// every few seconds while it stays lost and when it is back, and tells the
// caller when to give up.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_COORDINATORREACHABILITY_H
#define DISPATCHLAB_COORDINATOR_COORDINATORREACHABILITY_H

#include <grpcpp/support/status.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace dispatchlab {

/// Whether a failed call means the coordinator is out of reach (rather than
/// answering with an error): unavailable, no answer in time, a broken stream.
bool isUnreachable(const grpc::Status &status);

/// The status code of a call the coordinator answered but could not store
/// yet (its database full, busy or unwritable): the caller retries it. Not
/// UNAVAILABLE, which says the coordinator itself is out of reach.
constexpr grpc::StatusCode kStoreRetryCode = grpc::StatusCode::ABORTED;

/// Whether the coordinator could not store the call's effect yet.
bool isStoreRetry(const grpc::Status &status);

/// The end of a gRPC error message, which names the cause: "connection
/// refused", "socket closed", ...
std::string unreachableReason(const grpc::Status &status);

/// Thread-safe: a worker's slots share one.
class CoordinatorReachability {
public:
  using Say = std::function<void(const std::string &line)>;

  /// `limit` 0: retry forever.
  CoordinatorReachability(std::string address, std::chrono::seconds limit,
                          Say say);

  /// A call got an answer (an error too): the coordinator is there.
  void reached();
  /// A call could not reach it. Says so when due; false once it has been
  /// out of reach for longer than the limit.
  bool failed(const grpc::Status &status);
  /// Out of reach for longer than the limit (a call may still be waiting).
  bool expired() const;
  /// One line for giving up, naming the address, the cause and the limit.
  std::string giveUpMessage() const;

  /// Seconds between the lines saying it is still out of reach.
  static constexpr std::chrono::seconds kRepeat{5};

private:
  using Clock = std::chrono::steady_clock;
  bool expiredLocked(Clock::time_point now) const;
  std::string retryingFor(Clock::time_point now) const;

  std::string address;
  std::chrono::seconds limit;
  Say say;
  mutable std::mutex mutex;
  bool everReached = false;
  std::optional<Clock::time_point> lostSince;
  Clock::time_point lastSaid;
  std::string reason;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_COORDINATORREACHABILITY_H

//===- CoordinatorReachability.cpp - how long the coordinator is gone -----===//

#include "coordinator/CoordinatorReachability.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

namespace dispatchlab {

bool isUnreachable(const grpc::Status &status) {
  return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
         status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
}

bool isStoreRetry(const grpc::Status &status) {
  return status.error_code() == kStoreRetryCode;
}

std::string unreachableReason(const grpc::Status &status) {
  // gRPC nests causes ("failed to connect to all addresses; last error:
  // UNKNOWN: ipv4:127.0.0.1:7411: Failed to connect to remote host:
  // Connection refused"); the innermost is the one a person acts on.
  // error_message() returns a copy: keep it alive while `cause` points in.
  std::string full = status.error_message();
  llvm::StringRef message(full);
  size_t colon = message.rfind(": ");
  llvm::StringRef cause =
      (colon == llvm::StringRef::npos ? message : message.substr(colon + 2))
          .trim();
  if (cause.empty())
    return status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED
               ? "no answer in time"
               : "unavailable";
  std::string text = cause.str();
  text[0] = llvm::toLower(text[0]);
  return text;
}

CoordinatorReachability::CoordinatorReachability(std::string address,
                                                 std::chrono::seconds limit,
                                                 Say say)
    : address(std::move(address)), limit(limit), say(std::move(say)) {}

void CoordinatorReachability::reached() {
  std::lock_guard<std::mutex> lock(mutex);
  if (lostSince) {
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
        Clock::now() - *lostSince);
    say(llvm::formatv("reached the coordinator at {0} again after {1} s",
                      address, seconds.count()));
  }
  everReached = true;
  lostSince.reset();
}

std::string CoordinatorReachability::retryingFor(Clock::time_point now) const {
  if (limit.count() == 0)
    return "retrying until it is back";
  auto left = limit - std::chrono::duration_cast<std::chrono::seconds>(
                          now - *lostSince);
  return llvm::formatv("retrying for up to {0} s{1}",
                       std::max<int64_t>(0, left.count()),
                       left == limit ? "" : " more");
}

bool CoordinatorReachability::failed(const grpc::Status &status) {
  std::lock_guard<std::mutex> lock(mutex);
  auto now = Clock::now();
  reason = unreachableReason(status);
  if (!lostSince) {
    lostSince = lastSaid = now;
    say(llvm::formatv("{0} the coordinator at {1} ({2}): {3}",
                      everReached ? "lost" : "cannot reach", address, reason,
                      retryingFor(now)));
  } else if (now - lastSaid >= kRepeat && !expiredLocked(now)) {
    lastSaid = now;
    auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(now - *lostSince);
    say(llvm::formatv("still no coordinator at {0} after {1} s ({2}): {3}",
                      address, seconds.count(), reason, retryingFor(now)));
  }
  return !expiredLocked(now);
}

bool CoordinatorReachability::expiredLocked(Clock::time_point now) const {
  return lostSince && limit.count() > 0 && now - *lostSince > limit;
}

bool CoordinatorReachability::expired() const {
  std::lock_guard<std::mutex> lock(mutex);
  return expiredLocked(Clock::now());
}

std::string CoordinatorReachability::giveUpMessage() const {
  std::lock_guard<std::mutex> lock(mutex);
  return llvm::formatv("{0} the coordinator at {1} ({2}) and gave up after "
                       "{3} s (--coordinator-timeout)",
                       everReached ? "lost" : "could not reach", address,
                       reason, limit.count());
}

} // namespace dispatchlab

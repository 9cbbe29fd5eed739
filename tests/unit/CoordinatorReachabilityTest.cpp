//===- CoordinatorReachabilityTest.cpp - lost-coordinator messages --------===//

#include "coordinator/CoordinatorReachability.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace dispatchlab;

namespace {

grpc::Status unavailable(const std::string &message) {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, message);
}

// Longer than any small-string buffer, so a reason read from a freed copy of
// the message shows up as garbage.
TEST(UnreachableReason, InnermostCauseOfALongMessage) {
  EXPECT_EQ(unreachableReason(unavailable(
                "failed to connect to all addresses; last error: UNKNOWN: "
                "ipv4:127.0.0.1:7411: Failed to connect to remote host: "
                "Connection refused")),
            "connection refused");
  EXPECT_EQ(unreachableReason(unavailable("recvmsg:Connection reset by peer")),
            "recvmsg:Connection reset by peer");
}

TEST(UnreachableReason, EmptyMessageSaysTheCode) {
  EXPECT_EQ(unreachableReason(unavailable("")), "unavailable");
  EXPECT_EQ(
      unreachableReason(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "")),
      "no answer in time");
}

TEST(CoordinatorReachability, LostOnlyAfterReached) {
  std::vector<std::string> said;
  CoordinatorReachability reach(
      "127.0.0.1:1", std::chrono::seconds(60),
      [&](const std::string &line) { said.push_back(line); });
  EXPECT_TRUE(reach.failed(unavailable("Socket closed")));
  reach.reached();
  EXPECT_TRUE(reach.failed(unavailable("Connection refused")));
  ASSERT_EQ(said.size(), 3u);
  EXPECT_EQ(said[0], "cannot reach the coordinator at 127.0.0.1:1 (socket "
                     "closed): retrying for up to 60 s");
  EXPECT_EQ(said[1].rfind("reached the coordinator at 127.0.0.1:1 again", 0),
            0u);
  EXPECT_EQ(said[2], "lost the coordinator at 127.0.0.1:1 (connection "
                     "refused): retrying for up to 60 s");
  EXPECT_FALSE(reach.expired());
}

TEST(CoordinatorReachability, ExpiresAfterTheLimit) {
  CoordinatorReachability reach("127.0.0.1:1", std::chrono::seconds(0),
                                [](const std::string &) {});
  // 0 is "never give up".
  EXPECT_TRUE(reach.failed(unavailable("Socket closed")));
  EXPECT_FALSE(reach.expired());
}

} // namespace

//===- JobHandlersTest.cpp - what a RUN job stores of `run`'s output ------===//

#include "workers/JobHandlers.h"

#include "proto/ProtoJson.h"
#include "proto/results.pb.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
llvm::Expected<JobStats> parseRun(llvm::StringRef text) {
  const JobHandler *handler = findJobHandler(sweep::RUN);
  EXPECT_NE(handler, nullptr);
  return handler->parseOutput(text);
}

/// A run output as `run --emit=json` prints one.
std::string runOutput() {
  results::RunResult run;
  run.set_model("m.onnx");
  run.mutable_compile()->set_dispatches(5);
  run.mutable_latency()->set_median_ms(2.5);
  run.mutable_reference()->set_string_value("self");
  (*run.mutable_provenance()->mutable_fields())["host_cpu"].set_string_value(
      "znver4");
  results::OutputCheck &check = *run.add_checks();
  check.set_output("y");
  check.set_passed(true);
  return llvm::formatv("{0:2}", llvm::json::Value(protoToJson(run))).str();
}

TEST(JobHandlersTest, RunOutputIsStoredAsCountsWithTheRunBeside) {
  llvm::Expected<JobStats> stored = parseRun(runOutput());
  ASSERT_TRUE(bool(stored)) << llvm::toString(stored.takeError());
  llvm::Expected<results::CompileStats> stats =
      parseProtoJson<results::CompileStats>(stored->json);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->dispatches(), 5);
  EXPECT_FALSE(stats->run().has_compile());
  EXPECT_EQ(stats->run().latency().median_ms(), 2.5);
  EXPECT_EQ(stats->run().reference().string_value(), "self");
  ASSERT_EQ(stats->run().checks_size(), 1);
  // A relative difference that was not finite stays null, not 0.
  EXPECT_FALSE(stats->run().checks(0).has_relative_diff());
  EXPECT_NE(stored->json.find("\"relative_diff\": null"), std::string::npos);
  EXPECT_EQ(stats->provenance().fields().at("host_cpu").string_value(),
            "znver4");
  ASSERT_TRUE(stored->provenanceJson.has_value());
  EXPECT_NE(stored->provenanceJson->find("znver4"), std::string::npos);
}

TEST(JobHandlersTest, RunOutputThatIsNotARunResultIsAnError) {
  for (const char *text :
       {"not json", "[1, 2]", R"({"latency": {"median_ms": "fast"}})",
        R"({"model": "m.onnx"})"}) {
    llvm::Expected<JobStats> stored = parseRun(text);
    EXPECT_FALSE(bool(stored)) << text;
    llvm::consumeError(stored.takeError());
  }
}
} // namespace

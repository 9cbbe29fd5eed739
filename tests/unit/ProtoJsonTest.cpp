//===- ProtoJsonTest.cpp - result records as JSON and back ----------------===//

#include "proto/ProtoJson.h"
#include "proto/results.pb.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <limits>

using namespace dispatchlab;

namespace {
TEST(ProtoJsonTest, KeysAreFieldNamesAndCountsStayNumbers) {
  results::CompileStats stats;
  stats.set_model("m.mlir");
  stats.set_dispatches(3);
  stats.set_transient_bytes(int64_t(1) << 40);
  (*stats.mutable_options())["max-operands"] = "16";
  results::DispatchGroup &group = *stats.add_groups();
  group.set_name("m_dispatch_0");
  group.add_cloned("%zero");
  llvm::json::Object json = protoToJson(stats);
  EXPECT_EQ(json.getInteger("dispatches"), 3);
  EXPECT_EQ(json.getInteger("transient_bytes"), int64_t(1) << 40);
  // Unset optional counts are left out rather than printed as 0.
  EXPECT_EQ(json.get("fills"), nullptr);
  EXPECT_EQ(json.get("run"), nullptr);
  const llvm::json::Object *options = json.getObject("options");
  ASSERT_NE(options, nullptr);
  EXPECT_EQ(options->getString("max-operands"), "16");
  const llvm::json::Object *first = (*json.getArray("groups"))[0].getAsObject();
  ASSERT_NE(first, nullptr);
  // Presence-less scalars and repeated fields are always there.
  EXPECT_EQ(first->getInteger("operands"), 0);
  EXPECT_EQ(first->getArray("members")->size(), 0u);
  EXPECT_EQ(first->getArray("cloned")->size(), 1u);
}

TEST(ProtoJsonTest, ParsesBackIgnoringUnknownKeys) {
  results::CompileStats stats;
  stats.set_dispatches(7);
  stats.mutable_run()->mutable_latency()->add_samples_ms(1.5);
  llvm::json::Object json = protoToJson(stats);
  json["provenance"] = llvm::json::Object{{"host_cpu", "znver3"}};
  llvm::Expected<results::CompileStats> back =
      parseProtoJson<results::CompileStats>(
          llvm::formatv("{0}", llvm::json::Value(std::move(json))).str());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(back->has_dispatches());
  EXPECT_EQ(back->dispatches(), 7);
  EXPECT_FALSE(back->has_fills());
  ASSERT_EQ(back->run().latency().samples_ms_size(), 1);
  EXPECT_EQ(back->run().latency().samples_ms(0), 1.5);
}

TEST(ProtoJsonTest, MalformedStatsAreAnError) {
  for (const char *text : {"", "not json", R"({"dispatches": "many"})"}) {
    llvm::Expected<results::CompileStats> stats =
        parseProtoJson<results::CompileStats>(text);
    EXPECT_FALSE(bool(stats)) << text;
    llvm::consumeError(stats.takeError());
  }
}

TEST(ProtoJsonTest, FieldOptionsPrintNullOrLeaveEmptySectionsOut) {
  results::RunResult run;
  results::OutputCheck &check = *run.add_checks();
  llvm::json::Object json = protoToJson(run);
  // Without --profile-dispatches there is no profile section at all.
  EXPECT_EQ(json.get("dispatch_profile"), nullptr);
  EXPECT_NE(json.getArray("checks"), nullptr);
  const llvm::json::Object *unset = (*json.getArray("checks"))[0].getAsObject();
  ASSERT_NE(unset->get("relative_diff"), nullptr);
  EXPECT_EQ(*unset->get("relative_diff"), llvm::json::Value(nullptr));
  check.set_relative_diff(0.25);
  run.add_dispatch_profile()->set_dispatch("main_dispatch_0");
  json = protoToJson(run);
  EXPECT_EQ(json.getArray("dispatch_profile")->size(), 1u);
  const llvm::json::Object *set = (*json.getArray("checks"))[0].getAsObject();
  EXPECT_EQ(set->getNumber("relative_diff"), 0.25);
}

TEST(ProtoJsonTest, NonFiniteDoublesAreNull) {
  results::Latency latency;
  latency.set_cv(std::numeric_limits<double>::quiet_NaN());
  latency.add_samples_ms(std::numeric_limits<double>::infinity());
  llvm::json::Object json = protoToJson(latency);
  EXPECT_EQ(*json.get("cv"), llvm::json::Value(nullptr));
  EXPECT_EQ((*json.getArray("samples_ms"))[0], llvm::json::Value(nullptr));
}

TEST(ProtoJsonTest, JsonValuesPrintAsTheJsonTheyHoldAndParseBack) {
  results::RunResult run;
  run.mutable_reference()->set_string_value("self");
  auto &fields = *run.mutable_provenance()->mutable_fields();
  fields["host_cpu"].set_string_value("znver4");
  llvm::json::Object json = protoToJson(run);
  EXPECT_EQ(json.getString("reference"), "self");
  EXPECT_EQ(json.getObject("provenance")->getString("host_cpu"), "znver4");
  auto &reference = *run.mutable_reference()->mutable_struct_value();
  (*reference.mutable_fields())["dispatches"].set_number_value(4);
  json = protoToJson(run);
  EXPECT_EQ(json.getObject("reference")->getInteger("dispatches"), 4);
  llvm::Expected<results::RunResult> back = parseProtoJson<results::RunResult>(
      llvm::formatv("{0}", llvm::json::Value(std::move(json))).str());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(
      back->reference().struct_value().fields().at("dispatches").number_value(),
      4);
}
} // namespace

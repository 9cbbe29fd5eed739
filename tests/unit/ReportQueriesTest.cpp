//===- ReportQueriesTest.cpp - pivot tables and their formats -------------===//

#include "results/ReportQueries.h"
#include "results/Formatters.h"
#include "tests/unit/ErrorChecks.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace dispatchlab;

namespace {
/// A database with one sweep: two models x three variants, one failed job.
class ReportTest : public ::testing::Test {
protected:
  void SetUp() override {
    checked(store->transaction([&]() -> llvm::Error {
      checked(store->putModel("ha", "a.mlir", ".mlir", "A"));
      checked(store->putModel("hb", "b.mlir", ".mlir", "B"));
      checked(store->exec(
          "INSERT INTO sweeps(name, spec_hash, spec_text, "
          "submitted_at) VALUES ('old', 'x', '', 0), ('s', 'y', '', 1)"));
      addJob("ha", "a.mlir", "o0", 300, 20);
      addJob("ha", "a.mlir", "o2", 249, 19);
      addJob("ha", "a.mlir", "none", 699, 46);
      addJob("hb", "b.mlir", "o0", 4, 0);
      addJob("hb", "b.mlir", "o2", 2, 0);
      addFailure("hb", "b.mlir", "none",
                 "exit code 1: error: unsupported operator 'Foo'");
      return llvm::Error::success();
    }));
  }

  void addJob(const char *hash, const char *model, const char *variant,
              int dispatches, int transient) {
    std::string key = std::string(hash) + variant;
    int64_t result = checked(store->putResult(
        key,
        llvm::formatv("{{\"dispatches\": {0}, \"transient_bytes\": {1}}",
                      dispatches, transient)
            .str(),
        "{}", checked(store->addWorker({}, 0)), 0.5, 0));
    checked(insertJob(hash, model, variant, "done", key)
                .bind(7, result)
                .bindNull(8)
                .run());
  }

  void addFailure(const char *hash, const char *model, const char *variant,
                  const char *error) {
    checked(
        insertJob(hash, model, variant, "failed", std::string(hash) + variant)
            .bindNull(7)
            .bind(8, llvm::StringRef(error))
            .run());
  }

  Statement &insertJob(const char *hash, const char *model, const char *variant,
                       const char *state, const std::string &key) {
    return checked(
               store->prepare(
                   "INSERT INTO jobs(sweep_id, content_key, model_hash, "
                   "model_name, variant, kind, preset, options, measurement, "
                   "state, result_id, error) VALUES (2, ?1, ?2, ?3, ?4, 1, "
                   "'iree-O0', '', '', ?5, ?7, ?8)"))
        .bind(1, key)
        .bind(2, llvm::StringRef(hash))
        .bind(3, llvm::StringRef(model))
        .bind(4, llvm::StringRef(variant))
        .bind(5, llvm::StringRef(state));
  }

  Pivot pivot(PivotRequest request) {
    std::optional<SweepRef> sweep = checked(findSweep(*store, ""));
    return llvm::cantFail(
        buildPivot(*sweep, checked(loadSweepJobs(*store, sweep->id)), request));
  }

  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
};
} // namespace

TEST_F(ReportTest, FindsSweepsByNameIdOrLatest) {
  EXPECT_EQ(checked(findSweep(*store, ""))->name, "s");
  EXPECT_EQ(checked(findSweep(*store, "1"))->name, "old");
  EXPECT_EQ(checked(findSweep(*store, "s"))->id, 2);
  EXPECT_FALSE(checked(findSweep(*store, "nope")));
  // Digits are an id when one exists, else a sweep's name.
  checked(store->exec(
      "INSERT INTO sweeps(name, spec_hash, spec_text, submitted_at) "
      "VALUES ('2024', 'z', '', 2), ('1', 'w', '', 3)"));
  EXPECT_EQ(checked(findSweep(*store, "2024"))->id, 3);
  EXPECT_EQ(checked(findSweep(*store, "1"))->name, "old");
  EXPECT_FALSE(checked(findSweep(*store, "7")));
}

TEST_F(ReportTest, PivotCellsAndFailureClass) {
  Pivot p = pivot({});
  ASSERT_EQ(p.models, (std::vector<std::string>{"a.mlir", "b.mlir"}));
  ASSERT_EQ(p.variants, (std::vector<std::string>{"o0", "o2", "none"}));
  EXPECT_EQ(p.cells[0][1].value, 249);
  EXPECT_EQ(p.cells[1][2].kind, PivotCell::Kind::Failed);
  EXPECT_EQ(p.cells[1][2].note, "failed: unsupported operator 'Foo'");
  // sqrt(300 * 4)
  EXPECT_NEAR(*p.summaries[0].geomean, 34.641, 1e-3);
  EXPECT_EQ(p.summaries[2].used, 1);
}

TEST_F(ReportTest, BaselineRatiosAndDifferences) {
  PivotRequest request;
  request.baseline = "o0";
  Pivot p = pivot(request);
  EXPECT_NEAR(*p.cells[0][1].ratio, 249.0 / 300, 1e-9);
  EXPECT_EQ(*p.cells[0][1].difference, -51);
  EXPECT_TRUE(p.cells[0][0].isBaseline);
  // geomean of 249/300 and 2/4
  EXPECT_NEAR(*p.summaries[1].geomean, std::sqrt(249.0 / 300 * 0.5), 1e-9);
  EXPECT_EQ(formatPivotCell(p.cells[0][1], *Metric::find("dispatches"), true),
            "0.83x (-51)");
  EXPECT_EQ(formatPivotCell(p.cells[0][2], *Metric::find("dispatches"), true),
            "2.33x (+399)");
}

TEST_F(ReportTest, ZeroBaselineHasNoRatio) {
  PivotRequest request;
  request.metric = Metric::find("transient_bytes");
  request.baseline = "o0";
  Pivot p = pivot(request);
  // 0 -> 0 is no change; the geomean leaves no model out for it.
  EXPECT_EQ(*p.cells[1][1].ratio, 1.0);
  EXPECT_EQ(
      formatPivotCell(p.cells[1][1], *Metric::find("transient_bytes"), true),
      "1.00x (+0)");
}

TEST_F(ReportTest, UnknownBaselineIsAnError) {
  PivotRequest request;
  request.baseline = "o3";
  llvm::Expected<Pivot> p = buildPivot(
      *checked(findSweep(*store, "")),
      checked(loadSweepJobs(*store, checked(findSweep(*store, ""))->id)),
      request);
  ASSERT_FALSE(bool(p));
  EXPECT_EQ(llvm::toString(p.takeError()),
            "no variant 'o3' in sweep 's' (variants: o0, o2, none)");
}

TEST_F(ReportTest, LatencyOfCompileJobsIsNamed) {
  PivotRequest request;
  request.metric = Metric::find("latency");
  Pivot p = pivot(request);
  EXPECT_EQ(p.cells[0][0].kind, PivotCell::Kind::Failed);
  EXPECT_EQ(p.cells[0][0].note, "no latency (not a run job)");
}

TEST_F(ReportTest, FailureClasses) {
  EXPECT_EQ(classifyFailure("timed out after 120 s (killed)"), "timeout");
  EXPECT_EQ(classifyFailure("killed by signal 11 (Segmentation fault)"),
            "crash (Segmentation fault)");
  EXPECT_EQ(classifyFailure("exit code 3"), "failed: exit code 3");
}

TEST_F(ReportTest, FailuresCountedByKind) {
  EXPECT_EQ(failureKind("memory limit 680 MB exceeded (killed by signal 6 "
                        "(Aborted))"),
            "memory limit");
  EXPECT_EQ(failureKind("exit code 1: error: expected non-function type"),
            "error");
  EXPECT_EQ(countFailureKinds({}), "");
  EXPECT_EQ(countFailureKinds({"timed out after 10.00 s (killed)",
                               "killed by signal 11 (Segmentation fault)",
                               "exit code 1: error: x",
                               "killed by signal 6 (Aborted)"}),
            "1 timeout, 2 crash, 1 error");
}

TEST_F(ReportTest, Formats) {
  PivotRequest request;
  request.baseline = "o0";
  Pivot p = pivot(request);
  std::string csv, md, json, html, transposed;
  llvm::raw_string_ostream csvOs(csv), mdOs(md), jsonOs(json), htmlOs(html);
  printPivot(p, OutputFormat::Csv, csvOs);
  // Typed: one row per cell, numbers unformatted, ratios always doubles.
  EXPECT_EQ(csv, "model,variant,state,failure,dispatches,ratio,difference\n"
                 "a.mlir,o0,done,,300,1.0,0\n"
                 "a.mlir,o2,done,,249,0.83,-51\n"
                 "a.mlir,none,done,,699,2.33,399\n"
                 "b.mlir,o0,done,,4,1.0,0\n"
                 "b.mlir,o2,done,,2,0.5,-2\n"
                 "b.mlir,none,failed,failed: unsupported operator 'Foo',,,\n");
  printPivot(p, OutputFormat::Markdown, mdOs);
  EXPECT_NE(md.find("| a.mlir | 300 | 0.83x (-51) | 2.33x (+399) |"),
            std::string::npos);
  printPivot(p, OutputFormat::Json, jsonOs);
  EXPECT_NE(json.find("\"failure\": \"failed: unsupported operator 'Foo'\""),
            std::string::npos);
  printPivot(p, OutputFormat::Html, htmlOs);
  EXPECT_NE(html.find("<table class=\"sortable\">"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);

  request.rows = Dimension::Variant;
  TextGrid grid = pivotGrid(pivot(request));
  EXPECT_EQ(grid.header, (std::vector<std::string>{"variant", "a.mlir",
                                                   "b.mlir", "geomean"}));
  EXPECT_EQ(grid.rows[1][3], "0.64x");
}

TEST(MetricTest, ClonedCountsProducersOverGroups) {
  JobRecord job;
  job.resultId = 1;
  job.statsJson = R"({"dispatches": 3,
                       "groups": [{"cloned": ["%a", "%b"]}, {"cloned": []},
                                  {"cloned": ["%c"]}]})";
  const Metric *cloned = Metric::find("cloned");
  ASSERT_NE(cloned, nullptr);
  EXPECT_EQ(cloned->valueOf(job), 3.0);
  EXPECT_TRUE(cloned->isCount);
  job.statsJson = R"({"dispatches": 0, "groups": []})";
  EXPECT_EQ(cloned->valueOf(job), 0.0);
  job.statsJson = R"({"model": "m"})";
  EXPECT_EQ(cloned->valueOf(job), std::nullopt);
  job.resultId.reset();
  EXPECT_EQ(Metric::byDefault().valueOf(job), std::nullopt);
}

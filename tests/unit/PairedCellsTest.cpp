//===- PairedCellsTest.cpp - COMPARE results as pivot cells ---------------===//

#include "results/PairedCells.h"
#include "results/Formatters.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// A COMPARE job's record: baseline "a", "b" 3% slower and judged so by
/// the 1% minimum effect alone, "c" identical to "b"; `floor` adds the
/// comparison's own A/A interval.
JobRecord comparisonJob(bool floor) {
  std::string noiseFloor =
      floor ? R"({"rounds": 30, "median": 1.0, "ci_low": 0.99,
                  "ci_high": 1.01})"
            : "null";
  JobRecord job{"m.mlir", "compare: a | b | c", "done", "",
                R"({"comparison": {"method": "paired rounds",
    "min_effect_percent": 1, "rounds": 30, "stopped_by": "target",
    "noise_floor": )" +
                    noiseFloor +
                    R"(, "variants": [
      {"name": "a", "verdict": "baseline", "median_ms": 2,
       "samples_seconds": [0.002, 0.002], "ratio": null},
      {"name": "b", "verdict": "slower", "median_ms": 2.06,
       "samples_seconds": [0.00206, 0.00206], "dispatches": 3,
       "ratio": {"rounds": 30, "median": 1.03, "ci_low": 1.02,
                 "ci_high": 1.04, "p_value": 0.001}},
      {"name": "c", "verdict": "identical", "identical_to": "b",
       "samples_seconds": [], "ratio": null}]}})"};
  job.resultId = 7;
  return job;
}

const Metric &latency() { return *Metric::find("latency"); }
} // namespace

TEST(PairedCellsTest, EveryComparedVariantIsAPairedCell) {
  JobRecord job = comparisonJob(false);
  std::optional<results::Comparison> comparison = comparisonOf(job);
  ASSERT_TRUE(comparison);
  auto cells = pairedCells(job, *comparison, latency());
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].first, "a");
  ASSERT_TRUE(cells[1].second.paired);
  EXPECT_EQ(cells[1].second.paired->baseline, "a");
  EXPECT_EQ(cells[1].second.paired->verdict, "slower");
  EXPECT_EQ(cells[1].second.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(cells[1].second.samples[0], 2.06);
  // Untimed: the latency of the variant it is identical to.
  EXPECT_EQ(cells[2].second.paired->identicalTo, "b");
  EXPECT_DOUBLE_EQ(cells[2].second.value, 2.06);
  // Other metrics read the variant's own counts.
  auto counts = pairedCells(job, *comparison, Metric::byDefault());
  EXPECT_EQ(counts[1].second.kind, PivotCell::Kind::Value);
  EXPECT_EQ(counts[1].second.value, 3);
}

TEST(PairedCellsTest, AStoredNoiseFloorJudgesAComparisonWithoutItsOwn) {
  // The host's floor reaches 5%: a 3% difference is within it.
  JobRecord job = comparisonJob(false);
  job.noiseFloor = NoiseFloor{3, "box", "znver4", 30, 1.0, 0.95, 1.05};
  auto cells = pairedCells(job, *comparisonOf(job), latency());
  EXPECT_EQ(cells[1].second.paired->verdict, "within noise");
  // A comparison with its own A/A keeps the verdict it was judged with.
  JobRecord own = comparisonJob(true);
  own.noiseFloor = NoiseFloor{7, "box", "znver4", 30, 1.0, 0.99, 1.01};
  cells = pairedCells(own, *comparisonOf(own), latency());
  EXPECT_EQ(cells[1].second.paired->verdict, "slower");
}

TEST(PairedCellsTest, ThePivotShowsTheMethodPerCell) {
  JobRecord run{"m.mlir", "r", "done", "",
                R"({"run": {"latency": {"median_ms": 2,
                    "samples_ms": [2, 2]}}})"};
  run.resultId = 8;
  PivotRequest request;
  request.metric = &latency();
  llvm::Expected<Pivot> pivot =
      buildPivot({1, "s"}, {comparisonJob(false), run}, request);
  ASSERT_TRUE(static_cast<bool>(pivot)) << llvm::toString(pivot.takeError());
  EXPECT_EQ(pivot->variants, (std::vector<std::string>{"a", "b", "c", "r"}));
  const std::vector<PivotCell> &row = pivot->cells[0];
  EXPECT_TRUE(row[0].isBaseline);
  ASSERT_TRUE(row[1].ratio);
  EXPECT_DOUBLE_EQ(*row[1].ratio, 1.03);
  EXPECT_EQ(formatPivotCell(row[0], latency(), false),
            "2.00 ms (paired baseline)");
  EXPECT_EQ(formatPivotCell(row[1], latency(), false),
            "1.03x [1.02, 1.04] p=0.001 slower (paired)");
  EXPECT_EQ(formatPivotCell(row[2], latency(), false),
            "identical to b (paired)");
  EXPECT_FALSE(row[3].paired);
  EXPECT_EQ(formatPivotCell(row[3], latency(), false), "2.00 ms");
  ASSERT_FALSE(pivot->notes.empty());
  EXPECT_NE(pivot->notes.back().find("none measured (measurement.aa)"),
            std::string::npos)
      << pivot->notes.back();
}

TEST(PairedCellsTest, AnotherBaselineLeavesPairedCellsAgainstTheirOwn) {
  PivotRequest request;
  request.metric = &latency();
  request.baseline = "b";
  llvm::Expected<Pivot> pivot =
      buildPivot({1, "s"}, {comparisonJob(false)}, request);
  ASSERT_TRUE(static_cast<bool>(pivot)) << llvm::toString(pivot.takeError());
  EXPECT_DOUBLE_EQ(*pivot->cells[0][1].ratio, 1.03);
  EXPECT_EQ(pivot->notes.back(), "paired cells stay relative to a, not "
                                 "--baseline b: only it was timed in the "
                                 "same rounds");
}

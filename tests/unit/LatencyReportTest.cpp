//===- LatencyReportTest.cpp - latency pivots against a baseline ----------===//

#include "results/Formatters.h"
#include "results/ReportQueries.h"
#include "tests/unit/ErrorChecks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace dispatchlab;

namespace {
std::vector<double> scaled(const std::vector<double> &values, double factor) {
  std::vector<double> result;
  for (double value : values)
    result.push_back(value * factor);
  return result;
}

/// Run results as workers store them: compile stats with the measurement
/// under "run". Model a: 9 samples per variant, "fast" exactly twice as fast,
/// "same" the baseline's samples again; b: "fast" recorded without raw
/// samples; c: 5 samples, "same" failed.
class LatencyReportTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<double> nine = {10, 11, 12, 13, 14, 10.5, 11.5, 12.5, 13.5};
    std::vector<double> five = {2.0, 2.2, 2.1, 2.4, 2.3};
    checked(store->transaction([&] {
      for (const char *model : {"a.mlir", "b.mlir", "c.mlir"})
        checked(store->putModel(model, model, ".mlir", model));
      checked(store->exec("INSERT INTO sweeps(name, spec_hash, spec_text, "
                          "submitted_at) VALUES ('runs', 'x', '', 0)"));
      addRun("a.mlir", "base", nine, true);
      addRun("a.mlir", "fast", scaled(nine, 0.5), true);
      addRun("a.mlir", "same", nine, true);
      addRun("b.mlir", "base", nine, true);
      addRun("b.mlir", "fast", scaled(nine, 0.5), false);
      addRun("b.mlir", "same", nine, true);
      addRun("c.mlir", "base", five, true);
      addRun("c.mlir", "fast", scaled(five, 0.8), true);
      return insertJob("c.mlir", "same", "failed", "csame")
          .bindNull(7)
          .bind(8, llvm::StringRef("timed out after 60 s"))
          .run();
    }));
  }

  void addRun(const char *model, const char *variant,
              const std::vector<double> &samples, bool keepSamples) {
    std::vector<std::string> texts;
    for (double sample : samples)
      texts.push_back(llvm::formatv("{0}", sample).str());
    std::string latency =
        llvm::formatv("\"median_ms\": {0}", *median(samples)).str();
    if (keepSamples)
      latency += ", \"samples_ms\": [" + llvm::join(texts, ", ") + "]";
    std::string key = std::string(model) + variant;
    int64_t result = checked(store->putResult(
        key, "{\"dispatches\": 3, \"run\": {\"latency\": {" + latency + "}}}",
        "{}", checked(store->addWorker({}, 0)), 0.5, 0));
    checked(insertJob(model, variant, "done", key)
                .bind(7, result)
                .bindNull(8)
                .run());
  }

  Statement &insertJob(const char *model, const char *variant,
                       const char *state, const std::string &key) {
    return checked(
               store->prepare(
                   "INSERT INTO jobs(sweep_id, content_key, model_hash, "
                   "model_name, variant, kind, preset, options, measurement, "
                   "state, result_id, error) VALUES (1, ?1, ?2, ?3, ?4, 2, "
                   "'iree-O0', '', '', ?5, ?7, ?8)"))
        .bind(1, key)
        .bind(2, llvm::StringRef(model))
        .bind(3, llvm::StringRef(model))
        .bind(4, llvm::StringRef(variant))
        .bind(5, llvm::StringRef(state));
  }

  Pivot pivot(std::optional<std::string> baseline) {
    PivotRequest request;
    request.metric = Metric::find("latency");
    request.baseline = baseline;
    std::optional<SweepRef> sweep = checked(findSweep(*store, ""));
    return llvm::cantFail(
        buildPivot(*sweep, checked(loadSweepJobs(*store, sweep->id)), request));
  }

  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
};
} // namespace

TEST_F(LatencyReportTest, MediansWithoutBaseline) {
  Pivot p = pivot(std::nullopt);
  EXPECT_EQ(p.cells[0][0].value, 12);
  EXPECT_EQ(p.cells[0][0].samples.size(), 9u);
  EXPECT_EQ(formatPivotCell(p.cells[0][0], *Metric::find("latency"), false),
            "12.0 ms");
  EXPECT_EQ(formatPivotCell(p.cells[2][0], *Metric::find("latency"), false),
            "2.20 ms");
  EXPECT_TRUE(p.notes.empty());
}

TEST_F(LatencyReportTest, SignificantRatioWithInterval) {
  Pivot p = pivot("base");
  const PivotCell &fast = p.cells[0][1];
  EXPECT_DOUBLE_EQ(*fast.ratio, 0.5);
  ASSERT_TRUE(fast.comparison && fast.comparison->test);
  EXPECT_TRUE(fast.comparison->significant());
  // Every fast sample beats every baseline sample: 2 / C(18, 9).
  EXPECT_NEAR(fast.comparison->test->pValue, 2.0 / 48620, 1e-15);
  ASSERT_TRUE(fast.comparison->interval);
  EXPECT_LT(fast.comparison->interval->low, 0.5);
  EXPECT_GT(fast.comparison->interval->high, 0.5);
  EXPECT_LT(fast.comparison->interval->high, 1.0);
  std::string text = formatPivotCell(fast, *Metric::find("latency"), true);
  EXPECT_TRUE(llvm::StringRef(text).starts_with("0.50x ["));
  EXPECT_TRUE(llvm::StringRef(text).ends_with("] p<0.001"));
}

TEST_F(LatencyReportTest, IdenticalSamplesAreNotSignificant) {
  Pivot p = pivot("base");
  const PivotCell &same = p.cells[0][2];
  EXPECT_DOUBLE_EQ(*same.ratio, 1.0);
  EXPECT_FALSE(same.comparison->significant());
  EXPECT_EQ(formatPivotCell(same, *Metric::find("latency"), true),
            "not significant (p=1.000)");
}

TEST_F(LatencyReportTest, NoSamplesMeansNoTest) {
  Pivot p = pivot("base");
  const PivotCell &unsampled = p.cells[1][1];
  EXPECT_DOUBLE_EQ(*unsampled.ratio, 0.5);
  EXPECT_FALSE(unsampled.comparison);
  EXPECT_EQ(formatPivotCell(unsampled, *Metric::find("latency"), true),
            "0.50x (no samples)");
  ASSERT_EQ(p.notes.size(), 4u);
  EXPECT_NE(p.notes[2].find("as few as 5 samples"), std::string::npos);
  EXPECT_NE(p.notes[3].find("no samples"), std::string::npos);
}

TEST_F(LatencyReportTest, FewSamplesAndFailures) {
  Pivot p = pivot("base");
  // 5 vs 5 without overlap: p = 2/252, just significant.
  const PivotCell &fast = p.cells[2][1];
  EXPECT_NEAR(fast.comparison->test->pValue, 2.0 / 252, 1e-12);
  EXPECT_EQ(formatPivotCell(p.cells[2][2], *Metric::find("latency"), true),
            "timeout");
  // geomean of 0.5, 0.5, 0.8; "same" over the two models that ran.
  EXPECT_NEAR(*p.summaries[1].geomean, std::cbrt(0.5 * 0.5 * 0.8), 1e-12);
  EXPECT_EQ(p.summaries[2].used, 2);
}

TEST_F(LatencyReportTest, GeomeanInterval) {
  Pivot p = pivot("base");
  // The baseline compares with nothing; "fast" uses b, which has no raw
  // samples; "same" uses a and b, the same samples on both sides.
  EXPECT_FALSE(p.summaries[0].interval);
  EXPECT_FALSE(p.summaries[1].interval);
  const Summary &same = p.summaries[2];
  ASSERT_TRUE(same.interval);
  EXPECT_LT(same.interval->low, 1);
  EXPECT_GT(same.interval->high, 1);
  EXPECT_FALSE(same.significant());
  TextGrid grid = pivotGrid(p);
  const std::vector<std::string> &geomean = grid.rows.back();
  EXPECT_EQ(geomean[0], "geomean");
  EXPECT_EQ(geomean[1], "1.00x");
  EXPECT_EQ(geomean[2],
            llvm::formatv("{0:F2}x", *p.summaries[1].geomean).str());
  EXPECT_TRUE(llvm::StringRef(geomean[3]).starts_with("1.00x ["));
  EXPECT_TRUE(
      llvm::StringRef(geomean[3]).ends_with("] not significant (2 of 3)"));
  EXPECT_NE(p.notes[1].find("geomean: 95% percentile-bootstrap interval (2000 "
                            "resamples"),
            std::string::npos);

  std::string json;
  llvm::raw_string_ostream jsonOs(json);
  printPivot(p, OutputFormat::Json, jsonOs);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  ASSERT_TRUE(bool(parsed));
  const llvm::json::Object *summaries =
      parsed->getAsObject()->getObject("geomean");
  const llvm::json::Object *fast = summaries->getObject("fast");
  EXPECT_EQ(fast->get("ci_low")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(fast->get("ci_high")->kind(), llvm::json::Value::Null);
  const llvm::json::Object *sameJson = summaries->getObject("same");
  EXPECT_EQ(sameJson->getNumber("ci_low"), same.interval->low);
  EXPECT_EQ(sameJson->getNumber("ci_high"), same.interval->high);
}

TEST(LatencyGeomean, SignificantAndDegenerateIntervals) {
  auto run = [](const char *model, const char *variant,
                const std::vector<double> &samples, int64_t id) {
    std::vector<std::string> texts;
    for (double sample : samples)
      texts.push_back(llvm::formatv("{0}", sample).str());
    JobRecord job{model, variant, "done", "",
                  llvm::formatv("{{\"run\": {{\"latency\": {{\"median_ms\": "
                                "{0}, \"samples_ms\": [{1}]}}}",
                                *median(samples), llvm::join(texts, ", "))
                      .str()};
    job.resultId = id;
    return job;
  };
  std::vector<double> nine = {10, 11, 12, 13, 14, 10.5, 11.5, 12.5, 13.5};
  std::vector<double> constant = {2, 2, 2, 2}, tripled = {6, 6, 6};
  PivotRequest request;
  request.metric = Metric::find("latency");
  request.baseline = "base";
  Pivot p = llvm::cantFail(buildPivot(
      SweepRef{1, "s"},
      {run("a", "base", nine, 1), run("a", "half", scaled(nine, 0.5), 2),
       run("a", "triple", scaled(nine, 3), 3), run("b", "base", constant, 4),
       run("b", "half", scaled(constant, 0.5), 5),
       run("b", "triple", tripled, 6)},
      request));
  // Both models 0.5x, a with spread: an interval below 1, significant.
  const Summary &half = p.summaries[1];
  ASSERT_TRUE(half.interval);
  EXPECT_TRUE(half.significant());
  EXPECT_LT(half.interval->high, 1);
  std::string text = pivotGrid(p).rows.back()[2];
  EXPECT_TRUE(llvm::StringRef(text).starts_with("0.50x [")) << text;
  EXPECT_EQ(text.find("not significant"), std::string::npos) << text;

  // Constant samples 3x slower: every resample gives exactly 3, and the
  // degenerate interval prints with the usual two digits.
  p = llvm::cantFail(buildPivot(
      SweepRef{1, "s"},
      {run("b", "base", constant, 4), run("b", "triple", tripled, 6)},
      request));
  EXPECT_EQ(pivotGrid(p).rows.back()[2], "3.00x [3.00, 3.00]");
}

TEST_F(LatencyReportTest, FormatsCarryTheTest) {
  Pivot p = pivot("base");
  std::string json, html, text;
  llvm::raw_string_ostream jsonOs(json), htmlOs(html), textOs(text);
  printPivot(p, OutputFormat::Json, jsonOs);
  EXPECT_NE(json.find("\"significant\": true"), std::string::npos);
  EXPECT_NE(json.find("\"ci_low\": "), std::string::npos);
  EXPECT_NE(json.find("\"latency_median_ms\": \"ms\""), std::string::npos);
  EXPECT_NE(json.find("\"notes\": ["), std::string::npos);
  printPivot(p, OutputFormat::Table, textOs);
  EXPECT_NE(text.find("not significant (p=1.000)"), std::string::npos);
  EXPECT_NE(text.find("Mann-Whitney U test, alpha 0.05"), std::string::npos);

  PivotRequest counts;
  Pivot dispatches = llvm::cantFail(
      buildPivot(p.sweep, checked(loadSweepJobs(*store, p.sweep.id)), counts));
  printPivot(p, OutputFormat::Html, htmlOs, &dispatches);
  EXPECT_NE(html.find("<svg class=\"chart speedup\""), std::string::npos);
  EXPECT_NE(html.find("class=\"error-bar\""), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"chart bars\""), std::string::npos);
  // Identical samples: the hover text keeps the numbers the cell leaves out.
  EXPECT_NE(html.find("title=\"ratio of medians 1.0000x; 95% interval "),
            std::string::npos);
  EXPECT_NE(html.find("p=1.00E+00 (normal approximation); 9 vs 9 samples\">"
                      "not significant (p=1.000)</td>"),
            std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
}

TEST(LatencyNotes, MultimodalSamplesAreFlagged) {
  // Both sides mix a ~10 ms and a ~30 ms mode; the baseline's median falls in
  // the low one, the variant's in the high one. The ratio of medians (~3x)
  // says nothing about the distributions, which are nearly the same: the
  // interval stays near 1 and the report warns.
  auto run = [](const char *variant, int low, int high, int64_t id) {
    std::vector<std::string> samples;
    for (int i = 0; i < low; ++i)
      samples.push_back(llvm::formatv("{0}", 10 + 0.01 * i).str());
    for (int i = 0; i < high; ++i)
      samples.push_back(llvm::formatv("{0}", 30 + 0.01 * i).str());
    JobRecord job{"m.mlir", variant, "done", "",
                  "{\"run\": {\"latency\": {\"median_ms\": " +
                      (low > high ? samples[low - 1] : samples[low]) +
                      ", \"samples_ms\": [" + llvm::join(samples, ", ") +
                      "]}}}"};
    job.resultId = id;
    return job;
  };
  PivotRequest request;
  request.metric = Metric::find("latency");
  request.baseline = "base";
  Pivot p = llvm::cantFail(
      buildPivot(SweepRef{1, "s"},
                 {run("base", 11, 10, 1), run("variant", 10, 11, 2)}, request));
  const PivotCell &cell = p.cells[0][1];
  ASSERT_TRUE(cell.comparison && cell.comparison->interval);
  EXPECT_DOUBLE_EQ(*cell.ratio, 30.0 / 10.1);
  EXPECT_LT(cell.comparison->interval->high, 1.5);
  EXPECT_FALSE(cell.comparison->significant());
  ASSERT_EQ(p.notes.size(), 3u);
  EXPECT_EQ(p.notes[2],
            "warning: ratio of medians outside its interval, so the samples "
            "differ by more than a scale factor (noise? measure again on a "
            "quiet machine): m.mlir / variant");
}

TEST(LatencyFormat, NarrowIntervalsGetMoreDigits) {
  // 100 samples within 0.1% of each other, the variant 0.3% slower: at two
  // or three digits the interval would print as [1.00, 1.00].
  std::vector<double> base, variant;
  for (int i = 0; i < 100; ++i) {
    base.push_back(1 + 1e-5 * ((i * 37) % 100));
    variant.push_back(1.003 * base.back());
  }
  LatencyComparison comparison = compareLatency(base, variant);
  ASSERT_TRUE(comparison.significant() && comparison.interval);
  // The interval is 1.003 times the 2.5% and 97.5% points of the pairwise
  // ratios, about 1 -+ 1e-4: four digits tell its ends apart.
  EXPECT_EQ(formatLatencyRatio(1.003, &comparison),
            "1.0030x [1.0029, 1.0031] p<0.001");
  EXPECT_EQ(formatLatencyRatio(0.5, nullptr), "0.50x (no samples)");
}

TEST(LatencyFormat, MedianWithUnitAndCvAsPercentage) {
  results::Latency latency;
  latency.set_median_ms(0.00888);
  latency.set_repetitions(20);
  latency.set_cv(0.021);
  EXPECT_EQ(describeLatency(latency),
            "8.88 us median of 20 repetitions, cv 2.1%");
  EXPECT_EQ(formatDuration(152.4), "152 ms");
  EXPECT_EQ(formatCoefficientOfVariation(0.1944), "19.4%");
}

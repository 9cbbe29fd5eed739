//===- HtmlReportTest.cpp - the HTML report's comparisons and graphs ------===//

#include "results/HtmlReport.h"
#include "results/DispatchGraph.h"
#include "results/GraphvizSvg.h"
#include "results/ReportProvenance.h"
#include "results/VariantComparison.h"

#include "proto/ProtoJson.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// Stats with one group per entry: its name and members (the first is the
/// root).
results::CompileStats
statsOf(std::vector<std::pair<std::string, std::vector<std::string>>> groups) {
  results::CompileStats stats;
  for (auto &[name, members] : groups) {
    results::DispatchGroup &group = *stats.add_groups();
    group.set_name(name);
    group.set_root(members.front());
    for (const std::string &member : members)
      group.add_members(member);
  }
  return stats;
}

// B splits A's first dispatch in two; the third keeps its members though
// its name changes with the numbering.
TEST(VariantComparisonTest, OpsOfSplitDispatchesMoved) {
  results::CompileStats a =
      statsOf({{"f_dispatch_0", {"%mm", "%add"}}, {"f_dispatch_1", {"%relu"}}});
  results::CompileStats b = statsOf({{"f_dispatch_0", {"%mm"}},
                                     {"f_dispatch_1", {"%add"}},
                                     {"f_dispatch_2", {"%relu"}}});
  VariantComparison comparison = compareVariants(a, b);
  EXPECT_FALSE(comparison.same());
  EXPECT_EQ(comparison.changedInA, std::vector<std::string>{"f_dispatch_0"});
  EXPECT_EQ(comparison.changedInB,
            (std::vector<std::string>{"f_dispatch_0", "f_dispatch_1"}));
  ASSERT_EQ(comparison.moved.size(), 2u);
  EXPECT_EQ(comparison.moved[0].op, "%mm");
  EXPECT_EQ(comparison.moved[1].op, "%add");
  EXPECT_EQ(comparison.moved[1].dispatchInA, "f_dispatch_0");
  EXPECT_EQ(comparison.moved[1].dispatchInB, "f_dispatch_1");
}

// An op only one variant has (fused away by elementwise fusion in the
// other) moved to no dispatch.
TEST(VariantComparisonTest, OpMissingFromOneVariant) {
  results::CompileStats a = statsOf({{"f_dispatch_0", {"%mm", "%bias"}}});
  results::CompileStats b = statsOf({{"f_dispatch_0", {"%mm"}}});
  VariantComparison comparison = compareVariants(a, b);
  ASSERT_EQ(comparison.moved.size(), 2u);
  EXPECT_EQ(comparison.moved[1].op, "%bias");
  EXPECT_FALSE(comparison.moved[1].dispatchInB);
  EXPECT_TRUE(compareVariants(a, a).same());
  EXPECT_TRUE(compareVariants(a, a).moved.empty());
}

TEST(DispatchGraphTest, EdgesFromReadsAndReturns) {
  results::CompileStats stats =
      statsOf({{"f_dispatch_0", {"%mm"}}, {"f_dispatch_1", {"%relu"}}});
  stats.mutable_groups(0)->add_reads("%arg0");
  stats.mutable_groups(1)->add_reads("f_dispatch_0");
  stats.mutable_groups(1)->add_reads("%fill");
  stats.mutable_groups(1)->add_returns(0);
  std::string dot = dispatchGraphDot(stats, {"f_dispatch_1"});
  EXPECT_NE(dot.find("d0 [label=\"f_dispatch_0\\n%mm\"]"), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("d1 [label=\"f_dispatch_1\\n%relu\", style=filled"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("s2 [label=\"%arg0\", shape=ellipse];\n  s2 -> d0;"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("  d0 -> d1;"), std::string::npos) << dot;
  EXPECT_NE(dot.find("[label=\"%fill\", shape=plain]"), std::string::npos);
  EXPECT_NE(dot.find("[label=\"result 0\", shape=ellipse]"), std::string::npos);
}

TEST(GraphvizSvgTest, InlineSvgHasNoPrologOrNamespaces) {
  std::string document =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n"
      " \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
      "<svg width=\"62pt\" xmlns=\"http://www.w3.org/2000/svg\" "
      "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n<!-- d0 -->\n"
      "<g id=\"node1\" class=\"node\"/>\n</svg>\n";
  EXPECT_EQ(extractInlineSvg(document),
            std::optional<std::string>(
                "<svg width=\"62pt\">\n<g class=\"node\"/>\n</svg>"));
  EXPECT_FALSE(extractInlineSvg("digraph {}"));
}

// Two commits among the results: both listed; a variant whose options
// differ for one model names it.
TEST(ReportProvenanceTest, DistinctCommitsAndOptions) {
  auto job = [](std::string model, std::string commit, std::string options) {
    JobRecord record;
    record.model = std::move(model);
    record.variant = "o2";
    record.preset = "iree-O2";
    record.options = std::move(options);
    record.provenanceJson =
        "{\"dispatchlab_commit\":\"" + commit + "\",\"host_cpu\":\"znver3\"}";
    return record;
  };
  std::vector<JobRecord> jobs = {job("a.mlir", "abc", "max-operands=16\n"),
                                 job("b.mlir", "def", "max-operands=16\n"),
                                 job("c.mlir", "abc", "max-operands=8\n")};
  ReportProvenance provenance = collectProvenance(jobs);
  EXPECT_EQ(provenance.commits, (std::vector<std::string>{"abc", "def"}));
  EXPECT_EQ(provenance.hostCpus, std::vector<std::string>{"znver3"});
  EXPECT_TRUE(provenance.llvmVersions.empty());
  ASSERT_EQ(provenance.variants.size(), 1u);
  EXPECT_EQ(provenance.variants[0].options, "max-operands=16\n");
  EXPECT_EQ(provenance.variants[0].modelsWithOtherOptions,
            std::vector<std::string>{"c.mlir"});
}
} // namespace

namespace {
/// A done job whose stats have the groups of `stats`.
JobRecord doneJob(std::string model, std::string variant,
                  const results::CompileStats &stats, int64_t id) {
  results::CompileStats record = stats;
  record.set_dispatches(stats.groups_size());
  JobRecord job{
      std::move(model), std::move(variant), "done", "",
      llvm::formatv("{0}", llvm::json::Value(protoToJson(record))).str()};
  job.resultId = id;
  return job;
}

std::string htmlPage(const std::vector<JobRecord> &jobs) {
  PivotRequest request;
  request.baseline = "o0";
  Pivot pivot = llvm::cantFail(buildPivot({1, "s"}, jobs, request));
  std::string page;
  llvm::raw_string_ostream os(page);
  printHtmlReport(pivot, HtmlReportInputs{nullptr, jobs}, os);
  return page;
}
} // namespace

// A result stored before the stats had edges still gets its groups and a
// graph of its dispatches, with a note saying why it has no edges; the
// comparison names the op that moved.
TEST(HtmlReportTest, ResultsWithoutEdges) {
  results::CompileStats fused = statsOf({{"f_dispatch_0", {"%mm", "%relu"}}});
  results::CompileStats apart =
      statsOf({{"f_dispatch_0", {"%mm"}}, {"f_dispatch_1", {"%relu"}}});
  std::string page = htmlPage(
      {doneJob("m.mlir", "o0", fused, 1), doneJob("m.mlir", "none", apart, 2)});
  EXPECT_NE(page.find("<details class=\"result\" id=\"result-0-1\" "
                      "data-row=\"m.mlir\" data-col=\"none\">"),
            std::string::npos);
  EXPECT_NE(page.find("<td>f_dispatch_1</td><td></td><td>%relu</td>"),
            std::string::npos);
  EXPECT_NE(page.find("no edges: this result was recorded before the stats "
                      "had them"),
            std::string::npos);
  EXPECT_NE(page.find("m.mlir: o0 vs none: 1 of o0's and 2 of none's "
                      "dispatches differ, 2 ops moved"),
            std::string::npos);
  EXPECT_NE(page.find("<tr class=\"differs\"><td>%relu</td><td>f_dispatch_0 "
                      "(root %mm)</td><td>f_dispatch_1 (root %relu)</td>"),
            std::string::npos);
}

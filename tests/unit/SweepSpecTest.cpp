//===- SweepSpecTest.cpp - spec parsing, validation and expansion ---------===//

#include "coordinator/SweepSpec.h"
#include "coordinator/ComparedVariants.h"
#include "coordinator/SweepExpander.h"
#include "coordinator/SweepSize.h"
#include "heuristics/HeuristicOptions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// A temporary directory with a model file in it.
class SweepSpecTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("sweepspec", dir));
    llvm::SmallString<128> model(dir);
    llvm::sys::path::append(model, "m.mlir");
    std::error_code ec;
    llvm::raw_fd_ostream os(model, ec);
    os << "func.func @f() { return }\n";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// The spec, or nothing with `errors` holding why not.
  std::optional<LoadedSpec> parse(llvm::StringRef text, std::string &errors) {
    llvm::Expected<LoadedSpec> loaded =
        parseSweepSpec(text, "spec.txtpb", std::string(dir));
    if (!loaded) {
      errors = llvm::toString(loaded.takeError());
      return std::nullopt;
    }
    return std::move(*loaded);
  }

  llvm::SmallString<128> dir;
};
} // namespace

TEST_F(SweepSpecTest, ValidSpecExpandsModelsTimesVariants) {
  std::string errors;
  auto loaded = parse(R"(
    name: "s"
    models: "m.mlir"
    variants { name: "o2" preset: "iree-O2" }
    axes { knob: "fuse-multi-use" values: "true" values: "false" }
    axes { knob: "truncate-ordering" values: "deferred" values: "eager" }
  )",
                      errors);
  ASSERT_TRUE(loaded) << errors;
  std::vector<ModelContent> models = {
      {"m.mlir", ".mlir", loaded->models[0].content}};
  llvm::Expected<std::vector<ExpandedJob>> expanded =
      expandSweep(loaded->spec, models, {"c", "22", "cpu"});
  ASSERT_TRUE(static_cast<bool>(expanded))
      << llvm::toString(expanded.takeError());
  std::vector<ExpandedJob> jobs = std::move(*expanded);
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs[0].variant.name, "o2");
  EXPECT_EQ(jobs[1].variant.name,
            "fuse-multi-use=true,truncate-ordering=deferred");
  EXPECT_EQ(jobs[4].variant.name,
            "fuse-multi-use=false,truncate-ordering=eager");
  EXPECT_NE(jobs[4].variant.options.find("truncate-ordering=eager"),
            std::string::npos);
  EXPECT_EQ(jobs[0].measurement.timeout_seconds(), 300);
  EXPECT_EQ(jobs[0].variant.kind, sweep::COMPILE);
}

TEST_F(SweepSpecTest, ContentKeyDependsOnEverythingThatMatters) {
  ResolvedVariant variant{"v", sweep::COMPILE, "iree-O0", "a=1\n"};
  sweep::Measurement measurement = withDefaults({});
  KeyContext context{"c", "22", "znver4"};
  std::string key = contentKey("m", variant, measurement, context);
  EXPECT_EQ(key, contentKey("m", variant, measurement, context));
  EXPECT_NE(key, contentKey("m2", variant, measurement, context));
  ResolvedVariant renamed = variant;
  renamed.name = "w";
  renamed.preset = "iree-O2";
  // Only resolved options count, not names.
  EXPECT_EQ(key, contentKey("m", renamed, measurement, context));
  ResolvedVariant other = variant;
  other.options = "a=2\n";
  EXPECT_NE(key, contentKey("m", other, measurement, context));
  sweep::Measurement longer = measurement;
  longer.set_timeout_seconds(1);
  EXPECT_NE(key, contentKey("m", variant, longer, context));
  EXPECT_NE(key, contentKey("m", variant, measurement, {"d", "22", "znver4"}));
  // Dispatch counts do not depend on the CPU: compile results are shared.
  EXPECT_EQ(key, contentKey("m", variant, measurement, {"c", "22", "skx"}));
  EXPECT_EQ(jobCpuClass(variant.kind, measurement, context), "");
}

TEST_F(SweepSpecTest, RunJobsAreKeyedAndBoundByCpuClass) {
  ResolvedVariant run{"v", sweep::RUN, "iree-O0", "a=1\n"};
  sweep::Measurement measurement = withDefaults({});
  KeyContext context{"c", "22", "znver4"};
  std::string key = contentKey("m", run, measurement, context);
  EXPECT_NE(key, contentKey("m", run, measurement, {"c", "22", "skx"}));
  EXPECT_EQ(jobCpuClass(sweep::RUN, measurement, context), "znver4");
  // The spec's class wins over the coordinator's, in the binding and key.
  sweep::Measurement elsewhere = measurement;
  elsewhere.set_cpu_class("skx");
  EXPECT_EQ(jobCpuClass(sweep::RUN, elsewhere, context), "skx");
  EXPECT_EQ(contentKey("m", run, elsewhere, context),
            contentKey("m", run, measurement, {"c", "22", "skx"}));

  std::string errors;
  std::optional<LoadedSpec> loaded = parse(R"(
    name: "s"
    models: "m.mlir"
    variants { name: "compile" }
    variants { name: "run" kind: RUN }
  )",
                                           errors);
  ASSERT_TRUE(loaded) << errors;
  llvm::Expected<std::vector<ExpandedJob>> expanded = expandSweep(
      loaded->spec, {{"m.mlir", ".mlir", loaded->models[0].content}}, context);
  ASSERT_TRUE(static_cast<bool>(expanded))
      << llvm::toString(expanded.takeError());
  std::vector<ExpandedJob> jobs = std::move(*expanded);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].cpuClass, "");
  EXPECT_EQ(jobs[1].cpuClass, "znver4");
}

TEST_F(SweepSpecTest, WarmupCountsInTheKeyOnlyWhenSet) {
  ResolvedVariant run{"v", sweep::RUN, "iree-O0", "a=1\n"};
  sweep::Measurement measurement = withDefaults({});
  // Results measured before the setting existed keep their keys.
  EXPECT_EQ(toString(measurement).find("warmup"), std::string::npos);
  KeyContext context{"c", "22", "znver4"};
  sweep::Measurement warmer = measurement;
  warmer.set_warmup_seconds(0.25);
  EXPECT_NE(contentKey("m", run, measurement, context),
            contentKey("m", run, warmer, context));
  EXPECT_NE(toString(warmer).find("warmup_seconds=2.5"), std::string::npos)
      << toString(warmer);

  std::string errors;
  EXPECT_FALSE(parse("name: \"s\"\n"
                     "models: \"m.mlir\"\n"
                     "measurement { warmup_seconds: -1 }\n",
                     errors));
  EXPECT_NE(errors.find("measurement.warmup_seconds: must not be negative"),
            std::string::npos)
      << errors;
}

TEST_F(SweepSpecTest, SemanticErrorsNameLineAndField) {
  std::string errors;
  EXPECT_FALSE(parse("name: \"s\"\n"
                     "models: \"m.mlir\"\n"
                     "variants {\n"
                     "  name: \"a\"\n"
                     "  preset: \"iree-O9\"\n"
                     "  set: \"max-operands=lots\"\n"
                     "}\n"
                     "axes { knob: \"bogus\" values: \"1\" }\n",
                     errors));
  EXPECT_NE(errors.find("spec.txtpb:5:3: error: variants[0].preset: unknown "
                        "preset 'iree-O9'"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("spec.txtpb:6:3: error: variants[0].set[0]: option "
                        "'max-operands' expects an integer"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("spec.txtpb:8:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("axes[0].values[0]: unknown heuristic option 'bogus'"),
            std::string::npos)
      << errors;
}

TEST_F(SweepSpecTest, SyntaxErrorsComeFromTextFormat) {
  std::string errors;
  EXPECT_FALSE(parse("name: \"s\"\nmodles: \"m.mlir\"\n", errors));
  EXPECT_NE(errors.find("spec.txtpb:2:7: error:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("modles"), std::string::npos) << errors;
}

TEST_F(SweepSpecTest, MissingPiecesAreReported) {
  std::string errors;
  EXPECT_FALSE(parse("name: \"\"\nmodels: \"nowhere.mlir\"\n", errors));
  EXPECT_NE(errors.find("name: a sweep needs a name"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("variants: a sweep needs variants or axes"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("spec.txtpb:2:1: error: models[0]: model "
                        "'nowhere.mlir' not found"),
            std::string::npos)
      << errors;
}

TEST_F(SweepSpecTest, VariantsWithTheSameOptionsAreRefused) {
  sweep::SweepSpec spec;
  spec.set_name("s");
  spec.add_models("m.mlir");
  sweep::Variant *a = spec.add_variants();
  a->set_name("a");
  sweep::Variant *b = spec.add_variants();
  b->set_name("b");
  b->add_set("aggressive-fusion=false");
  llvm::Expected<std::vector<ResolvedVariant>> variants = resolveVariants(spec);
  EXPECT_FALSE(static_cast<bool>(variants));
  std::string error = variants ? "" : llvm::toString(variants.takeError());
  EXPECT_NE(error.find("variants 'a' and 'b' resolve to the same options"),
            std::string::npos)
      << error;
}

TEST_F(SweepSpecTest, MeasurementValuesMustBeFiniteAndInBounds) {
  std::string errors;
  EXPECT_FALSE(parse("name: \"s\"\n"
                     "models: \"m.mlir\"\n"
                     "variants { name: \"a\" }\n"
                     "measurement {\n"
                     "  timeout_seconds: nan\n"
                     "  tolerance: inf\n"
                     "  memory_limit_mb: 100\n"
                     "}\n",
                     errors));
  EXPECT_NE(errors.find("spec.txtpb:5:3: error: measurement.timeout_seconds: "
                        "must be finite, got nan"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("spec.txtpb:6:3: error: measurement.tolerance: must "
                        "be finite, got inf"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("spec.txtpb:7:3: error: measurement.memory_limit_mb: "
                        "100 MB is too little for dispatchlab to start "
                        "reliably: at least 680"),
            std::string::npos)
      << errors;

  sweep::SweepSpec spec;
  spec.set_name("s");
  spec.add_models("m.mlir");
  spec.add_variants()->set_name("a");
  // 0 is each setting's default.
  EXPECT_TRUE(validateSweepSpec(spec).empty());
  spec.mutable_measurement()->set_timeout_seconds(kMaxTimeoutSeconds);
  spec.mutable_measurement()->set_memory_limit_mb(kMinMemoryLimitMb);
  EXPECT_TRUE(validateSweepSpec(spec).empty());
  spec.mutable_measurement()->set_timeout_seconds(kMaxTimeoutSeconds * 2);
  spec.mutable_measurement()->set_memory_limit_mb(kMaxMemoryLimitMb + 1);
  std::vector<SpecIssue> issues = validateSweepSpec(spec);
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[0].fieldPath(), "measurement.timeout_seconds");
  EXPECT_EQ(issues[1].fieldPath(), "measurement.memory_limit_mb");
}

TEST_F(SweepSpecTest, AKnobSetTwiceInAVariantIsRefused) {
  std::string errors;
  EXPECT_FALSE(parse("name: \"s\"\n"
                     "models: \"m.mlir\"\n"
                     "variants {\n"
                     "  name: \"a\"\n"
                     "  set: \"max-operands=8\"\n"
                     "  set: \"fuse-multi-use=false\"\n"
                     "  set: \" max-operands=16\"\n"
                     "}\n",
                     errors));
  EXPECT_NE(errors.find("spec.txtpb:7:3: error: variants[0].set[2]: knob "
                        "'max-operands' is set twice in variant 'a'"),
            std::string::npos)
      << errors;
}

TEST_F(SweepSpecTest, LargeSweepsAreCountedWarnedAboutAndCapped) {
  sweep::SweepSpec spec;
  spec.set_name("s");
  spec.add_models("a.mlir");
  spec.add_models("b.mlir");
  spec.add_variants()->set_name("o2");
  sweep::Axis *operands = spec.add_axes();
  for (int i = 0; i < 100; ++i)
    operands->add_values(std::to_string(i + 1));
  SweepSize size = measureSweep(spec);
  EXPECT_EQ(size.jobs(), 202u);
  EXPECT_EQ(size.describe(), "2 models x 101 variants: 1 explicit + 100 from "
                             "the axes");
  llvm::Expected<std::string> small = checkSweepSize(spec, "s.txtpb", false);
  ASSERT_TRUE(static_cast<bool>(small)) << llvm::toString(small.takeError());
  EXPECT_EQ(*small, "");

  sweep::Axis *bytes = spec.add_axes();
  for (int i = 0; i < 1000; ++i)
    bytes->add_values(std::to_string(i));
  llvm::Expected<std::string> refused = checkSweepSize(spec, "s.txtpb", false);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_EQ(llvm::toString(refused.takeError()),
            "s.txtpb: error: sweep 's' has 200002 jobs (2 models x 100001 "
            "variants: 1 explicit + 100 x 1000 from the axes), more than "
            "100000: pass --allow-large to run it");
  llvm::Expected<std::string> allowed = checkSweepSize(spec, "s.txtpb", true);
  ASSERT_TRUE(static_cast<bool>(allowed))
      << llvm::toString(allowed.takeError());
  EXPECT_EQ(*allowed, "s.txtpb: warning: sweep 's' has 200002 jobs (2 models "
                      "x 100001 variants: 1 explicit + 100 x 1000 from the "
                      "axes), more than 10000");

  // Axes enough to overflow a 64-bit count still give a count.
  for (int i = 0; i < 7; ++i)
    *spec.add_axes() = *bytes;
  EXPECT_EQ(measureSweep(spec).jobs(), UINT64_MAX);
  llvm::Expected<std::string> huge = checkSweepSize(spec, "s.txtpb", false);
  ASSERT_FALSE(static_cast<bool>(huge));
  EXPECT_NE(llvm::toString(huge.takeError())
                .find("has more than 18446744073709551614 jobs"),
            std::string::npos);
}

TEST_F(SweepSpecTest, ZooNamesResolveBesideTheSpecThenInTheZoo) {
  llvm::SmallString<128> zoo;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("zoo", zoo));
  llvm::SmallString<128> model(zoo);
  llvm::sys::path::append(model, "z.mlir");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(model, ec);
    os << "func.func @z() { return }\n";
  }
  const char *text = R"(
    name: "s"
    models: "m"
    models: "z"
    variants { name: "o2" preset: "iree-O2" }
  )";
  // The spec sits in a temporary directory: no experiments/models above it.
  llvm::Expected<LoadedSpec> without =
      parseSweepSpec(text, "spec.txtpb", std::string(dir));
  ASSERT_FALSE(bool(without));
  std::string errors = llvm::toString(without.takeError());
  EXPECT_NE(errors.find("model 'z' not found"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("model 'm' not found"), std::string::npos) << errors;

  llvm::Expected<LoadedSpec> loaded =
      parseSweepSpec(text, "spec.txtpb", std::string(dir), {std::string(zoo)});
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  ASSERT_EQ(loaded->models.size(), 2u);
  EXPECT_EQ(llvm::sys::path::filename(loaded->models[0].path), "m.mlir");
  EXPECT_EQ(loaded->models[1].path, std::string(model));
  llvm::sys::fs::remove_directories(zoo);
}

TEST_F(SweepSpecTest, CompareSweepIsOneJobPerModelBaselineFirst) {
  std::string errors;
  std::optional<LoadedSpec> loaded = parse(R"(
    name: "s"
    models: "m.mlir"
    kind: COMPARE
    baseline: "nf"
    variants { name: "O0" }
    variants { name: "O2" preset: "iree-O2" }
    variants { name: "nf" preset: "no-fusion" }
    variants { name: "compiled" kind: COMPILE }
  )",
                                           errors);
  ASSERT_TRUE(loaded) << errors;
  llvm::Expected<std::vector<ExpandedJob>> expanded = expandSweep(
      loaded->spec, {{"m.mlir", ".mlir", loaded->models[0].content}},
      {"c", "22", "znver4"});
  ASSERT_TRUE(static_cast<bool>(expanded))
      << llvm::toString(expanded.takeError());
  ASSERT_EQ(expanded->size(), 2u);
  EXPECT_EQ((*expanded)[0].variant.kind, sweep::COMPILE);
  const ExpandedJob &compare = (*expanded)[1];
  EXPECT_EQ(compare.variant.kind, sweep::COMPARE);
  EXPECT_EQ(compare.variant.name, "compare: nf | O0 | O2");
  EXPECT_EQ(compare.variant.preset, "no-fusion");
  // Measured like RUN: bound to the CPU class.
  EXPECT_EQ(compare.cpuClass, "znver4");
  llvm::Expected<std::vector<ResolvedVariant>> variants =
      parseComparedVariants(compare.variant.options);
  ASSERT_TRUE(static_cast<bool>(variants))
      << llvm::toString(variants.takeError());
  ASSERT_EQ(variants->size(), 3u);
  EXPECT_EQ((*variants)[0].name, "nf");
  EXPECT_EQ((*variants)[0].preset, "no-fusion");
  EXPECT_EQ((*variants)[2].name, "O2");
  mlir::FailureOr<HeuristicOptions> o2 =
      HeuristicOptions::fromPreset("iree-O2");
  ASSERT_TRUE(mlir::succeeded(o2));
  EXPECT_EQ((*variants)[2].options, o2->toString());

  // Without a baseline, the first COMPARE variant is it.
  loaded->spec.clear_baseline();
  expanded = expandSweep(loaded->spec,
                         {{"m.mlir", ".mlir", loaded->models[0].content}},
                         {"c", "22", "znver4"});
  ASSERT_TRUE(static_cast<bool>(expanded))
      << llvm::toString(expanded.takeError());
  EXPECT_EQ((*expanded)[1].variant.name, "compare: O0 | O2 | nf");
}

TEST_F(SweepSpecTest, CompareKeyHashesEveryVariantTheBaselineAndSettings) {
  auto variant = [](std::string name, std::string options) {
    return ResolvedVariant{std::move(name), sweep::COMPARE, "iree-O0",
                           std::move(options)};
  };
  ResolvedVariant job =
      comparisonJob({variant("a", "x=1\n"), variant("b", "x=2\n")});
  sweep::Measurement measurement = withDefaults({});
  KeyContext context{"c", "22", "znver4"};
  std::string key = contentKey("m", job, measurement, context);
  EXPECT_EQ(key, contentKey("m",
                            comparisonJob(
                                {variant("a", "x=1\n"), variant("b", "x=2\n")}),
                            measurement, context));
  // The other baseline, another variant's options, a third variant.
  EXPECT_NE(key, contentKey("m",
                            comparisonJob(
                                {variant("b", "x=2\n"), variant("a", "x=1\n")}),
                            measurement, context));
  EXPECT_NE(key, contentKey("m",
                            comparisonJob(
                                {variant("a", "x=1\n"), variant("b", "x=3\n")}),
                            measurement, context));
  EXPECT_NE(key, contentKey("m",
                            comparisonJob({variant("a", "x=1\n"),
                                           variant("b", "x=2\n"),
                                           variant("c", "x=3\n")}),
                            measurement, context));
  // Not the same job as a RUN of the same text.
  ResolvedVariant run = job;
  run.kind = sweep::RUN;
  EXPECT_NE(key, contentKey("m", run, measurement, context));
  EXPECT_NE(key, contentKey("m", job, measurement, {"c", "22", "skx"}));
  EXPECT_NE(key, contentKey("m", job, measurement, {"c", "23", "znver4"}));
  // Each comparison setting counts, only when set.
  EXPECT_EQ(toString(measurement).find("target_ci"), std::string::npos);
  for (auto set : std::vector<void (*)(sweep::Measurement &)>{
           [](sweep::Measurement &m) { m.set_target_ci_percent(2); },
           [](sweep::Measurement &m) { m.set_budget_seconds(3); },
           [](sweep::Measurement &m) { m.set_max_load(4); },
           [](sweep::Measurement &m) { m.set_aa(true); },
           [](sweep::Measurement &m) { m.set_order_seed(5); },
           [](sweep::Measurement &m) { m.set_max_rounds(6); },
           [](sweep::Measurement &m) { m.set_copies(4); }}) {
    sweep::Measurement changed = measurement;
    set(changed);
    EXPECT_NE(key, contentKey("m", job, changed, context)) << toString(changed);
  }
}

TEST_F(SweepSpecTest, CompareSpecErrorsNameTheFile) {
  std::string errors;
  EXPECT_FALSE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: COMPARE\n"
                     "baseline: \"nf\"\nvariants { name: \"a\" }\n"
                     "variants { name: \"b\" preset: \"iree-O2\" }\n",
                     errors));
  EXPECT_NE(errors.find("spec.txtpb:4:1: error: baseline: baseline 'nf' is "
                        "not a COMPARE variant of the sweep (they are: a, b)"),
            std::string::npos)
      << errors;
  EXPECT_FALSE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: COMPARE\n"
                     "variants { name: \"a\" }\n",
                     errors));
  EXPECT_NE(errors.find("spec.txtpb:3:1: error: kind: a COMPARE sweep needs "
                        "two variants, or one and measurement.aa"),
            std::string::npos)
      << errors;
  EXPECT_TRUE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: COMPARE\n"
                    "variants { name: \"a\" }\nmeasurement { aa: true }\n",
                    errors))
      << errors;
  EXPECT_FALSE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: RUN\n"
                     "baseline: \"a\"\nvariants { name: \"a\" }\n",
                     errors));
  EXPECT_NE(errors.find("baseline: a baseline is only read by kind: COMPARE"),
            std::string::npos)
      << errors;
  EXPECT_FALSE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: COMPARE\n"
                     "variants { name: \"a\" }\n"
                     "measurement { aa: true budget_seconds: -1 }\n",
                     errors));
  EXPECT_NE(errors.find("measurement.budget_seconds: must not be negative"),
            std::string::npos)
      << errors;
  EXPECT_FALSE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: COMPARE\n"
                     "variants { name: \"a\" }\n"
                     "measurement { aa: true copies: 3 max_rounds: 19 }\n",
                     errors));
  EXPECT_NE(errors.find("measurement.max_rounds: must be at least 20, the "
                        "rounds a comparison takes before it may stop"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("measurement.copies: must be 1 or at least 4: fewer "
                        "copies give no 95% interval"),
            std::string::npos)
      << errors;
  EXPECT_TRUE(parse("name: \"s\"\nmodels: \"m.mlir\"\nkind: COMPARE\n"
                    "variants { name: \"a\" }\n"
                    "measurement { aa: true copies: 4 }\n",
                    errors))
      << errors;
}

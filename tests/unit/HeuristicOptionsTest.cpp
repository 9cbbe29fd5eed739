//===- HeuristicOptionsTest.cpp - presets and canonical option text -------===//

#include "heuristics/HeuristicOptions.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
/// The message of `error`; empty for success.
std::string messageOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}
} // namespace

TEST(HeuristicOptions, PresetsResolveToIreeDefaults) {
  auto o0 = HeuristicOptions::fromPreset("iree-O0");
  ASSERT_TRUE(succeeded(o0));
  EXPECT_FALSE(o0->aggressiveFusion);
  EXPECT_TRUE(o0->fuseMultiUse);
  EXPECT_EQ(o0->maxOperands, 16u);
  EXPECT_EQ(o0->inlineConstantBytes, 256);
  EXPECT_EQ(o0->truncateOrdering, TruncateOrdering::Deferred);

  auto o2 = HeuristicOptions::fromPreset("iree-O2");
  ASSERT_TRUE(succeeded(o2));
  EXPECT_TRUE(o2->aggressiveFusion);

  auto none = HeuristicOptions::fromPreset("no-fusion");
  ASSERT_TRUE(succeeded(none));
  EXPECT_FALSE(none->dispatchFusion);
  EXPECT_EQ(none->elementwiseFusion, ElementwiseFusionMode::Off);

  EXPECT_TRUE(failed(HeuristicOptions::fromPreset("iree-O7")));
}

TEST(HeuristicOptions, CanonicalTextIsSortedAndComplete) {
  HeuristicOptions options;
  std::string text = options.toString();
  EXPECT_EQ(text.rfind("aggressive-fusion=false\n", 0), 0u);
  EXPECT_NE(text.find("max-operands=16\n"), std::string::npos);
  EXPECT_NE(text.find("truncate-ordering=deferred\n"), std::string::npos);
  // Sorted keys: every line is lexicographically after the previous one.
  std::string previous;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    EXPECT_LT(previous, line);
    previous = line;
    start = end + 1;
  }
}

TEST(HeuristicOptions, TextDependsOnKnobsNotPresetName) {
  auto o2 = *HeuristicOptions::fromPreset("iree-O2");
  auto o0 = *HeuristicOptions::fromPreset("iree-O0");
  ASSERT_EQ(messageOf(o0.set("aggressive-fusion", "true")), "");
  EXPECT_EQ(o0.toString(), o2.toString());
  EXPECT_TRUE(o0 == o2);
}

TEST(HeuristicOptions, SetValidatesValues) {
  HeuristicOptions options;
  EXPECT_EQ(messageOf(options.set("truncate-ordering", "eager")), "");
  EXPECT_EQ(options.truncateOrdering, TruncateOrdering::Eager);
  EXPECT_EQ(messageOf(options.set("fuse-multi-use", "false")), "");
  EXPECT_FALSE(options.fuseMultiUse);
  EXPECT_EQ(messageOf(options.set("max-operands", "8")), "");
  EXPECT_EQ(options.maxOperands, 8u);

  std::string error = messageOf(options.set("max-operands", "zero"));
  EXPECT_NE(error, "");
  EXPECT_NE(error.find("max-operands"), std::string::npos);
  error = messageOf(options.set("elementwise-fusion", "maybe"));
  EXPECT_NE(error, "");
  EXPECT_NE(
      error.find("iree, pr8723-base, pr8723-v1, pr8723-v2, upstream or off"),
      std::string::npos);
  error = messageOf(options.set("no-such-knob", "1"));
  EXPECT_NE(error, "");
  EXPECT_NE(error.find("no-such-knob"), std::string::npos);
  EXPECT_NE(messageOf(options.set("aggressive-fusion", "yes please")), "");
}

// Every knob of HeuristicKnobs.def is a flag, a line of the canonical text
// and settable under the same key, with the values its flag shows.
TEST(HeuristicOptions, EveryKnobIsOneDefinition) {
  HeuristicOptions options;
  std::string lines = "\n" + options.toString();
  ASSERT_EQ(HeuristicOptions::describeKnobs().size(),
            size_t(llvm::count(lines, '\n') - 1));
  for (const KnobDescription &knob : HeuristicOptions::describeKnobs()) {
    EXPECT_NE(lines.find("\n" + knob.key.str() + "="), std::string::npos)
        << knob.key.str();
    llvm::StringRef first = llvm::StringRef(knob.values).split('|').first;
    std::string value = first == "N" ? "7" : first.str();
    EXPECT_EQ(messageOf(options.set(knob.key, value)), "") << knob.key.str();
  }
  EXPECT_EQ(HeuristicOptions::describeKnobs()[3].values, "deferred|eager");
  EXPECT_EQ(HeuristicOptions::describeKnobs()[9].values,
            "iree|pr8723-base|pr8723-v1|pr8723-v2|upstream|off");
}

// A pass option string sets several knobs; a bad one names itself.
TEST(HeuristicOptions, SetAllTakesPassOptionText) {
  HeuristicOptions options;
  ASSERT_EQ(messageOf(options.setAll(
                "aggressive-fusion truncate-ordering=eager max-operands=4")),
            "");
  EXPECT_TRUE(options.aggressiveFusion);
  EXPECT_EQ(options.truncateOrdering, TruncateOrdering::Eager);
  EXPECT_EQ(options.maxOperands, 4u);
  EXPECT_EQ(messageOf(options.setAll("dispatch-fusion=maybe")),
            "option 'dispatch-fusion' expects true or false, got 'maybe'");
}

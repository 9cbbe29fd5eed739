//===- HeuristicOptionsTest.cpp - presets and canonical option text -------===//

#include "heuristics/HeuristicOptions.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

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
  std::string error;
  ASSERT_TRUE(succeeded(o0.set("aggressive-fusion", "true", error)));
  EXPECT_EQ(o0.toString(), o2.toString());
  EXPECT_TRUE(o0 == o2);
}

TEST(HeuristicOptions, SetValidatesValues) {
  HeuristicOptions options;
  std::string error;
  EXPECT_TRUE(succeeded(options.set("truncate-ordering", "eager", error)));
  EXPECT_EQ(options.truncateOrdering, TruncateOrdering::Eager);
  EXPECT_TRUE(succeeded(options.set("fuse-multi-use", "false", error)));
  EXPECT_FALSE(options.fuseMultiUse);
  EXPECT_TRUE(succeeded(options.set("max-operands", "8", error)));
  EXPECT_EQ(options.maxOperands, 8u);

  EXPECT_TRUE(failed(options.set("max-operands", "zero", error)));
  EXPECT_NE(error.find("max-operands"), std::string::npos);
  EXPECT_TRUE(failed(options.set("elementwise-fusion", "maybe", error)));
  EXPECT_NE(error.find("iree, upstream or off"), std::string::npos);
  EXPECT_TRUE(failed(options.set("no-such-knob", "1", error)));
  EXPECT_NE(error.find("no-such-knob"), std::string::npos);
  EXPECT_TRUE(failed(options.set("aggressive-fusion", "yes please", error)));
}

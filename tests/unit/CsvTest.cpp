//===- CsvTest.cpp - CSV fields written and read back ---------------------===//

#include "results/Csv.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

namespace {
TEST(CsvTest, PlainFieldsSplitOnCommas) {
  EXPECT_EQ(parseCsvRecord("model,Disabled,Enabled"),
            (std::vector<std::string>{"model", "Disabled", "Enabled"}));
  EXPECT_EQ(parseCsvRecord("a,,b,"),
            (std::vector<std::string>{"a", "", "b", ""}));
}

TEST(CsvTest, QuotedFieldsKeepCommasAndQuotes) {
  EXPECT_EQ(parseCsvRecord(R"("resnet, v1",3,"say ""hi""")"),
            (std::vector<std::string>{"resnet, v1", "3", "say \"hi\""}));
}

TEST(CsvTest, WrittenFieldsReadBack) {
  for (const char *text : {"plain", "a,b", "quote\"d", "", "x\"\",y"}) {
    std::string field = csvField(text);
    EXPECT_EQ(parseCsvRecord(field + "," + field),
              (std::vector<std::string>{text, text}))
        << field;
  }
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
}
} // namespace

//===- ExportsTest.cpp - typed CSV and JSON ------------------------------===//

#include "results/Exports.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace dispatchlab;

TEST(Exports, DoublesReadBackAsDoubles) {
  EXPECT_EQ(roundTripText(1.0), "1.0");
  EXPECT_EQ(roundTripText(0.1), "0.1");
  EXPECT_EQ(roundTripText(-2.5), "-2.5");
  EXPECT_EQ(roundTripText(1e300), "1e+300");
  EXPECT_EQ(roundTripText(1.0 / 3), "0.3333333333333333");
}

TEST(Exports, CsvCellsKeepTheirTypes) {
  TypedTable table;
  table.columns = {"n", "x", "flag", "text", "none"};
  table.rows.push_back(
      {int64_t(3), 2.0, true, std::string("a,\"b\""), std::monostate()});
  std::string csv;
  llvm::raw_string_ostream os(csv);
  printTypedCsv(table, os);
  EXPECT_EQ(csv, "n,x,flag,text,none\n3,2.0,true,\"a,\"\"b\"\"\",\n");
}

TEST(Exports, JsonRecordsNeedDistinctColumns) {
  TypedTable table;
  table.columns = {"a", "b"};
  table.rows.push_back({int64_t(1), std::monostate()});
  llvm::Expected<llvm::json::Array> records = typedRecords(table);
  ASSERT_TRUE(bool(records));
  const llvm::json::Object *record = (*records)[0].getAsObject();
  EXPECT_EQ(record->getInteger("a"), 1);
  EXPECT_EQ(record->get("b")->kind(), llvm::json::Value::Null);
  llvm::Expected<llvm::json::Array> dropped =
      typedRecords(table, /*dropNulls=*/true);
  ASSERT_TRUE(bool(dropped));
  EXPECT_EQ((*dropped)[0].getAsObject()->get("b"), nullptr);

  table.columns = {"a", "a"};
  llvm::Expected<llvm::json::Array> clash = typedRecords(table);
  ASSERT_FALSE(bool(clash));
  EXPECT_EQ(llvm::toString(clash.takeError()),
            "column 'a' appears twice; give each its own name (AS) for JSON");
}

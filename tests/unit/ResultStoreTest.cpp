//===- ResultStoreTest.cpp - the SQLite result database -------------------===//

#include "results/ResultStore.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace dispatchlab;

TEST(ResultStoreTest, SchemaAndWalOnDisk) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("resultstore", "db", path));
  {
    ResultStore store{std::string(path)};
    Statement &mode = store.prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.step());
    EXPECT_EQ(mode.getText(0), "wal");
    mode.reset();
    store.transaction([&] { store.putModel("h", "m.mlir", ".mlir", "bytes"); });
  }
  // Reopening applies the schema again without touching the data.
  ResultStore store{std::string(path)};
  std::optional<StoredModel> model = store.getModel("h");
  ASSERT_TRUE(model);
  EXPECT_EQ(model->content, "bytes");
  llvm::sys::fs::remove(path);
}

TEST(ResultStoreTest, TransactionRollsBackOnThrow) {
  ResultStore store(":memory:");
  EXPECT_THROW(store.transaction([&] {
    store.putModel("h", "m", ".mlir", "x");
    throw std::runtime_error("abort");
  }),
               std::runtime_error);
  EXPECT_FALSE(store.getModel("h"));
}

TEST(ResultStoreTest, OneResultPerKeyLatestWins) {
  ResultStore store(":memory:");
  int64_t worker = store.addWorker({}, 0);
  int64_t first = store.putResult("k", "{\"a\":1}", "{}", worker, 1, 0);
  int64_t second = store.putResult("k", "{\"a\":2}", "{}", worker, 1, 1);
  EXPECT_EQ(first, second);
  Statement &query =
      store.prepare("SELECT stats_json FROM results WHERE content_key = 'k'");
  ASSERT_TRUE(query.step());
  EXPECT_EQ(query.getText(0), "{\"a\":2}");
  query.reset();
  EXPECT_FALSE(store.findResult("other"));
}

TEST(ResultStoreTest, BadSqlThrowsStoreError) {
  ResultStore store(":memory:");
  EXPECT_THROW(store.exec("SELECT * FROM nowhere"), StoreError);
}

TEST(ResultStoreTest, ResultRecordsWorkerCpuClassAndHost) {
  ResultStore store(":memory:");
  int64_t worker = store.addWorker({"box", "znver4"}, 0);
  store.putResult("k", "{}", "{}", worker, 1, 0);
  Statement &query = store.prepare(
      "SELECT cpu_class, hostname FROM results WHERE content_key = 'k'");
  ASSERT_TRUE(query.step());
  EXPECT_EQ(query.getText(0), "znver4");
  EXPECT_EQ(query.getText(1), "box");
  query.reset();
}

TEST(ResultStoreTest, OpeningAnOlderDatabaseAddsNewColumns) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("resultstore", "db", path));
  // Tables as a database made before the CPU class columns has them (the
  // columns the schema's indexes need).
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE jobs (id INTEGER PRIMARY KEY, sweep_id "
                         "INTEGER, state TEXT); CREATE TABLE results (id "
                         "INTEGER PRIMARY KEY, content_key TEXT);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  ResultStore store{std::string(path)};
  Statement &columns = store.prepare(
      "SELECT COUNT(*) FROM pragma_table_info('jobs') WHERE name = "
      "'cpu_class' UNION ALL SELECT COUNT(*) FROM pragma_table_info('results') "
      "WHERE name IN ('cpu_class', 'hostname')");
  ASSERT_TRUE(columns.step());
  EXPECT_EQ(columns.getInt(0), 1);
  ASSERT_TRUE(columns.step());
  EXPECT_EQ(columns.getInt(0), 2);
  columns.reset();
  llvm::sys::fs::remove(path);
}

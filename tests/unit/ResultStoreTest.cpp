//===- ResultStoreTest.cpp - the SQLite result database -------------------===//

#include "results/ResultStore.h"
#include "tests/unit/ErrorChecks.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace dispatchlab;

TEST(ResultStoreTest, SchemaAndWalOnDisk) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("resultstore", "db", path));
  {
    std::unique_ptr<ResultStore> store =
        checked(ResultStore::open(std::string(path)));
    Statement &mode = checked(store->prepare("PRAGMA journal_mode"));
    ASSERT_TRUE(checked(mode.step()));
    EXPECT_EQ(mode.getText(0), "wal");
    mode.reset();
    checked(store->transaction(
        [&] { return store->putModel("h", "m.mlir", ".mlir", "bytes"); }));
  }
  // Reopening applies the schema again without touching the data.
  std::unique_ptr<ResultStore> store =
      checked(ResultStore::open(std::string(path)));
  std::optional<StoredModel> model = checked(store->getModel("h"));
  ASSERT_TRUE(model);
  EXPECT_EQ(model->content, "bytes");
  llvm::sys::fs::remove(path);
}

TEST(ResultStoreTest, TransactionRollsBackOnFailure) {
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
  llvm::Error failed = store->transaction([&] {
    checked(store->putModel("h", "m", ".mlir", "x"));
    return llvm::createStringError("abort");
  });
  EXPECT_EQ(llvm::toString(std::move(failed)), "abort");
  EXPECT_FALSE(checked(store->getModel("h")));
}

TEST(ResultStoreTest, ResultsAreAppendOnlyAndTheNewestIsFound) {
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
  int64_t worker = checked(store->addWorker({}, 0));
  int64_t first =
      checked(store->putResult("k", "{\"a\":1}", "{}", worker, 1, 0));
  int64_t second =
      checked(store->putResult("k", "{\"a\":2}", "{}", worker, 1, 1));
  EXPECT_NE(first, second);
  EXPECT_EQ(checked(store->findResult("k")), second);
  Statement &query = checked(store->prepare(
      "SELECT stats_json FROM results WHERE content_key = 'k' ORDER BY id"));
  ASSERT_TRUE(checked(query.step()));
  EXPECT_EQ(query.getText(0), "{\"a\":1}");
  ASSERT_TRUE(checked(query.step()));
  EXPECT_EQ(query.getText(0), "{\"a\":2}");
  query.reset();
  EXPECT_FALSE(checked(store->findResult("other")));
}

TEST(ResultStoreTest, BadSqlFailsWithStoreError) {
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
  EXPECT_TRUE(storeErrorOf(store->exec("SELECT * FROM nowhere")));
}

TEST(ResultStoreTest, ErrorsNameTheDatabaseNotTheStatement) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("resultstore", "db", path));
  {
    std::unique_ptr<ResultStore> store =
        checked(ResultStore::open(std::string(path)));
    std::optional<StoreError> missingColumn =
        storeErrorOf(store->prepare("SELECT nothing_here FROM models"));
    EXPECT_TRUE(missingColumn) << "a missing column was prepared";
    std::string message = missingColumn ? missingColumn->getMessage() : "";
    EXPECT_NE(message.find(std::string(path)), std::string::npos) << message;
    EXPECT_NE(message.find("no such column: nothing_here"), std::string::npos)
        << message;
    EXPECT_EQ(message.find("SELECT"), std::string::npos) << message;
    // A step that fails (a constraint) says so without the INSERT.
    Statement &insert = checked(store->prepare(
        "INSERT INTO models(hash, name, extension, content) VALUES (?1, ?1, "
        "?1, NULL)"));
    insert.bind(1, llvm::StringRef("h"));
    std::optional<StoreError> constraint = storeErrorOf(insert.run());
    EXPECT_TRUE(constraint) << "a NULL content was stored";
    if (constraint)
      EXPECT_EQ(constraint->getMessage().find("INSERT"), std::string::npos)
          << constraint->getMessage();
  }
  llvm::sys::fs::remove(path);
}

TEST(ResultStoreTest, SecondStatementIsRefused) {
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
  for (const char *sql : {"SELECT 1; SELECT 2", "SELECT 1; nonsense"}) {
    std::optional<StoreError> refused = storeErrorOf(store->prepare(sql));
    ASSERT_TRUE(refused) << sql;
    EXPECT_EQ(refused->getKind(), StoreError::Kind::SecondStatement) << sql;
  }
  Statement &one = checked(store->prepare("SELECT 1; -- a comment\n ;"));
  ASSERT_TRUE(checked(one.step()));
  EXPECT_EQ(one.getInt(0), 1);
  one.reset();
}

TEST(ResultStoreTest, ResultRecordsWorkerCpuClassAndHost) {
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
  int64_t worker = checked(store->addWorker({"box", "znver4"}, 0));
  checked(store->putResult("k", "{}", "{}", worker, 1, 0));
  Statement &query = checked(store->prepare(
      "SELECT cpu_class, hostname FROM results WHERE content_key = 'k'"));
  ASSERT_TRUE(checked(query.step()));
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
                         "INTEGER, content_key TEXT, state TEXT); CREATE "
                         "TABLE results (id "
                         "INTEGER PRIMARY KEY, content_key TEXT);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  std::unique_ptr<ResultStore> store =
      checked(ResultStore::open(std::string(path)));
  Statement &columns = checked(store->prepare(
      "SELECT COUNT(*) FROM pragma_table_info('jobs') WHERE name = "
      "'cpu_class' UNION ALL SELECT COUNT(*) FROM pragma_table_info('results') "
      "WHERE name IN ('cpu_class', 'hostname')"));
  ASSERT_TRUE(checked(columns.step()));
  EXPECT_EQ(columns.getInt(0), 1);
  ASSERT_TRUE(checked(columns.step()));
  EXPECT_EQ(columns.getInt(0), 2);
  columns.reset();
  llvm::sys::fs::remove(path);
}

TEST(ResultStoreTest, OpeningAOneResultPerKeyDatabaseMigratesIt) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("resultstore", "db", path));
  // The results table as it was when a key had one result (UNIQUE key),
  // with a job pointing at its result.
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(
          db,
          "CREATE TABLE workers (id INTEGER PRIMARY KEY, hostname TEXT, cpu "
          "TEXT); CREATE TABLE results (id INTEGER PRIMARY KEY, content_key "
          "TEXT NOT NULL UNIQUE, stats_json TEXT NOT NULL, provenance_json "
          "TEXT NOT NULL, worker_id INTEGER REFERENCES workers(id), "
          "wall_seconds REAL NOT NULL, created_at REAL NOT NULL, cpu_class "
          "TEXT, hostname TEXT); CREATE TABLE jobs (id INTEGER PRIMARY KEY, "
          "sweep_id INTEGER, content_key TEXT, state TEXT, result_id INTEGER "
          "REFERENCES results(id)); INSERT INTO workers VALUES (1, 'box', "
          "'znver4'); INSERT INTO results VALUES (7, 'k', '{\"a\":1}', '{}', "
          "1, 2.5, 3, 'znver4', 'box'); INSERT INTO jobs VALUES (1, 1, 'k', "
          "'done', 7);",
          nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  {
    std::unique_ptr<ResultStore> store =
        checked(ResultStore::open(std::string(path)));
    EXPECT_EQ(checked(store->findResult("k")), 7);
    int64_t rerun = checked(store->putResult("k", "{\"a\":2}", "{}", 1, 1, 4));
    EXPECT_NE(rerun, 7);
    EXPECT_EQ(checked(store->findResult("k")), rerun);
    Statement &kept = checked(store->prepare(
        "SELECT r.stats_json, r.wall_seconds, r.hostname FROM jobs j JOIN "
        "results r ON r.id = j.result_id WHERE j.id = 1"));
    ASSERT_TRUE(checked(kept.step()));
    EXPECT_EQ(kept.getText(0), "{\"a\":1}");
    EXPECT_EQ(kept.getDouble(1), 2.5);
    EXPECT_EQ(kept.getText(2), "box");
    kept.reset();
    // Jobs still reference the (rebuilt) results table.
    Statement &references = checked(store->prepare(
        "SELECT COUNT(*) FROM pragma_foreign_key_list('jobs') WHERE \"table\" "
        "= 'results' UNION ALL SELECT COUNT(*) FROM pragma_foreign_key_check"));
    ASSERT_TRUE(checked(references.step()));
    EXPECT_EQ(references.getInt(0), 1);
    ASSERT_TRUE(checked(references.step()));
    EXPECT_EQ(references.getInt(0), 0);
    references.reset();
    Statement &version = checked(store->prepare("PRAGMA user_version"));
    ASSERT_TRUE(checked(version.step()));
    EXPECT_EQ(version.getInt(0), 1);
    version.reset();
  }
  // Opening the migrated database again changes nothing.
  std::unique_ptr<ResultStore> store =
      checked(ResultStore::open(std::string(path)));
  Statement &count = checked(store->prepare("SELECT COUNT(*) FROM results"));
  ASSERT_TRUE(checked(count.step()));
  EXPECT_EQ(count.getInt(0), 2);
  count.reset();
  llvm::sys::fs::remove(path);
}

TEST(ResultStoreTest, ANewerSchemaIsNotWritten) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("resultstore", "db", path));
  {
    std::unique_ptr<ResultStore> store =
        checked(ResultStore::open(std::string(path)));
    checked(store->exec("PRAGMA user_version = " +
                        std::to_string(ResultStore::kSchemaVersion + 1)));
  }
  std::optional<StoreError> refused =
      storeErrorOf(ResultStore::open(std::string(path)));
  EXPECT_TRUE(refused) << "a newer database was opened for writing";
  if (refused)
    EXPECT_EQ(refused->getMessage(),
              "cannot set up database '" + std::string(path) +
                  "': its schema version 2 is newer than this dispatchlab's "
                  "(1): use the dispatchlab that wrote it");
  // Left as it was: not migrated down.
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt *stmt = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(stmt, 0), ResultStore::kSchemaVersion + 1);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  llvm::sys::fs::remove(path);
}

TEST(ResultStoreTest, NoiseFloorsComeFromComparisonsOfTheSameHostAndClass) {
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(":memory:"));
  int64_t box = checked(store->addWorker({"box", "znver4"}, 0));
  int64_t other = checked(store->addWorker({"box", "skx"}, 0));
  const char *withFloor =
      R"({"comparison": {"noise_floor": {"rounds": 40, "median": 1.01,
          "ci_low": 0.99, "ci_high": 1.03}}})";
  const char *withoutFloor = R"({"comparison": {"noise_floor": null}})";
  int64_t measured = checked(store->putResult("a", withFloor, "{}", box, 1, 0));
  int64_t later = checked(store->putResult("b", withoutFloor, "{}", box, 1, 1));
  int64_t elsewhere =
      checked(store->putResult("c", withoutFloor, "{}", other, 1, 2));
  // Not JSON at all: stored, no floor, no error.
  int64_t text = checked(store->putResult("d", "stats", "{}", box, 1, 3));

  std::optional<NoiseFloor> own = checked(store->noiseFloorFor(measured));
  ASSERT_TRUE(own);
  EXPECT_EQ(own->resultId, measured);
  EXPECT_EQ(own->rounds, 40);
  EXPECT_DOUBLE_EQ(own->low, 0.99);
  EXPECT_DOUBLE_EQ(own->high, 1.03);
  EXPECT_EQ(own->cpuClass, "znver4");
  // Without an A/A of its own: the newest of its host and CPU class.
  std::optional<NoiseFloor> borrowed = checked(store->noiseFloorFor(later));
  ASSERT_TRUE(borrowed);
  EXPECT_EQ(borrowed->resultId, measured);
  EXPECT_EQ(borrowed->hostname, "box");
  EXPECT_FALSE(checked(store->noiseFloorFor(elsewhere)));
  EXPECT_TRUE(checked(store->noiseFloorFor(text)));
  Statement &rows =
      checked(store->prepare("SELECT COUNT(*) FROM noise_floors"));
  ASSERT_TRUE(checked(rows.step()));
  EXPECT_EQ(rows.getInt(0), 1);
  rows.reset();
}

//===- StoreFaultsTest.cpp - damaged, read-only, full and shared databases ===//
//
// The faults of issue #14 injected without root: a page overwritten with
// garbage, SQLite's read-only URI mode, PRAGMA max_page_count for a full
// disk, and a second lock on one database.
//
//===----------------------------------------------------------------------===//

#include "coordinator/CoordinatorReachability.h"
#include "coordinator/CoordinatorService.h"
#include "coordinator/DatabaseLock.h"
#include "coordinator/JobQueue.h"
#include "results/ResultStore.h"
#include "tests/unit/ErrorChecks.h"

#include "llvm/Support/FileSystem.h"

#include <grpcpp/server_context.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fstream>

using namespace dispatchlab;

namespace {
/// A fresh database file path, removed with its WAL files at the end.
class TemporaryDatabase {
public:
  TemporaryDatabase() {
    llvm::sys::fs::createTemporaryFile("storefaults", "db", path);
  }
  ~TemporaryDatabase() {
    for (const char *suffix : {"", "-wal", "-shm", ".lock"})
      llvm::sys::fs::remove(std::string(path) + suffix);
  }
  std::string str() const { return std::string(path); }

private:
  llvm::SmallString<128> path;
};

/// Why opening `path` fails; empty if it opens.
std::string openingError(const std::string &path, ResultStore::Access access) {
  std::optional<StoreError> error =
      storeErrorOf(ResultStore::open(path, access));
  return error ? error->getMessage() : "";
}
} // namespace

TEST(StoreFaultsTest, DamagedPageIsRefusedOnOpenNamingTheFile) {
  TemporaryDatabase db;
  {
    std::unique_ptr<ResultStore> store = checked(ResultStore::open(db.str()));
    checked(store->transaction(
        [&] { return store->putModel("h", "m.mlir", ".mlir", "x"); }));
  }
  {
    // Page 3 holds a table or index of the schema: fill it with garbage.
    std::fstream file(db.str(),
                      std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(2 * 4096);
    file << std::string(4096, '\xde');
  }
  for (auto access :
       {ResultStore::Access::ReadWrite, ResultStore::Access::ReadOnly}) {
    std::string message = openingError(db.str(), access);
    EXPECT_NE(message.find("database '" + db.str() + "' is damaged: "),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(StoreFaultsTest, ReadOnlyFileIsRefusedBeforeAnyWrite) {
  // What chmod 0444 does for anyone but root: SQLite opens the file
  // read-only without an error. Its URI mode reproduces that as root too.
  sqlite3_shutdown();
  sqlite3_config(SQLITE_CONFIG_URI, 1);
  sqlite3_initialize();
  TemporaryDatabase db;
  checked(ResultStore::open(db.str()));
  std::string uri = "file:" + db.str() + "?mode=ro";
  EXPECT_EQ(openingError(uri, ResultStore::Access::ReadWrite),
            uri + ": attempt to write a readonly database");
  // Reading it is still fine.
  EXPECT_EQ(openingError(uri, ResultStore::Access::ReadOnly), "");
}

TEST(StoreFaultsTest, FullDatabaseKeepsTheReportRetryable) {
  TemporaryDatabase db;
  std::unique_ptr<ResultStore> store = checked(ResultStore::open(db.str()));
  JobQueue queue(*store, QueuePolicy());
  CoordinatorService service(queue, KeyContext::current(), "");
  int64_t worker = checked(queue.addWorker({}, 0));
  SubmitResult submitted =
      checked(queue.submit("s", "spec", {{"m.mlir", ".mlir", "model"}},
                           {{"m.mlir",
                             sha256Hex("model"),
                             {"v", sweep::COMPILE, "iree-O0", ""},
                             {},
                             "key",
                             ""}},
                           false, 0));
  std::optional<LeasedJob> leased = checked(queue.lease(worker, unixNow()));
  ASSERT_TRUE(leased);

  // A disk that is full: no page beyond those in use.
  Statement &pages = checked(store->prepare("PRAGMA page_count"));
  ASSERT_TRUE(checked(pages.step()));
  int64_t pageCount = pages.getInt(0);
  pages.reset();
  checked(store->exec("PRAGMA max_page_count = " + std::to_string(pageCount)));
  coordinator::ReportResultRequest request;
  request.set_job_id(leased->jobId);
  request.set_lease_id(leased->leaseId);
  request.set_worker_id(worker);
  request.set_outcome(coordinator::SUCCEEDED);
  request.set_stats_json("{\"pad\": \"" + std::string(64 << 10, 'x') + "\"}");
  request.set_provenance_json("{}");
  coordinator::ReportResultReply reply;
  grpc::ServerContext context;
  grpc::Status full = service.ReportResult(&context, &request, &reply);
  // Retried, but not taken for a coordinator out of reach.
  EXPECT_TRUE(isStoreRetry(full));
  EXPECT_FALSE(isUnreachable(full));
  EXPECT_EQ(full.error_message(), "database full (" + db.str() + "): retrying");
  // Nothing half-stored: the job still waits for this report.
  EXPECT_EQ(checked(queue.counts(submitted.sweepId)).running, 1);

  // Space again: the worker's retry of the same report is stored.
  checked(store->exec("PRAGMA max_page_count = 1000000"));
  grpc::ServerContext retryContext;
  grpc::Status stored = service.ReportResult(&retryContext, &request, &reply);
  EXPECT_TRUE(stored.ok()) << stored.error_message();
  EXPECT_TRUE(reply.accepted());
  EXPECT_EQ(checked(queue.counts(submitted.sweepId)).done, 1);
}

TEST(StoreFaultsTest, SecondLockIsRefusedNamingTheHolder) {
  TemporaryDatabase db;
  llvm::Expected<std::unique_ptr<DatabaseLock>> first =
      DatabaseLock::acquire(db.str());
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  llvm::Expected<std::unique_ptr<DatabaseLock>> second =
      DatabaseLock::acquire(db.str());
  ASSERT_FALSE(bool(second));
  EXPECT_EQ(llvm::toString(second.takeError()),
            "database '" + db.str() + "' is in use by another coordinator " +
                "(pid " + std::to_string(getpid()) + ", lock " + db.str() +
                ".lock); stop it or use another --db");
  std::string lockPath = (*first)->getLockPath();
  first->reset();
  EXPECT_FALSE(llvm::sys::fs::exists(lockPath));
  llvm::Expected<std::unique_ptr<DatabaseLock>> again =
      DatabaseLock::acquire(db.str());
  EXPECT_TRUE(bool(again)) << llvm::toString(again.takeError());
}

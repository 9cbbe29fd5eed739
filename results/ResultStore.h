//===- ResultStore.h - the SQLite result database ---------------*- C++ -*-===//
//
// Owns one SQLite connection on the result database (WAL, schema from
// results/schema.sql) and offers prepared statements, transactions and the
// model/worker/result tables. The jobs table belongs to JobQueue. Not
// thread-safe: callers serialize access.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_RESULTSTORE_H
#define DISPATCHLAB_RESULTS_RESULTSTORE_H

#include "results/NoiseFloor.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

struct sqlite3;
struct sqlite3_stmt;

namespace dispatchlab {

/// Any SQLite failure; the message names the statement's error. Callers
/// that act on the SQLite code (retry, reclaim space) take it out with
/// llvm::handleErrors.
class StoreError : public llvm::ErrorInfo<StoreError> {
public:
  static char ID;
  /// A failure SQLite reported, or SQL text `prepare` refused before
  /// SQLite ran it: no statement (empty, blanks, a comment, a lone ';'), or
  /// a second statement after the first (`prepare` runs one).
  enum class Kind { Sqlite, EmptyStatement, SecondStatement };

  explicit StoreError(std::string message, int code = 0,
                      Kind kind = Kind::Sqlite)
      : message(std::move(message)), code(code), kind(kind) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  const std::string &getMessage() const { return message; }
  /// SQLite's primary result code (SQLITE_FULL, ...); 0 when not from SQLite.
  int sqliteCode() const { return code; }
  Kind getKind() const { return kind; }
  /// The disk or the database's page limit is full: a later retry may work.
  bool isFull() const;
  /// Locked by another connection past the busy timeout.
  bool isBusy() const;
  /// The file turned read-only or the disk fails (I/O error) mid-run.
  bool isUnwritable() const;

private:
  std::string message;
  int code;
  Kind kind;
};

/// Bytes bound as a BLOB rather than as TEXT.
struct Blob {
  llvm::StringRef bytes;
};

/// A prepared statement, reset on every `bind` round. Owned by the store.
/// A failed bind is kept and returned by the next step() or run(), so a
/// round of binds reads as one chain with one check.
class Statement {
public:
  explicit Statement(sqlite3_stmt *stmt) : stmt(stmt) {}
  /// Parameters are 1-based, as in SQLite.
  Statement &bind(int index, int64_t value);
  Statement &bind(int index, double value);
  Statement &bind(int index, llvm::StringRef text);
  Statement &bind(int index, Blob bytes);
  /// NULL when empty (what an unbound parameter is too).
  template <typename T>
  Statement &bind(int index, const std::optional<T> &value) {
    return value ? bind(index, *value) : bindNull(index);
  }
  Statement &bindNull(int index);
  /// Binds `values` to ?1, ?2, ... in order.
  template <typename... Values> Statement &bindAll(const Values &...values) {
    int index = 0;
    (bind(++index, values), ...);
    return *this;
  }
  /// Advances; true while a row is available.
  llvm::Expected<bool> step();
  /// Runs a statement that returns no rows, then resets it.
  llvm::Error run();
  /// Calls `onRow` for every row, then resets.
  llvm::Error forEachRow(llvm::function_ref<void(const Statement &)> onRow);
  /// Calls `onRow` for the first row if there is one, then resets.
  llvm::Error firstRow(llvm::function_ref<void(const Statement &)> onRow);
  void reset();
  int64_t getInt(int column) const;
  double getDouble(int column) const;
  std::string getText(int column) const;
  bool isNull(int column) const;
  /// The storage class of a column of the current row (SQLite's types are
  /// per value, not per column).
  enum class ValueType { Integer, Real, Text, Blob, Null };
  ValueType valueType(int column) const;
  int columnCount() const;
  std::string columnName(int column) const;
  /// True if running the statement cannot write to the database.
  bool isReadOnly() const;

private:
  /// Keeps the first failure of a bind round for step() to return.
  Statement &check(int rc);

  sqlite3_stmt *stmt;
  std::optional<StoreError> bindFailure;
};

struct WorkerRecord {
  std::string hostname, cpu, features, llvmVersion, dispatchlabCommit;
  int64_t cores = 0, slots = 0;
};

struct StoredModel {
  std::string name, extension, content;
};

class ResultStore {
public:
  enum class Access { ReadWrite, ReadOnly };
  /// Opens or creates the database at `path` and applies the schema; with
  /// `ReadOnly`, opens an existing database that nothing here can change
  /// (what reports and ad-hoc queries use). Either way the file must pass
  /// SQLite's quick_check, and `ReadWrite` must be able to write it: a
  /// damaged or read-only database is refused here, naming the file, rather
  /// than failing later mid-sweep.
  static llvm::Expected<std::unique_ptr<ResultStore>>
  open(const std::string &path, Access access = Access::ReadWrite);
  ~ResultStore();
  ResultStore(const ResultStore &) = delete;
  ResultStore &operator=(const ResultStore &) = delete;

  /// A cached prepared statement for `sql`, reset and unbound; SQL with no
  /// statement or a second statement after the first is refused
  /// (StoreError::Kind).
  llvm::Expected<Statement &> prepare(const std::string &sql);
  /// `sql` prepared with `values` bound to ?1, ?2, ..., ready to step.
  template <typename... Values>
  llvm::Expected<Statement &> query(const std::string &sql,
                                    const Values &...values) {
    llvm::Expected<Statement &> statement = prepare(sql);
    if (statement)
      statement->bindAll(values...);
    return statement;
  }
  /// Runs `sql`, which returns no rows, with `values` bound to ?1, ?2, ...
  template <typename... Values>
  llvm::Error run(const std::string &sql, const Values &...values) {
    llvm::Expected<Statement &> statement = query(sql, values...);
    if (!statement)
      return statement.takeError();
    return statement->run();
  }
  llvm::Error exec(const std::string &sql);

  /// Runs `body`, which returns llvm::Error or llvm::Expected<T>, in one
  /// IMMEDIATE transaction: committed if it succeeds, rolled back if it
  /// fails (and the log's space reclaimed when the disk is full).
  template <typename Fn> auto transaction(Fn &&body) -> decltype(body()) {
    if (llvm::Error error = begin())
      return std::move(error);
    if constexpr (std::is_same_v<decltype(body()), llvm::Error>) {
      return finish(body());
    } else {
      auto result = body();
      if (llvm::Error error = finish(result.takeError()))
        return std::move(error);
      return result;
    }
  }

  /// Copies the write-ahead log into the database and truncates it, when
  /// no reader is in the way: on a small full disk the log holds the space
  /// that later writes need.
  void reclaimLogSpace();

  int64_t lastInsertId() const;

  /// Stores model bytes under their hash (kept if already there).
  llvm::Error putModel(llvm::StringRef hash, llvm::StringRef name,
                       llvm::StringRef extension, llvm::StringRef content);
  llvm::Expected<std::optional<StoredModel>> getModel(llvm::StringRef hash);

  llvm::Expected<int64_t> addWorker(const WorkerRecord &worker, double now);
  llvm::Error touchWorker(int64_t workerId, double now);

  /// The id of the newest successful result stored for `contentKey`, if
  /// any: what a job of that key reuses.
  llvm::Expected<std::optional<int64_t>> findResult(llvm::StringRef contentKey);
  /// Adds a successful result and returns its id, with the CPU class and
  /// host `workerId` registered. Results are append-only: a rerun of a key
  /// adds a row, so jobs pointing at an earlier one keep their numbers. A
  /// comparison's A/A interval also becomes a row of noise_floors.
  llvm::Expected<int64_t> putResult(llvm::StringRef contentKey,
                                    llvm::StringRef statsJson,
                                    llvm::StringRef provenanceJson,
                                    int64_t workerId, double wallSeconds,
                                    double now);
  /// The noise floor that judges result `resultId`: its own A/A interval
  /// when it measured one, else the newest stored for the host and CPU
  /// class that produced it; nothing when there is none.
  llvm::Expected<std::optional<NoiseFloor>> noiseFloorFor(int64_t resultId);
  /// Rows changed by the last statement.
  int changes() const;
  /// SQLite's message for the last failure, without the statement text.
  std::string lastError() const;

  /// The file this store opened.
  const std::string &getPath() const { return path; }

  /// PRAGMA user_version from which a key may have several results.
  static constexpr int64_t kAppendOnlyResultsVersion = 1;
  /// The newest PRAGMA user_version this build writes; a newer database is
  /// not written (its schema may mean what this build cannot know).
  static constexpr int64_t kSchemaVersion = kAppendOnlyResultsVersion;

private:
  explicit ResultStore(const std::string &path) : path(path) {}
  llvm::Error connect(Access access);
  /// Journal settings and the schema of a database opened for writing.
  llvm::Error setUpForWriting();
  bool hasStatement(const char *sql);
  /// Fails unless PRAGMA quick_check finds the file sound.
  llvm::Error checkIntegrity();
  void close();
  /// Creates missing tables and columns and migrates older databases.
  llvm::Error applySchema();
  /// Renames a results table of schema version 0 (one result per key) for
  /// applySchema to copy into the append-only one.
  llvm::Error setOneResultPerKeyAside();
  /// The first column of the first row of `sql`, an integer.
  llvm::Expected<int64_t> queryInt(const std::string &sql);
  llvm::Error addMissingColumn(llvm::StringRef table, llvm::StringRef column,
                               llvm::StringRef declaration);
  llvm::Error begin();
  /// Commits unless `failure`; rolls back if that or the commit failed.
  llvm::Error finish(llvm::Error failure);
  void rollback();

  std::string path;
  sqlite3 *db = nullptr;
  std::map<std::string, std::unique_ptr<Statement>> statements;
};

/// The error of a job failed by `sweeps cancel` before it ran: written by
/// JobQueue, classified by reports ("cancelled").
inline constexpr llvm::StringLiteral kCancelledError = "cancelled";

/// Seconds since the Unix epoch: what lease deadlines are stored in, so they
/// survive a coordinator restart.
double unixNow();

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_RESULTSTORE_H

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

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace dispatchlab {

/// Any SQLite failure; the message names the statement's error.
class StoreError : public std::runtime_error {
public:
  explicit StoreError(const std::string &message, int code = 0)
      : std::runtime_error(message), code(code) {}
  /// SQLite's primary result code (SQLITE_FULL, ...); 0 when not from SQLite.
  int sqliteCode() const { return code; }
  /// The disk or the database's page limit is full: a later retry may work.
  bool isFull() const;
  /// Locked by another connection past the busy timeout.
  bool isBusy() const;
  /// The file turned read-only or the disk fails (I/O error) mid-run.
  bool isUnwritable() const;

private:
  int code;
};

/// SQL text holding no statement (empty, blanks, a comment, a lone ';').
class EmptyStatementError : public StoreError {
public:
  using StoreError::StoreError;
};

/// SQL text holding a second statement after the first: `prepare` runs one.
class SecondStatementError : public StoreError {
public:
  using StoreError::StoreError;
};

/// A prepared statement, reset on every `bind` round. Owned by the store.
class Statement {
public:
  explicit Statement(sqlite3_stmt *stmt) : stmt(stmt) {}
  /// Parameters are 1-based, as in SQLite.
  Statement &bind(int index, int64_t value);
  Statement &bind(int index, double value);
  Statement &bind(int index, llvm::StringRef text);
  Statement &bindBlob(int index, llvm::StringRef bytes);
  Statement &bindNull(int index);
  /// Advances; true while a row is available.
  bool step();
  /// Runs a statement that returns no rows, then resets it.
  void run();
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
  sqlite3_stmt *stmt;
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
  explicit ResultStore(const std::string &path,
                       Access access = Access::ReadWrite);
  ~ResultStore();
  ResultStore(const ResultStore &) = delete;
  ResultStore &operator=(const ResultStore &) = delete;

  /// A cached prepared statement for `sql`, reset and unbound; SQL with a
  /// second statement after the first is refused (SecondStatementError).
  Statement &prepare(const std::string &sql);
  void exec(const std::string &sql);

  /// Runs `body` in one IMMEDIATE transaction: committed if it returns,
  /// rolled back if it throws.
  template <typename Fn> auto transaction(Fn &&body) {
    begin();
    try {
      if constexpr (std::is_void_v<decltype(body())>) {
        body();
        commit();
      } else {
        auto result = body();
        commit();
        return result;
      }
    } catch (const StoreError &error) {
      rollback();
      if (error.isFull())
        reclaimLogSpace();
      throw;
    } catch (...) {
      rollback();
      throw;
    }
  }

  /// Copies the write-ahead log into the database and truncates it, when
  /// no reader is in the way: on a small full disk the log holds the space
  /// that later writes need.
  void reclaimLogSpace();

  int64_t lastInsertId() const;

  /// Stores model bytes under their hash (kept if already there).
  void putModel(llvm::StringRef hash, llvm::StringRef name,
                llvm::StringRef extension, llvm::StringRef content);
  std::optional<StoredModel> getModel(llvm::StringRef hash);

  int64_t addWorker(const WorkerRecord &worker, double now);
  void touchWorker(int64_t workerId, double now);

  /// The id of the newest successful result stored for `contentKey`, if
  /// any: what a job of that key reuses.
  std::optional<int64_t> findResult(llvm::StringRef contentKey);
  /// Adds a successful result and returns its id, with the CPU class and
  /// host `workerId` registered. Results are append-only: a rerun of a key
  /// adds a row, so jobs pointing at an earlier one keep their numbers. A
  /// comparison's A/A interval also becomes a row of noise_floors.
  int64_t putResult(llvm::StringRef contentKey, llvm::StringRef statsJson,
                    llvm::StringRef provenanceJson, int64_t workerId,
                    double wallSeconds, double now);
  /// The noise floor that judges result `resultId`: its own A/A interval
  /// when it measured one, else the newest stored for the host and CPU
  /// class that produced it; nothing when there is none.
  std::optional<NoiseFloor> noiseFloorFor(int64_t resultId);
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
  void open(Access access);
  bool hasStatement(const char *sql);
  /// Throws unless PRAGMA quick_check finds the file sound.
  void checkIntegrity();
  void close();
  /// Creates missing tables and columns and migrates older databases.
  void applySchema();
  int64_t schemaVersion();
  /// True for a results table of schema version 0 (one result per key).
  bool hasUniqueResultKeys();
  void addMissingColumn(llvm::StringRef table, llvm::StringRef column,
                        llvm::StringRef declaration);
  void begin();
  void commit();
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

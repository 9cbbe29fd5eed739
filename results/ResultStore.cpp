//===- ResultStore.cpp - the SQLite result database -----------------------===//

#include "results/ResultStore.h"

#include "results/Schema.h"

#include "llvm/Support/FormatVariadic.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>

namespace dispatchlab {

double unixNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

char StoreError::ID;

bool StoreError::isFull() const { return code == SQLITE_FULL; }
bool StoreError::isBusy() const {
  return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}
bool StoreError::isUnwritable() const {
  return code == SQLITE_READONLY || code == SQLITE_IOERR ||
         code == SQLITE_CANTOPEN;
}

/// How long a statement waits for another connection's lock before the
/// caller hears "database busy".
constexpr int kBusyTimeoutMs = 5000;

/// SQLite's message for the last failure on `db`, after the database's file
/// (the statement stays out: users read these, and SQL tells them nothing).
static std::string describeFailure(sqlite3 *db) {
  const char *file = sqlite3_db_filename(db, "main");
  if (!file || !*file)
    return llvm::formatv("sqlite: {0}", sqlite3_errmsg(db)).str();
  return llvm::formatv("database '{0}': {1}", file, sqlite3_errmsg(db)).str();
}

static bool failed(int rc) {
  return rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW;
}

static llvm::Error check(sqlite3 *db, int rc) {
  if (failed(rc))
    return llvm::make_error<StoreError>(describeFailure(db), rc & 0xff);
  return llvm::Error::success();
}

Statement &Statement::check(int rc) {
  if (failed(rc) && !bindFailure)
    bindFailure.emplace(describeFailure(sqlite3_db_handle(stmt)), rc & 0xff);
  return *this;
}

Statement &Statement::bind(int index, int64_t value) {
  return check(sqlite3_bind_int64(stmt, index, value));
}
Statement &Statement::bind(int index, double value) {
  return check(sqlite3_bind_double(stmt, index, value));
}
Statement &Statement::bind(int index, llvm::StringRef text) {
  return check(sqlite3_bind_text(stmt, index, text.data(), text.size(),
                                 SQLITE_TRANSIENT));
}
Statement &Statement::bind(int index, Blob blob) {
  return check(sqlite3_bind_blob(stmt, index, blob.bytes.data(),
                                 blob.bytes.size(), SQLITE_TRANSIENT));
}
Statement &Statement::bindNull(int index) {
  return check(sqlite3_bind_null(stmt, index));
}

llvm::Expected<bool> Statement::step() {
  if (bindFailure) {
    StoreError failure = std::move(*bindFailure);
    reset();
    return llvm::make_error<StoreError>(std::move(failure));
  }
  int rc = sqlite3_step(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    auto error = llvm::make_error<StoreError>(
        describeFailure(sqlite3_db_handle(stmt)), rc & 0xff);
    // Reset at once: left active, a failed statement keeps its read
    // transaction open until its next use.
    sqlite3_reset(stmt);
    return std::move(error);
  }
  return rc == SQLITE_ROW;
}

llvm::Error Statement::run() {
  return forEachRow([](const Statement &) {});
}

llvm::Error
Statement::forEachRow(llvm::function_ref<void(const Statement &)> onRow) {
  while (true) {
    llvm::Expected<bool> row = step();
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    onRow(*this);
  }
  reset();
  return llvm::Error::success();
}

llvm::Error
Statement::firstRow(llvm::function_ref<void(const Statement &)> onRow) {
  llvm::Expected<bool> row = step();
  if (!row)
    return row.takeError();
  if (*row)
    onRow(*this);
  reset();
  return llvm::Error::success();
}

void Statement::reset() {
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  bindFailure.reset();
}

int64_t Statement::getInt(int column) const {
  return sqlite3_column_int64(stmt, column);
}
double Statement::getDouble(int column) const {
  return sqlite3_column_double(stmt, column);
}
std::string Statement::getText(int column) const {
  const void *data = sqlite3_column_blob(stmt, column);
  int size = sqlite3_column_bytes(stmt, column);
  return data ? std::string(static_cast<const char *>(data), size)
              : std::string();
}
bool Statement::isNull(int column) const {
  return sqlite3_column_type(stmt, column) == SQLITE_NULL;
}
Statement::ValueType Statement::valueType(int column) const {
  switch (sqlite3_column_type(stmt, column)) {
  case SQLITE_INTEGER:
    return ValueType::Integer;
  case SQLITE_FLOAT:
    return ValueType::Real;
  case SQLITE_TEXT:
    return ValueType::Text;
  case SQLITE_BLOB:
    return ValueType::Blob;
  default:
    return ValueType::Null;
  }
}
int Statement::columnCount() const { return sqlite3_column_count(stmt); }
std::string Statement::columnName(int column) const {
  const char *name = sqlite3_column_name(stmt, column);
  return name ? name : "";
}
bool Statement::isReadOnly() const { return sqlite3_stmt_readonly(stmt); }

llvm::Expected<std::unique_ptr<ResultStore>>
ResultStore::open(const std::string &path, Access access) {
  // The destructor closes what a failed connect left open.
  std::unique_ptr<ResultStore> store(new ResultStore(path));
  if (llvm::Error error = store->connect(access))
    return std::move(error);
  return std::move(store);
}

llvm::Error ResultStore::connect(Access access) {
  int flags = access == Access::ReadOnly
                  ? SQLITE_OPEN_READONLY
                  : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  int rc =
      sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    return llvm::make_error<StoreError>(
        llvm::formatv("cannot open database '{0}': {1}", path, message).str(),
        rc & 0xff);
  }
  // Other processes (tests, sqlite3 shells, imports) may briefly lock the
  // file; past a few seconds the caller says so and retries, rather than
  // stalling silently.
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  if (llvm::Error error = checkIntegrity())
    return error;
  // Belt and braces: even a writable file cannot be changed through us.
  if (access == Access::ReadOnly)
    return exec("PRAGMA query_only=ON");
  // SQLite opens an unwritable file read-only without an error; writes
  // would fail only mid-sweep.
  if (sqlite3_db_readonly(db, "main") == 1)
    return llvm::make_error<StoreError>(
        llvm::formatv("{0}: attempt to write a readonly database", path).str(),
        SQLITE_READONLY);
  // A full disk says only "database or disk is full": name the file.
  return llvm::handleErrors(
      setUpForWriting(), [&](const StoreError &error) -> llvm::Error {
        return llvm::make_error<StoreError>(
            llvm::formatv("cannot set up database '{0}': {1}", path,
                          error.getMessage())
                .str(),
            error.sqliteCode());
      });
}

llvm::Error ResultStore::setUpForWriting() {
  // WAL with synchronous=NORMAL: a commit survives the process being killed
  // (what a coordinator restart needs), at a fraction of FULL's fsyncs. A
  // log of at most about 1 MB between checkpoints (SQLite's default is
  // 4 MB), so a sweep on a small disk still has room to recover once space
  // is freed.
  if (llvm::Error error =
          exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA "
               "wal_autocheckpoint=64; PRAGMA journal_size_limit=262144"))
    return error;
  if (llvm::Error error = transaction([&] { return applySchema(); }))
    return error;
  // After the schema: a migration rebuilds tables that jobs reference,
  // which SQLite allows only with foreign keys off (and the pragma only
  // outside a transaction).
  return exec("PRAGMA foreign_keys=ON");
}

llvm::Error ResultStore::checkIntegrity() {
  sqlite3_stmt *stmt = nullptr;
  std::string problem;
  int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &stmt, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    llvm::StringRef verdict(
        reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
    if (verdict != "ok")
      problem = verdict.str();
  } else if (rc != SQLITE_DONE) {
    problem = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  if (problem.empty())
    return llvm::Error::success();
  // One line: quick_check prefixes its first finding with a line of its own.
  llvm::StringRef finding = llvm::StringRef(problem).trim();
  finding.consume_front("*** in database main ***");
  std::string oneLine = finding.trim().str();
  std::replace(oneLine.begin(), oneLine.end(), '\n', ' ');
  return llvm::make_error<StoreError>(
      llvm::formatv("database '{0}' is damaged: {1} (restore a "
                    "backup, or try sqlite3's .recover)",
                    path, oneLine)
          .str(),
      SQLITE_CORRUPT);
}

/// Columns introduced since the first schema: CREATE TABLE IF NOT EXISTS
/// leaves tables of older databases as they were.
struct AddedColumn {
  const char *table, *column, *declaration;
};
static const AddedColumn kAddedColumns[] = {
    {"jobs", "cpu_class", "TEXT NOT NULL DEFAULT ''"},
    {"jobs", "forced", "INTEGER NOT NULL DEFAULT 0"},
    {"results", "cpu_class", "TEXT"},
    {"results", "hostname", "TEXT"},
};

llvm::Error ResultStore::applySchema() {
  llvm::Expected<int64_t> version = queryInt("PRAGMA user_version");
  if (!version)
    return version.takeError();
  if (*version > kSchemaVersion)
    return llvm::make_error<StoreError>(
        llvm::formatv("its schema version {0} is newer than this "
                      "dispatchlab's ({1}): use the dispatchlab "
                      "that wrote it",
                      *version, kSchemaVersion)
            .str(),
        SQLITE_MISMATCH);
  llvm::Expected<int64_t> uniqueKeys =
      *version < kAppendOnlyResultsVersion
          ? queryInt("SELECT COUNT(*) FROM pragma_index_list('results') "
                     "WHERE origin = 'u'")
          : 0;
  if (!uniqueKeys)
    return uniqueKeys.takeError();
  bool oneResultPerKey = *uniqueKeys != 0;
  if (oneResultPerKey)
    if (llvm::Error error = setOneResultPerKeyAside())
      return error;
  if (llvm::Error error = exec(kResultSchemaSql))
    return error;
  for (const AddedColumn &added : kAddedColumns)
    if (llvm::Error error =
            addMissingColumn(added.table, added.column, added.declaration))
      return error;
  if (oneResultPerKey)
    if (llvm::Error error = exec(
            "INSERT INTO results(id, content_key, stats_json, "
            "provenance_json, worker_id, wall_seconds, created_at, cpu_class, "
            "hostname) SELECT id, content_key, stats_json, provenance_json, "
            "worker_id, wall_seconds, created_at, cpu_class, hostname FROM "
            "results_one_per_key; DROP TABLE results_one_per_key"))
      return error;
  return exec(llvm::formatv("PRAGMA user_version = {0}", kSchemaVersion));
}

llvm::Error ResultStore::setOneResultPerKeyAside() {
  // Legacy mode: jobs keep referencing the name `results`, which the schema
  // then creates append-only.
  for (const char *column : {"cpu_class", "hostname"})
    if (llvm::Error error = addMissingColumn("results", column, "TEXT"))
      return error;
  return exec("PRAGMA legacy_alter_table=ON; ALTER TABLE results RENAME TO "
              "results_one_per_key; PRAGMA legacy_alter_table=OFF");
}

llvm::Expected<int64_t> ResultStore::queryInt(const std::string &sql) {
  llvm::Expected<Statement &> query = prepare(sql);
  if (!query)
    return query.takeError();
  int64_t value = 0;
  if (llvm::Error error =
          query->firstRow([&](const Statement &row) { value = row.getInt(0); }))
    return std::move(error);
  return value;
}

llvm::Error ResultStore::addMissingColumn(llvm::StringRef table,
                                          llvm::StringRef column,
                                          llvm::StringRef declaration) {
  llvm::Expected<Statement &> find =
      query("SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2", table,
            column);
  if (!find)
    return find.takeError();
  bool present = false;
  if (llvm::Error error = find->firstRow(
          [&](const Statement &row) { present = row.getInt(0) != 0; }))
    return error;
  if (present)
    return llvm::Error::success();
  return exec(llvm::formatv("ALTER TABLE {0} ADD COLUMN {1} {2}", table, column,
                            declaration));
}

ResultStore::~ResultStore() { close(); }

void ResultStore::close() {
  statements.clear();
  if (!db)
    return;
  // Finalize every cached statement before closing.
  while (sqlite3_stmt *stmt = sqlite3_next_stmt(db, nullptr))
    sqlite3_finalize(stmt);
  sqlite3_close(db);
  db = nullptr;
}

/// True if `sql` holds a statement, not only blanks, comments and ';' (one
/// that does not even parse counts: it is not nothing).
bool ResultStore::hasStatement(const char *sql) {
  sqlite3_stmt *next = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &next, nullptr);
  sqlite3_finalize(next);
  return rc != SQLITE_OK || next;
}

llvm::Expected<Statement &> ResultStore::prepare(const std::string &sql) {
  auto it = statements.find(sql);
  if (it == statements.end()) {
    sqlite3_stmt *stmt = nullptr;
    const char *tail = nullptr;
    if (llvm::Error error = check(
            db, sqlite3_prepare_v2(db, sql.c_str(), sql.size(), &stmt, &tail)))
      return std::move(error);
    if (!stmt)
      return llvm::make_error<StoreError>("no SQL statement in '" + sql + "'",
                                          0, StoreError::Kind::EmptyStatement);
    if (hasStatement(tail)) {
      sqlite3_finalize(stmt);
      return llvm::make_error<StoreError>(
          llvm::formatv("one statement at a time: '{0}' follows the first",
                        llvm::StringRef(tail).ltrim(" \t\r\n;").rtrim())
              .str(),
          0, StoreError::Kind::SecondStatement);
    }
    it = statements.emplace(sql, std::make_unique<Statement>(stmt)).first;
  }
  it->second->reset();
  return *it->second;
}

llvm::Error ResultStore::exec(const std::string &sql) {
  char *message = nullptr;
  if (int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
      rc != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    return llvm::make_error<StoreError>(
        llvm::formatv("sqlite: {0}", text).str(), rc & 0xff);
  }
  return llvm::Error::success();
}

llvm::Error ResultStore::begin() { return exec("BEGIN IMMEDIATE"); }

llvm::Error ResultStore::finish(llvm::Error failure) {
  if (!failure)
    failure = exec("COMMIT");
  if (!failure)
    return llvm::Error::success();
  rollback();
  return llvm::handleErrors(
      std::move(failure),
      [&](std::unique_ptr<StoreError> error) -> llvm::Error {
        if (error->isFull())
          reclaimLogSpace();
        return llvm::Error(std::move(error));
      });
}

void ResultStore::rollback() {
  if (!sqlite3_get_autocommit(db))
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void ResultStore::reclaimLogSpace() {
  // Never wait for readers here: the caller is failing a write already.
  sqlite3_busy_timeout(db, 0);
  sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                            nullptr);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
}

int ResultStore::changes() const { return sqlite3_changes(db); }

std::string ResultStore::lastError() const { return sqlite3_errmsg(db); }

int64_t ResultStore::lastInsertId() const {
  return sqlite3_last_insert_rowid(db);
}

llvm::Error ResultStore::putModel(llvm::StringRef hash, llvm::StringRef name,
                                  llvm::StringRef extension,
                                  llvm::StringRef content) {
  return run("INSERT OR IGNORE INTO models(hash, name, extension, content) "
             "VALUES (?1, ?2, ?3, ?4)",
             hash, name, extension, Blob{content});
}

llvm::Expected<std::optional<StoredModel>>
ResultStore::getModel(llvm::StringRef hash) {
  llvm::Expected<Statement &> query = this->query(
      "SELECT name, extension, content FROM models WHERE hash = ?1", hash);
  if (!query)
    return query.takeError();
  std::optional<StoredModel> model;
  if (llvm::Error error = query->firstRow([&](const Statement &row) {
        model = StoredModel{row.getText(0), row.getText(1), row.getText(2)};
      }))
    return std::move(error);
  return model;
}

llvm::Expected<int64_t> ResultStore::addWorker(const WorkerRecord &worker,
                                               double now) {
  if (llvm::Error error =
          run("INSERT INTO workers(hostname, cpu, cores, features, "
              "llvm_version, dispatchlab_commit, slots, registered_at, "
              "last_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
              worker.hostname, worker.cpu, worker.cores, worker.features,
              worker.llvmVersion, worker.dispatchlabCommit, worker.slots, now))
    return std::move(error);
  return lastInsertId();
}

llvm::Error ResultStore::touchWorker(int64_t workerId, double now) {
  return run("UPDATE workers SET last_seen = ?2 WHERE id = ?1", workerId, now);
}

llvm::Expected<std::optional<int64_t>>
ResultStore::findResult(llvm::StringRef contentKey) {
  llvm::Expected<Statement &> query = this->query(
      "SELECT MAX(id) FROM results WHERE content_key = ?1", contentKey);
  if (!query)
    return query.takeError();
  std::optional<int64_t> id;
  if (llvm::Error error = query->firstRow([&](const Statement &row) {
        if (!row.isNull(0))
          id = row.getInt(0);
      }))
    return std::move(error);
  return id;
}

llvm::Expected<int64_t> ResultStore::putResult(llvm::StringRef contentKey,
                                               llvm::StringRef statsJson,
                                               llvm::StringRef provenanceJson,
                                               int64_t workerId,
                                               double wallSeconds, double now) {
  if (llvm::Error error = run(
          "INSERT INTO results(content_key, stats_json, provenance_json, "
          "worker_id, wall_seconds, created_at, cpu_class, hostname) "
          "SELECT ?1, ?2, ?3, ?4, ?5, ?6, w.cpu, w.hostname FROM (SELECT "
          "1) LEFT JOIN workers w ON w.id = ?4",
          contentKey, statsJson, provenanceJson, workerId, wallSeconds, now))
    return std::move(error);
  int64_t id = lastInsertId();
  // The JSON paths are results.proto's CompileStats.comparison.noise_floor.
  if (llvm::Error error = run(
          "INSERT INTO noise_floors(result_id, hostname, cpu_class, rounds, "
          "median, ci_low, ci_high, created_at) SELECT id, hostname, "
          "cpu_class, json_extract(stats_json, '$.comparison.noise_floor."
          "rounds'), json_extract(stats_json, '$.comparison.noise_floor."
          "median'), json_extract(stats_json, '$.comparison.noise_floor."
          "ci_low'), json_extract(stats_json, '$.comparison.noise_floor."
          "ci_high'), created_at FROM results WHERE id = ?1 AND CASE WHEN "
          "json_valid(stats_json) THEN json_type(stats_json, "
          "'$.comparison.noise_floor.median') END IN ('real', 'integer')",
          id))
    return std::move(error);
  return id;
}

llvm::Expected<std::optional<NoiseFloor>>
ResultStore::noiseFloorFor(int64_t resultId) {
  llvm::Expected<Statement &> query = this->query(
      "SELECT f.result_id, COALESCE(f.hostname, ''), "
      "COALESCE(f.cpu_class, ''), f.rounds, f.median, f.ci_low, f.ci_high "
      "FROM noise_floors f JOIN results r ON r.id = ?1 "
      "WHERE f.hostname IS r.hostname AND f.cpu_class IS r.cpu_class "
      "ORDER BY f.result_id = r.id DESC, f.result_id DESC LIMIT 1",
      resultId);
  if (!query)
    return query.takeError();
  std::optional<NoiseFloor> floor;
  if (llvm::Error error = query->firstRow([&](const Statement &row) {
        floor = NoiseFloor{row.getInt(0),   row.getText(1),   row.getText(2),
                           row.getInt(3),   row.getDouble(4), row.getDouble(5),
                           row.getDouble(6)};
      }))
    return std::move(error);
  return floor;
}

} // namespace dispatchlab

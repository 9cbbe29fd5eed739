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

static void check(sqlite3 *db, int rc) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
    throw StoreError(describeFailure(db), rc & 0xff);
}

Statement &Statement::bind(int index, int64_t value) {
  check(sqlite3_db_handle(stmt), sqlite3_bind_int64(stmt, index, value));
  return *this;
}
Statement &Statement::bind(int index, double value) {
  check(sqlite3_db_handle(stmt), sqlite3_bind_double(stmt, index, value));
  return *this;
}
Statement &Statement::bind(int index, llvm::StringRef text) {
  check(sqlite3_db_handle(stmt),
        sqlite3_bind_text(stmt, index, text.data(), text.size(),
                          SQLITE_TRANSIENT));
  return *this;
}
Statement &Statement::bindBlob(int index, llvm::StringRef bytes) {
  check(sqlite3_db_handle(stmt),
        sqlite3_bind_blob(stmt, index, bytes.data(), bytes.size(),
                          SQLITE_TRANSIENT));
  return *this;
}
Statement &Statement::bindNull(int index) {
  check(sqlite3_db_handle(stmt), sqlite3_bind_null(stmt, index));
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    StoreError error(describeFailure(sqlite3_db_handle(stmt)), rc & 0xff);
    // Reset at once: left active, a failed statement keeps its read
    // transaction open until its next use.
    sqlite3_reset(stmt);
    throw error;
  }
  return rc == SQLITE_ROW;
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
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

ResultStore::ResultStore(const std::string &path, Access access) : path(path) {
  // A throwing constructor runs no destructor: close the handle here.
  try {
    open(access);
  } catch (...) {
    close();
    throw;
  }
}

void ResultStore::open(Access access) {
  int flags = access == Access::ReadOnly
                  ? SQLITE_OPEN_READONLY
                  : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  int rc =
      sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    throw StoreError(
        llvm::formatv("cannot open database '{0}': {1}", path, message).str(),
        rc & 0xff);
  }
  // Other processes (tests, sqlite3 shells, imports) may briefly lock the
  // file; past a few seconds the caller says so and retries, rather than
  // stalling silently.
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  checkIntegrity();
  if (access == Access::ReadOnly) {
    // Belt and braces: even a writable file cannot be changed through us.
    exec("PRAGMA query_only=ON");
    return;
  }
  // SQLite opens an unwritable file read-only without an error; writes
  // would fail only mid-sweep.
  if (sqlite3_db_readonly(db, "main") == 1)
    throw StoreError(
        llvm::formatv("{0}: attempt to write a readonly database", path).str(),
        SQLITE_READONLY);
  // WAL with synchronous=NORMAL: a commit survives the process being killed
  // (what a coordinator restart needs), at a fraction of FULL's fsyncs.
  try {
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    // A log of at most about 1 MB between checkpoints (SQLite's default is
    // 4 MB), so a sweep on a small disk still has room to recover once
    // space is freed.
    exec("PRAGMA wal_autocheckpoint=64");
    exec("PRAGMA journal_size_limit=262144");
    transaction([&] { applySchema(); });
    // After the schema: a migration rebuilds tables that jobs reference,
    // which SQLite allows only with foreign keys off (and the pragma only
    // outside a transaction).
    exec("PRAGMA foreign_keys=ON");
  } catch (const StoreError &e) {
    // A full disk says only "database or disk is full": name the file.
    throw StoreError(
        llvm::formatv("cannot set up database '{0}': {1}", path, e.what())
            .str(),
        e.sqliteCode());
  }
}

void ResultStore::checkIntegrity() {
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
    return;
  // One line: quick_check prefixes its first finding with a line of its own.
  llvm::StringRef finding = llvm::StringRef(problem).trim();
  finding.consume_front("*** in database main ***");
  std::string oneLine = finding.trim().str();
  std::replace(oneLine.begin(), oneLine.end(), '\n', ' ');
  throw StoreError(llvm::formatv("database '{0}' is damaged: {1} (restore a "
                                 "backup, or try sqlite3's .recover)",
                                 path, oneLine)
                       .str(),
                   SQLITE_CORRUPT);
}

void ResultStore::applySchema() {
  int64_t version = schemaVersion();
  if (version > kSchemaVersion)
    throw StoreError(llvm::formatv("its schema version {0} is newer than this "
                                   "dispatchlab's ({1}): use the dispatchlab "
                                   "that wrote it",
                                   version, kSchemaVersion)
                         .str(),
                     SQLITE_MISMATCH);
  bool oneResultPerKey =
      version < kAppendOnlyResultsVersion && hasUniqueResultKeys();
  if (oneResultPerKey) {
    // Set the old table aside (legacy mode: jobs keep referencing the name
    // `results`, which the schema then creates append-only).
    addMissingColumn("results", "cpu_class", "TEXT");
    addMissingColumn("results", "hostname", "TEXT");
    exec("PRAGMA legacy_alter_table=ON");
    exec("ALTER TABLE results RENAME TO results_one_per_key");
    exec("PRAGMA legacy_alter_table=OFF");
  }
  exec(kResultSchemaSql);
  // CREATE TABLE IF NOT EXISTS leaves tables of older databases as they
  // were: add the columns introduced since.
  addMissingColumn("jobs", "cpu_class", "TEXT NOT NULL DEFAULT ''");
  addMissingColumn("jobs", "forced", "INTEGER NOT NULL DEFAULT 0");
  addMissingColumn("results", "cpu_class", "TEXT");
  addMissingColumn("results", "hostname", "TEXT");
  if (oneResultPerKey)
    exec("INSERT INTO results(id, content_key, stats_json, provenance_json, "
         "worker_id, wall_seconds, created_at, cpu_class, hostname) SELECT "
         "id, content_key, stats_json, provenance_json, worker_id, "
         "wall_seconds, created_at, cpu_class, hostname FROM "
         "results_one_per_key; DROP TABLE results_one_per_key");
  exec(llvm::formatv("PRAGMA user_version = {0}", kSchemaVersion));
}

int64_t ResultStore::schemaVersion() {
  Statement &query = prepare("PRAGMA user_version");
  query.step();
  int64_t version = query.getInt(0);
  query.reset();
  return version;
}

bool ResultStore::hasUniqueResultKeys() {
  Statement &query = prepare(
      "SELECT COUNT(*) FROM pragma_index_list('results') WHERE origin = 'u'");
  query.step();
  bool unique = query.getInt(0) != 0;
  query.reset();
  return unique;
}

void ResultStore::addMissingColumn(llvm::StringRef table,
                                   llvm::StringRef column,
                                   llvm::StringRef declaration) {
  Statement &find =
      prepare("SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2");
  find.bind(1, table).bind(2, column);
  find.step();
  bool present = find.getInt(0) != 0;
  find.reset();
  if (!present)
    exec(llvm::formatv("ALTER TABLE {0} ADD COLUMN {1} {2}", table, column,
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

Statement &ResultStore::prepare(const std::string &sql) {
  auto it = statements.find(sql);
  if (it == statements.end()) {
    sqlite3_stmt *stmt = nullptr;
    const char *tail = nullptr;
    check(db, sqlite3_prepare_v2(db, sql.c_str(), sql.size(), &stmt, &tail));
    if (!stmt)
      throw EmptyStatementError("no SQL statement in '" + sql + "'");
    if (hasStatement(tail)) {
      sqlite3_finalize(stmt);
      throw SecondStatementError(
          llvm::formatv("one statement at a time: '{0}' follows the first",
                        llvm::StringRef(tail).ltrim(" \t\r\n;").rtrim())
              .str());
    }
    it = statements.emplace(sql, std::make_unique<Statement>(stmt)).first;
  }
  it->second->reset();
  return *it->second;
}

void ResultStore::exec(const std::string &sql) {
  char *message = nullptr;
  if (int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
      rc != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw StoreError(llvm::formatv("sqlite: {0}", text).str(), rc & 0xff);
  }
}

void ResultStore::begin() { exec("BEGIN IMMEDIATE"); }
void ResultStore::commit() { exec("COMMIT"); }
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

void ResultStore::putModel(llvm::StringRef hash, llvm::StringRef name,
                           llvm::StringRef extension, llvm::StringRef content) {
  prepare("INSERT OR IGNORE INTO models(hash, name, extension, content) "
          "VALUES (?1, ?2, ?3, ?4)")
      .bind(1, hash)
      .bind(2, name)
      .bind(3, extension)
      .bindBlob(4, content)
      .run();
}

std::optional<StoredModel> ResultStore::getModel(llvm::StringRef hash) {
  Statement &query =
      prepare("SELECT name, extension, content FROM models WHERE hash = ?1");
  query.bind(1, hash);
  std::optional<StoredModel> model;
  if (query.step())
    model = StoredModel{query.getText(0), query.getText(1), query.getText(2)};
  query.reset();
  return model;
}

int64_t ResultStore::addWorker(const WorkerRecord &worker, double now) {
  prepare("INSERT INTO workers(hostname, cpu, cores, features, llvm_version, "
          "dispatchlab_commit, slots, registered_at, last_seen) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)")
      .bind(1, worker.hostname)
      .bind(2, worker.cpu)
      .bind(3, worker.cores)
      .bind(4, worker.features)
      .bind(5, worker.llvmVersion)
      .bind(6, worker.dispatchlabCommit)
      .bind(7, worker.slots)
      .bind(8, now)
      .run();
  return lastInsertId();
}

void ResultStore::touchWorker(int64_t workerId, double now) {
  prepare("UPDATE workers SET last_seen = ?2 WHERE id = ?1")
      .bind(1, workerId)
      .bind(2, now)
      .run();
}

std::optional<int64_t> ResultStore::findResult(llvm::StringRef contentKey) {
  Statement &query = prepare("SELECT MAX(id) FROM results WHERE content_key = "
                             "?1");
  query.bind(1, contentKey);
  std::optional<int64_t> id;
  if (query.step() && !query.isNull(0))
    id = query.getInt(0);
  query.reset();
  return id;
}

int64_t ResultStore::putResult(llvm::StringRef contentKey,
                               llvm::StringRef statsJson,
                               llvm::StringRef provenanceJson, int64_t workerId,
                               double wallSeconds, double now) {
  prepare("INSERT INTO results(content_key, stats_json, provenance_json, "
          "worker_id, wall_seconds, created_at, cpu_class, hostname) "
          "SELECT ?1, ?2, ?3, ?4, ?5, ?6, w.cpu, w.hostname FROM (SELECT 1) "
          "LEFT JOIN workers w ON w.id = ?4")
      .bind(1, contentKey)
      .bind(2, statsJson)
      .bind(3, provenanceJson)
      .bind(4, workerId)
      .bind(5, wallSeconds)
      .bind(6, now)
      .run();
  int64_t id = lastInsertId();
  // The JSON paths are results.proto's CompileStats.comparison.noise_floor.
  prepare("INSERT INTO noise_floors(result_id, hostname, cpu_class, rounds, "
          "median, ci_low, ci_high, created_at) SELECT id, hostname, "
          "cpu_class, json_extract(stats_json, '$.comparison.noise_floor."
          "rounds'), json_extract(stats_json, '$.comparison.noise_floor."
          "median'), json_extract(stats_json, '$.comparison.noise_floor."
          "ci_low'), json_extract(stats_json, '$.comparison.noise_floor."
          "ci_high'), created_at FROM results WHERE id = ?1 AND CASE WHEN "
          "json_valid(stats_json) THEN json_type(stats_json, "
          "'$.comparison.noise_floor.median') END IN ('real', 'integer')")
      .bind(1, id)
      .run();
  return id;
}

std::optional<NoiseFloor> ResultStore::noiseFloorFor(int64_t resultId) {
  Statement &query = prepare(
      "SELECT f.result_id, COALESCE(f.hostname, ''), "
      "COALESCE(f.cpu_class, ''), f.rounds, f.median, f.ci_low, f.ci_high "
      "FROM noise_floors f JOIN results r ON r.id = ?1 "
      "WHERE f.hostname IS r.hostname AND f.cpu_class IS r.cpu_class "
      "ORDER BY f.result_id = r.id DESC, f.result_id DESC LIMIT 1");
  query.bind(1, resultId);
  std::optional<NoiseFloor> floor;
  if (query.step())
    floor =
        NoiseFloor{query.getInt(0),   query.getText(1),   query.getText(2),
                   query.getInt(3),   query.getDouble(4), query.getDouble(5),
                   query.getDouble(6)};
  query.reset();
  return floor;
}

} // namespace dispatchlab

-- dispatchlab's result database (SQLite, WAL). Loaded by ResultStore at open;
-- every statement is idempotent so opening an existing database is a no-op.
--
-- A job is one (model x variant) of a sweep. Its content key hashes what
-- determines the answer: model bytes, resolved options text, measurement
-- settings, job kind, dispatchlab commit + LLVM version and, for run jobs,
-- the CPU class they are measured on (only workers of that class lease them).
-- Results are append-only: every successful run adds a row, and a job points
-- at the result it produced or reused, so a rerun never changes what an
-- earlier sweep measured. A job whose key has a result, or is being run by
-- another sweep's job, reuses the newest result of the key (state 'cached')
-- unless its sweep is forced.
--
-- PRAGMA user_version is the schema version: 0 before results were
-- append-only (one per key, replaced by a rerun), 1 since. ResultStore
-- migrates older databases when it opens them for writing.

-- Model files as submitted: workers get the bytes with each lease, so they
-- need no shared file system.
CREATE TABLE IF NOT EXISTS models (
  hash TEXT PRIMARY KEY,          -- SHA-256 of content, hex
  name TEXT NOT NULL,             -- as first submitted
  extension TEXT NOT NULL,        -- .mlir / .onnx
  content BLOB NOT NULL
);

-- One row per distinct spec; resubmitting the same spec resumes it.
CREATE TABLE IF NOT EXISTS sweeps (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  spec_hash TEXT NOT NULL,        -- SHA-256 of the spec and model hashes
  spec_text TEXT NOT NULL,        -- protobuf text format, models resolved
  submitted_at REAL NOT NULL      -- unix seconds
);
CREATE INDEX IF NOT EXISTS sweeps_by_hash ON sweeps(spec_hash);

CREATE TABLE IF NOT EXISTS workers (
  id INTEGER PRIMARY KEY,
  hostname TEXT NOT NULL,
  cpu TEXT NOT NULL,
  cores INTEGER NOT NULL,
  features TEXT NOT NULL,
  llvm_version TEXT NOT NULL,
  dispatchlab_commit TEXT NOT NULL,
  slots INTEGER NOT NULL,
  registered_at REAL NOT NULL,
  last_seen REAL NOT NULL
);

-- Successful results, any number per content key (the newest is reused).
CREATE TABLE IF NOT EXISTS results (
  id INTEGER PRIMARY KEY,
  content_key TEXT NOT NULL,
  stats_json TEXT NOT NULL,       -- `compile --emit=stats` output (run jobs: plus "run")
  provenance_json TEXT NOT NULL,  -- commit, LLVM, host CPU, features
  worker_id INTEGER REFERENCES workers(id),
  wall_seconds REAL NOT NULL,
  created_at REAL NOT NULL,
  -- The worker that produced it, as it registered (NULL before these
  -- columns existed).
  cpu_class TEXT,
  hostname TEXT
);
CREATE INDEX IF NOT EXISTS results_by_key ON results(content_key, id);

-- The noise floor of a host and CPU class: the A/A interval (a COMPARE
-- job's baseline timed against a copy of itself, measurement.aa) of every
-- result that measured one, added with the result by
-- ResultStore::putResult and read back by ResultStore::noiseFloorFor only.
-- Append-only like results.
CREATE TABLE IF NOT EXISTS noise_floors (
  result_id INTEGER PRIMARY KEY REFERENCES results(id),
  hostname TEXT,
  cpu_class TEXT,
  rounds INTEGER NOT NULL,
  median REAL NOT NULL,           -- A/A ratio, results.proto's PairedRatio
  ci_low REAL NOT NULL,
  ci_high REAL NOT NULL,
  created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS noise_floors_by_host
  ON noise_floors(hostname, cpu_class, result_id);

CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY,
  sweep_id INTEGER NOT NULL REFERENCES sweeps(id),
  content_key TEXT NOT NULL,
  model_hash TEXT NOT NULL REFERENCES models(hash),
  model_name TEXT NOT NULL,
  variant TEXT NOT NULL,
  kind INTEGER NOT NULL,          -- dispatchlab.sweep.JobKind
  preset TEXT NOT NULL,
  options TEXT NOT NULL,          -- HeuristicOptions::toString()
  measurement TEXT NOT NULL,      -- dispatchlab.sweep.Measurement, binary
  -- Only workers of this CPU class lease the job ('' for any: compile and
  -- test jobs, whose results do not depend on the CPU).
  cpu_class TEXT NOT NULL DEFAULT '',
  -- pending -> leased -> done | failed; pending -> cached at submission
  -- or when another sweep's job of the same key succeeds.
  -- An expired lease or an infrastructure error sends the job back to
  -- pending (after a backoff) until `attempts` reaches the cap.
  state TEXT NOT NULL CHECK (state IN
    ('pending', 'leased', 'done', 'failed', 'cached')),
  -- Leases handed out; lease ids are 1, 2, ... per job, so the latest is
  -- `attempts` and a report of any of them is accepted once.
  attempts INTEGER NOT NULL DEFAULT 0,
  worker_id INTEGER REFERENCES workers(id),
  lease_deadline REAL,
  not_before REAL NOT NULL DEFAULT 0,   -- retry backoff
  result_id INTEGER REFERENCES results(id),
  -- Failures: what the worker saw (and the provenance it ran under).
  error TEXT,
  exit_code INTEGER,
  signal INTEGER,
  stderr_tail TEXT,
  provenance_json TEXT,
  finished_at REAL,
  -- Submitted with --force: measured again even if the key has a result
  -- or another job of the key is running.
  forced INTEGER NOT NULL DEFAULT 0,
  UNIQUE (sweep_id, content_key)
);
CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs(state, id);
CREATE INDEX IF NOT EXISTS jobs_by_key ON jobs(content_key, state);
CREATE INDEX IF NOT EXISTS jobs_by_sweep ON jobs(sweep_id, state);


// The database schema as an ordered list of migrations: migration i brings a
// database from schema version i to i + 1. Append, never edit. One text
// serves both engines: it is written in SQLite's dialect, and
// migration_sql gives PostgreSQL's by a few fixed substitutions (REAL is
// DOUBLE PRECISION; an INTEGER PRIMARY KEY is an identity; every table gets
// the `rowid` column SQLite has implicitly).
#pragma once

#include <array>
#include <string>

#include "store/sql.h"

namespace kmem::store {

inline constexpr std::array<const char*, 7> kMigrations = {
    R"sql(
CREATE TABLE store (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  author TEXT NOT NULL,
  score_cap REAL NOT NULL,
  has_targets INTEGER NOT NULL
);
CREATE TABLE readers (id TEXT PRIMARY KEY, display TEXT NOT NULL);
CREATE TABLE problems (
  id TEXT PRIMARY KEY,
  level INTEGER NOT NULL,
  number INTEGER NOT NULL,
  name TEXT NOT NULL,
  category TEXT NOT NULL
);
CREATE TABLE targets (position INTEGER PRIMARY KEY, problem_id TEXT NOT NULL REFERENCES problems(id));
CREATE TABLE items (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('lesson', 'pitfall', 'recipe', 'kernel')),
  category TEXT,
  item_order INTEGER,
  source TEXT REFERENCES problems(id),
  speedup REAL,
  text TEXT,
  text_no_numbers TEXT,
  code TEXT
);
CREATE INDEX items_by_category ON items(kind, category);
CREATE TABLE item_labels (
  item_id TEXT NOT NULL REFERENCES items(id),
  position INTEGER NOT NULL,
  label TEXT NOT NULL,
  PRIMARY KEY (item_id, position)
);
CREATE TABLE problem_baselines (
  reader_id TEXT NOT NULL REFERENCES readers(id),
  problem_id TEXT NOT NULL REFERENCES problems(id),
  score REAL NOT NULL,
  PRIMARY KEY (reader_id, problem_id)
);
CREATE TABLE group_baselines (
  reader_id TEXT NOT NULL REFERENCES readers(id),
  group_key TEXT NOT NULL,
  score REAL NOT NULL,
  PRIMARY KEY (reader_id, group_key)
);
)sql",
    // 2: a reader may have a baseline entry that holds no value yet; keep it.
    R"sql(
ALTER TABLE readers ADD COLUMN has_baseline INTEGER NOT NULL DEFAULT 0;
UPDATE readers SET has_baseline = 1 WHERE id IN
  (SELECT reader_id FROM problem_baselines UNION SELECT reader_id FROM group_baselines);
)sql",
    // 3: experiments and their episodes, turns and evaluations
    // (docs/experiments.md). An episode is keyed by (experiment, reader,
    // policy, problem, sample) and written with its turns in one transaction.
    R"sql(
CREATE TABLE experiments (
  id TEXT PRIMARY KEY,
  spec TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE episodes (
  id INTEGER PRIMARY KEY,
  experiment_id TEXT NOT NULL REFERENCES experiments(id),
  reader TEXT NOT NULL,
  policy TEXT NOT NULL,
  problem_id TEXT NOT NULL,
  sample INTEGER NOT NULL,
  category TEXT NOT NULL,
  level INTEGER NOT NULL,
  model TEXT NOT NULL,
  device TEXT NOT NULL,
  max_turns INTEGER NOT NULL,
  end_reason TEXT NOT NULL,
  submitted INTEGER NOT NULL,
  correct INTEGER NOT NULL,
  score REAL NOT NULL,
  speedup REAL NOT NULL,
  best_turn INTEGER,
  best_speedup REAL NOT NULL,
  best_candidate TEXT NOT NULL,
  memory_text TEXT NOT NULL,
  shown_item_ids TEXT NOT NULL,
  prompt TEXT NOT NULL,
  error TEXT NOT NULL,
  wall_s REAL NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  finished_at TEXT NOT NULL,
  UNIQUE (experiment_id, reader, policy, problem_id, sample)
);
CREATE TABLE turns (
  episode_id INTEGER NOT NULL REFERENCES episodes(id),
  turn INTEGER NOT NULL,
  action TEXT NOT NULL,
  verdict TEXT NOT NULL,
  stage TEXT NOT NULL,
  message TEXT NOT NULL,
  reply TEXT NOT NULL,
  feedback TEXT NOT NULL,
  request TEXT NOT NULL,
  response TEXT NOT NULL,
  http_status INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  latency_s REAL NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  error TEXT NOT NULL,
  PRIMARY KEY (episode_id, turn)
);
CREATE TABLE evaluations (
  episode_id INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  candidate TEXT NOT NULL,
  verdict TEXT NOT NULL,
  message TEXT NOT NULL,
  detail TEXT NOT NULL,
  log_tail TEXT NOT NULL,
  reference_ms REAL,
  candidate_ms REAL,
  speedup REAL NOT NULL,
  score REAL NOT NULL,
  max_abs_error REAL NOT NULL,
  max_rel_error REAL NOT NULL,
  flags TEXT NOT NULL,
  eval_s REAL NOT NULL,
  PRIMARY KEY (episode_id, turn),
  FOREIGN KEY (episode_id, turn) REFERENCES turns(episode_id, turn)
);
)sql",
    // 4: learning (docs/learning.md): each item's state and provenance (the
    // seed's keep origin 'seed', state 'active'), its history of changes, and
    // where each problem baseline came from.
    R"sql(
ALTER TABLE items ADD COLUMN state TEXT NOT NULL DEFAULT 'active'
  CHECK (state IN ('candidate', 'active', 'retired'));
ALTER TABLE items ADD COLUMN origin TEXT NOT NULL DEFAULT 'seed';
ALTER TABLE items ADD COLUMN reader TEXT NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN evaluator TEXT NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN gpu TEXT NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN verified_at TEXT NOT NULL DEFAULT '';
CREATE TABLE item_history (
  item_id TEXT NOT NULL REFERENCES items(id),
  position INTEGER NOT NULL,
  at TEXT NOT NULL,
  action TEXT NOT NULL,
  reason TEXT NOT NULL,
  from_state TEXT NOT NULL,
  to_state TEXT NOT NULL,
  speedup_before REAL,
  speedup_after REAL,
  PRIMARY KEY (item_id, position)
);
CREATE TABLE baseline_provenance (
  reader_id TEXT NOT NULL REFERENCES readers(id),
  problem_id TEXT NOT NULL REFERENCES problems(id),
  origin TEXT NOT NULL,
  reader TEXT NOT NULL,
  evaluator TEXT NOT NULL,
  gpu TEXT NOT NULL,
  verified_at TEXT NOT NULL,
  PRIMARY KEY (reader_id, problem_id)
);
)sql",
    // 5: each evaluation's torch.compile baseline (docs/evaluator.md,
    // "Baselines"); NULL where there was none.
    R"sql(
ALTER TABLE evaluations ADD COLUMN compile_ms REAL;
)sql",
    // 6: confidence (docs/learning.md, "Confidence"): every verified speedup
    // of a kernel item, and each item's measured value per reader.
    R"sql(
CREATE TABLE item_measurements (
  item_id TEXT NOT NULL REFERENCES items(id),
  position INTEGER NOT NULL,
  at TEXT NOT NULL,
  speedup REAL NOT NULL,
  gpu TEXT NOT NULL,
  evaluator TEXT NOT NULL,
  reference_retimed INTEGER NOT NULL CHECK (reference_retimed IN (0, 1)),
  PRIMARY KEY (item_id, position)
);
CREATE TABLE item_values (
  item_id TEXT NOT NULL REFERENCES items(id),
  reader TEXT NOT NULL,
  experiment TEXT NOT NULL,
  problems INTEGER NOT NULL,
  difference REAL NOT NULL,
  PRIMARY KEY (item_id, reader)
);
)sql",
    // 7: the job queue (docs/scale-out.md): evaluation jobs and episodes that
    // workers claim under a lease. Times are seconds since the epoch on the
    // database's clock; `claims` counts claims (a lease's token), `attempts`
    // the claims that did not end in a release.
    R"sql(
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('eval', 'episode')),
  batch TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'claimed', 'done', 'failed')),
  lease_owner TEXT NOT NULL DEFAULT '',
  lease_expires_at REAL NOT NULL DEFAULT 0,
  heartbeat_at REAL NOT NULL DEFAULT 0,
  claims INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  outcome TEXT NOT NULL DEFAULT '',
  error TEXT NOT NULL DEFAULT '',
  created_at REAL NOT NULL,
  finished_at REAL NOT NULL DEFAULT 0
);
CREATE INDEX jobs_claimable ON jobs(kind, state, id);
CREATE INDEX jobs_by_batch ON jobs(batch, id);
)sql",
};

// Migration `index` (0 for the first) in the dialect of `dialect`.
std::string migration_sql(size_t index, sql::Dialect dialect);

}  // namespace kmem::store

// The database schema as an ordered list of migrations: migration i brings a
// database from PRAGMA user_version i to i + 1. Append, never edit.
#pragma once

#include <array>

namespace kmem {

inline constexpr std::array<const char*, 2> kMigrations = {
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
};

}  // namespace kmem

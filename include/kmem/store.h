// The memory store: the kmem-memory-store/1 JSON format and the SQLite
// database that holds the same content. Both convert to and from kmem::Memory;
// nothing else in kmem reads or writes them. Every load validates fully and
// names the file and entry at fault; a database is only ever changed in one
// transaction, so a refused import leaves it as it was.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem {

struct EpisodeOutcome;  // kmem/episode.h

// An episode's place in an experiment's matrix (docs/experiments.md): an
// experiment holds at most one episode per key.
struct EpisodeKey {
  std::string reader, policy, problem;
  int sample = 0;

  auto operator<=>(const EpisodeKey&) const = default;
};

// What a report needs of one stored episode.
struct StoredEpisode {
  EpisodeKey key;
  std::string category;
  int level = 0;
  std::string end;  // EpisodeOutcome::end
  bool submitted = false, correct = false;
  double score = 0.0, speedup = 0.0;
  // The passing SUBMIT's speedup over the reference under torch.compile;
  // none without a compile baseline (docs/evaluator.md, "Baselines").
  std::optional<double> speedup_vs_compile;
  int turns = 0;
  double wall_s = 0.0;
  double model_s = 0.0;  // the endpoint's latency summed over turns
  double eval_s = 0.0;   // checking and evaluating, summed over turns
  std::string error;
};

// One turn of a stored episode as learning reads it.
struct StoredTurn {
  int index = 0;
  std::string action, verdict, stage, message, detail;
  std::string candidate;  // empty when the turn had none
  double speedup = 0.0;
  std::vector<std::string> flags;
};

// One turn of a stored episode as the report's episode viewer shows it.
struct TurnView {
  int index = 0;
  std::string action, verdict, reply, feedback;
};

// A stored episode as the report's episode viewer shows it.
struct EpisodeView {
  EpisodeKey key;
  std::string end;
  double score = 0.0;
  std::vector<TurnView> turns;
};

// A stored episode with its turns and the items its memory text showed.
struct LearnedEpisode {
  StoredEpisode episode;
  std::string experiment;
  std::string device;
  std::vector<std::string> shown_item_ids;
  std::vector<StoredTurn> turns;
};

// Parses and validates a kmem-memory-store/1 document. `source_name` (usually
// the file path) prefixes every error message.
Result<Memory> parse_memory_json(std::string_view text, const std::string& source_name);

// Checks `memory` by every rule of the store (docs/store.md): the formats and
// ranges of kmem/limits.h, valid UTF-8 in every text, references (an item's
// source, a target, a baseline's reader and problem), unique item ids, and no
// field an item's kind does not have. parse_memory_json, Database::read and
// Database::replace all apply it, so a Memory that passes exports to a text
// that imports back to the same Memory. `source_name` prefixes every error.
Status validate_memory(const Memory& memory, const std::string& source_name);

// The canonical kmem-memory-store/1 text of `memory`: parse_memory_json of it
// gives back an equal Memory, and exporting that again gives the same bytes.
std::string memory_to_json(const Memory& memory);

// Loads a store from `path`: a kmem-memory-store/1 JSON file, a kmem
// database (recognised by the SQLite header, opened with open_existing) or a
// PostgreSQL URL (postgresql://..., postgres://...).
// Loading never changes the file.
Result<Memory> load_memory(const std::string& path);

// A kmem database: an SQLite file in WAL mode (schema versioned by PRAGMA
// user_version), or a PostgreSQL database named by a URL (postgresql://...
// or postgres://...; schema versioned in its table kmem_schema). Both hold
// the same tables (src/store/schema.h) and behave alike.
class Database {
 public:
  // Opens `path` (a file or a PostgreSQL URL), creating a file that is
  // missing, and migrates its schema to the current version.
  static Result<Database> open(const std::string& path);

  // Opens an existing kmem database for reading only: the file is never
  // changed (an older schema is migrated in a private in-memory copy; on
  // PostgreSQL, a read-only session that refuses an older schema). Refuses
  // a database that is no kmem database and a newer schema. replace and
  // upsert_problems fail on a database opened this way.
  static Result<Database> open_existing(const std::string& path);

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  // Replaces the whole content by `memory` in one transaction, after checking
  // it by the rules of parse_memory_json; on any failure the database keeps
  // its previous content.
  Status replace(const Memory& memory);

  // Reads the whole content back.
  Result<Memory> read() const;

  // Reads the memory, hands it to `change` and writes what that returns, all
  // in one transaction: concurrent updates (other processes too) take turns,
  // each sees the result of the one before. A failed change or an invalid
  // result leaves the database as it was.
  Status update(const std::function<Result<Memory>(const Memory&)>& change);

  // The problems the database knows, by id. Unlike read(), this works on a
  // database that holds a catalogue but no memory yet.
  Result<std::map<std::string, Problem>> problems() const;

  // Adds problems or updates their level, number, name and category, keeping
  // every item and baseline; one transaction.
  Status upsert_problems(const std::vector<Problem>& problems);

  // Experiments (docs/experiments.md). begin_experiment records a new
  // experiment with its spec (canonical JSON) or accepts an existing one with
  // the same spec; a different spec under the same id is refused.
  Status begin_experiment(const std::string& id, const std::string& spec_json);
  // The spec an experiment was begun with; an unknown id is an error naming it.
  Result<std::string> experiment_spec(const std::string& id) const;
  // The keys of the episodes an experiment holds.
  Result<std::set<EpisodeKey>> recorded_episodes(const std::string& experiment) const;
  // Writes one finished episode with its turns and evaluations in one
  // transaction: true when written, false when the key was already there
  // (the stored episode is kept).
  Result<bool> record_episode(const std::string& experiment, const EpisodeKey& key, const Problem& problem,
                              const EpisodeOutcome& outcome);
  // An experiment's episodes, ordered by key.
  Result<std::vector<StoredEpisode>> experiment_episodes(const std::string& experiment) const;
  // What learning needs of an experiment's episodes (docs/learning.md),
  // ordered by key.
  Result<std::vector<LearnedEpisode>> learning_episodes(const std::string& experiment) const;
  // Every episode of `experiment` with each turn's reply, verdict and
  // feedback, ordered as experiment_episodes (the report's episode viewer).
  Result<std::vector<EpisodeView>> episode_views(const std::string& experiment) const;
  // The ids of the experiments the database holds.
  Result<std::vector<std::string>> experiments() const;

  const std::string& path() const;

 private:
  struct Impl;
  explicit Database(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kmem

// The memory store: the kmem-memory-store/1 JSON format and the SQLite
// database that holds the same content. Both convert to and from kmem::Memory;
// nothing else in kmem reads or writes them. Every load validates fully and
// names the file and entry at fault; a database is only ever changed in one
// transaction, so a refused import leaves it as it was.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem {

// Parses and validates a kmem-memory-store/1 document. `source_name` (usually
// the file path) prefixes every error message.
Result<Memory> parse_memory_json(std::string_view text, const std::string& source_name);

// The canonical kmem-memory-store/1 text of `memory`: parse_memory_json of it
// gives back an equal Memory, and exporting that again gives the same bytes.
std::string memory_to_json(const Memory& memory);

// Loads a store from `path`: a kmem-memory-store/1 JSON file or a kmem
// database (recognised by the SQLite header, opened with open_existing).
// Loading never changes the file.
Result<Memory> load_memory(const std::string& path);

// A kmem database: SQLite in WAL mode, schema versioned by PRAGMA user_version.
class Database {
 public:
  // Opens `path`, creating it and migrating its schema to the current version.
  static Result<Database> open(const std::string& path);

  // Opens an existing kmem database for reading only: the file is never
  // changed (an older schema is migrated in a private in-memory copy). Refuses
  // an SQLite file that is no kmem database and a newer schema. replace and
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

  // The problems the database knows, by id. Unlike read(), this works on a
  // database that holds a catalogue but no memory yet.
  Result<std::map<std::string, Problem>> problems() const;

  // Adds problems or updates their level, number, name and category, keeping
  // every item and baseline; one transaction.
  Status upsert_problems(const std::vector<Problem>& problems);

  const std::string& path() const;

 private:
  struct Impl;
  explicit Database(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kmem

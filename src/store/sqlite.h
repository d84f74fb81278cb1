// The SQLite engine of the store's seam (store/sql.h): a thin RAII layer over
// the SQLite C API whose failures come back as kmem::Error with the path.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>

#include "kmem/result.h"
#include "store/sql.h"

namespace kmem::store::sqlite {

class Connection final : public sql::Connection {
 public:
  enum class Mode {
    kReadWrite,  // created if missing
    kReadOnly,   // must exist; nothing through this connection can change it
  };
  // Opens the file at `path`; an empty path or ":memory:" (SQLite's names for
  // databases that keep nothing) is refused.
  static Result<std::unique_ptr<Connection>> open(const std::string& path, Mode mode);

  // A writable in-memory copy of this database; its errors still name path().
  Result<std::unique_ptr<Connection>> copy_in_memory() const;

  // Switches the file to WAL mode (a no-op when it is already). Switching
  // needs exclusive access and SQLite runs no busy handler for it, so this
  // retries while other connections hold the file, up to the busy timeout.
  Status use_wal();
  Error error(const std::string& what) const;

  sql::Dialect dialect() const override { return sql::Dialect::kSqlite; }
  const std::string& path() const override { return path_; }
  Status exec(const std::string& sql) override;
  Result<sql::Statement> prepare(const std::string& sql) override;
  Status begin_exclusive() override { return exec("BEGIN IMMEDIATE"); }
  Status begin_claiming() override { return exec("BEGIN IMMEDIATE"); }
  const char* claim_lock_sql() const override { return ""; }
  const char* now_sql() const override { return "((julianday('now') - 2440587.5) * 86400.0)"; }
  Result<int> schema_version() override;  // PRAGMA user_version
  Status set_schema_version(int version) override;

 private:
  Connection(sqlite3* db, std::string path);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db_;
  std::string path_;
};

}  // namespace kmem::store::sqlite

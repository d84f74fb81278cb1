// A thin RAII layer over the SQLite C API: a connection and prepared
// statements whose failures come back as kmem::Error with the database path.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <optional>
#include <string>

#include "kmem/result.h"

namespace kmem::sqlite {

class Statement;

class Connection {
 public:
  enum class Mode {
    kReadWrite,  // created if missing
    kReadOnly,   // must exist; nothing through this connection can change it
  };
  // Opens the file at `path`; an empty path or ":memory:" (SQLite's names for
  // databases that keep nothing) is refused.
  static Result<Connection> open(const std::string& path, Mode mode);

  // A writable in-memory copy of this database; its errors still name path().
  Result<Connection> copy_in_memory() const;

  Status exec(const std::string& sql);
  // Switches the file to WAL mode (a no-op when it is already). Switching
  // needs exclusive access and SQLite runs no busy handler for it, so this
  // retries while other connections hold the file, up to the busy timeout.
  Status use_wal();
  Result<Statement> prepare(const std::string& sql);
  Error error(const std::string& what) const;
  const std::string& path() const { return path_; }
  // The rowid of the last row inserted, and the rows the last statement changed.
  long long last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }
  int changes() const { return sqlite3_changes(db_.get()); }

 private:
  Connection(sqlite3* db, std::string path);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db_;
  std::string path_;
};

class Statement {
 public:
  Statement(sqlite3_stmt* stmt, const Connection* connection);

  Statement& bind(int index, const std::string& value);
  Statement& bind(int index, double value);
  Statement& bind(int index, int value);
  Statement& bind_null(int index);

  // Advances to the next row: true for a row, false when done.
  Result<bool> step();
  // Runs a statement that returns no rows, then resets it for reuse.
  Status run();

  std::string text(int column) const;
  double real(int column) const;
  int integer(int column) const;
  long long integer64(int column) const;
  bool is_null(int column) const;
  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
  int type(int column) const;

 private:
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt_;
  const Connection* connection_;
};

}  // namespace kmem::sqlite

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
  static Result<Connection> open(const std::string& path);

  Status exec(const std::string& sql);
  Result<Statement> prepare(const std::string& sql);
  Error error(const std::string& what) const;
  const std::string& path() const { return path_; }

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
  bool is_null(int column) const;

 private:
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt_;
  const Connection* connection_;
};

}  // namespace kmem::sqlite

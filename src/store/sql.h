// The seam between the store and its database engines: a connection and
// prepared statements with `?` parameters, implemented for SQLite
// (store/sqlite.h) and PostgreSQL (store/postgres.h). Code above it writes
// one SQL text for both; the few places where the dialects differ ask the
// connection (begin_exclusive, now_sql, claim_lock_sql, schema version).
// Failures come back as kmem::Error naming the database (path()).
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "kmem/result.h"

namespace kmem::store::sql {

// A column value's type as the engine reports it.
enum class Type { kInteger, kReal, kText, kBlob, kNull };
const char* type_name(Type type);  // "INTEGER", "REAL", "TEXT", "BLOB", "NULL"

enum class Dialect { kSqlite, kPostgres };

// A backend's prepared statement; Statement wraps it.
class Cursor {
 public:
  virtual ~Cursor() = default;
  virtual void bind_text(int index, const std::string& value) = 0;
  virtual void bind_real(int index, double value) = 0;
  virtual void bind_integer(int index, long long value) = 0;
  virtual void bind_null(int index) = 0;
  // Runs the statement on the first call, then advances: true for a row.
  virtual Result<bool> step() = 0;
  // Ready to run again, with no parameters bound.
  virtual void reset() = 0;
  virtual std::string text(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual long long integer64(int column) const = 0;
  virtual Type type(int column) const = 0;
};

class Statement {
 public:
  explicit Statement(std::unique_ptr<Cursor> cursor) : cursor_(std::move(cursor)) {}

  // Parameters count from 1, as `?` appear in the SQL text.
  Statement& bind(int index, const std::string& value) { return cursor_->bind_text(index, value), *this; }
  Statement& bind(int index, double value) { return cursor_->bind_real(index, value), *this; }
  Statement& bind(int index, int value) { return cursor_->bind_integer(index, value), *this; }
  Statement& bind(int index, long long value) { return cursor_->bind_integer(index, value), *this; }
  Statement& bind_null(int index) { return cursor_->bind_null(index), *this; }

  // Advances to the next row: true for a row, false when done.
  Result<bool> step() { return cursor_->step(); }
  // Runs a statement that returns no rows, then resets it for reuse.
  Status run();
  // Ready to run again, with no parameters bound (read the current row first).
  void reset() { cursor_->reset(); }
  // Runs the query and calls `row(*this)` for each row it returns; a `row`
  // that returns a Status stops the walk at its first error.
  template <typename Row>
  Status each_row(Row row);

  std::string text(int column) const { return cursor_->text(column); }
  double real(int column) const { return cursor_->real(column); }
  int integer(int column) const { return static_cast<int>(cursor_->integer64(column)); }
  long long integer64(int column) const { return cursor_->integer64(column); }
  bool is_null(int column) const { return cursor_->type(column) == Type::kNull; }
  Type type(int column) const { return cursor_->type(column); }

 private:
  std::unique_ptr<Cursor> cursor_;
};

template <typename Row>
Status Statement::each_row(Row row) {
  while (true) {
    Result<bool> more = step();
    if (!more) return more.error();
    if (!*more) return Status::success();
    if constexpr (std::is_same_v<decltype(row(*this)), Status>) {
      if (Status s = row(*this); !s) return s;
    } else {
      row(*this);
    }
  }
}

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  // Names the database in errors: a file path, or a PostgreSQL URL without its password.
  virtual const std::string& path() const = 0;
  // Runs one or more statements without parameters.
  virtual Status exec(const std::string& sql) = 0;
  virtual Result<Statement> prepare(const std::string& sql) = 0;
  // Begins a transaction that writers of the store take one at a time
  // (SQLite: BEGIN IMMEDIATE; PostgreSQL: BEGIN and a transaction-scoped
  // advisory lock). Ended by exec("COMMIT") or exec("ROLLBACK").
  virtual Status begin_exclusive() = 0;
  // Begins a transaction in which rows are locked as they are claimed
  // (PostgreSQL: BEGIN, so concurrent claimers proceed; SQLite: BEGIN
  // IMMEDIATE, its only kind of writer).
  virtual Status begin_claiming() = 0;
  // What follows a SELECT that picks rows to claim (PostgreSQL: FOR UPDATE
  // SKIP LOCKED; SQLite: nothing, its writers already take turns).
  virtual const char* claim_lock_sql() const = 0;
  // An SQL expression: seconds since the epoch on the database's clock, as a real.
  virtual const char* now_sql() const = 0;
  // The schema version (0 for a database kmem never wrote to) and setting it
  // (inside the migration's transaction).
  virtual Result<int> schema_version() = 0;
  virtual Status set_schema_version(int version) = 0;
};

// Runs `body` inside one begin_exclusive transaction, rolling back on any error.
template <typename Body>
Status in_exclusive_transaction(Connection& db, Body body) {
  if (Status s = db.begin_exclusive(); !s) return s;
  Status s = body();
  if (!s) {
    (void)db.exec("ROLLBACK");
    return s;
  }
  return db.exec("COMMIT");
}

}  // namespace kmem::store::sql

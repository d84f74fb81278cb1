// Reading one row of a query with every column checked, so a crafted or
// damaged database is refused as strictly as a bad store file: each read
// checks the value's type (TEXT, INTEGER, REAL or NULL where allowed),
// UTF-8 in texts, int range in integers and finiteness in reals. The first
// failure is kept; the row's error names the database, the table and the row:
//   "kmem.db: items row 4 (id 'x'): column 'speedup' must be a number, not TEXT"
#pragma once

#include <optional>
#include <string>

#include "kmem/result.h"
#include "store/sql.h"

namespace kmem::store {

class RowReader {
 public:
  // `where` names the row ("kmem.db: items row 4").
  RowReader(const sql::Statement& row, std::string where) : row_(row), where_(std::move(where)) {}

  // Adds to the row's name, e.g. " (id 'x')" once the id is read.
  void name(const std::string& more) { where_ += more; }
  const std::string& where() const { return where_; }

  std::string text(int column, const char* name);
  std::optional<std::string> optional_text(int column, const char* name);
  int integer(int column, const char* name);
  std::optional<int> optional_integer(int column, const char* name);
  double real(int column, const char* name);  // REAL or INTEGER, finite
  std::optional<double> optional_real(int column, const char* name);
  bool flag(int column, const char* name);  // INTEGER 0 or 1

  // Records a failure of the row's content (the first one is kept).
  void fail(const std::string& what);
  // Success, or the first failure as "<where>: <what>".
  Status status() const;

 private:
  bool expect(int column, const char* name, sql::Type type, const char* expected);

  const sql::Statement& row_;
  std::string where_;
  std::optional<std::string> failure_;
};

}  // namespace kmem::store

// What the files of the Database class share: its connection and the
// helpers that run a transaction and walk a query's rows.
#pragma once

#include <string>
#include <type_traits>

#include "kmem/store.h"
#include "store/sqlite.h"

namespace kmem {

struct Database::Impl {
  sqlite::Connection connection;
};

// Runs `body` inside one transaction, rolling back on any error.
template <typename Body>
Status in_transaction(sqlite::Connection& db, Body body) {
  if (Status s = db.exec("BEGIN IMMEDIATE"); !s) return s;
  Status s = body();
  if (!s) {
    (void)db.exec("ROLLBACK");
    return s;
  }
  return db.exec("COMMIT");
}

// Runs `sql` and calls `row(statement)` for each row it returns; a `row`
// that returns a Status stops the walk at its first error.
template <typename Row>
Status for_each_row(sqlite::Connection& db, const std::string& sql, Row row) {
  auto query = db.prepare(sql);
  if (!query) return query.error();
  while (true) {
    auto more = query->step();
    if (!more) return more.error();
    if (!*more) return Status::success();
    if constexpr (std::is_same_v<decltype(row(*query)), Status>) {
      if (Status s = row(*query); !s) return s;
    } else {
      row(*query);
    }
  }
}

}  // namespace kmem

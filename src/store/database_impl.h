// What the files of the Database class share: its connection (either
// engine, store/sql.h) and the helpers that run a transaction and walk a
// query's rows.
#pragma once

#include <memory>
#include <string>

#include "kmem/store.h"
#include "store/sql.h"

namespace kmem {

struct Database::Impl {
  std::unique_ptr<store::sql::Connection> connection;
};

}  // namespace kmem

namespace kmem::store {

// Runs `body` inside one transaction that writers take in turn, rolling back on any error.
template <typename Body>
Status in_transaction(sql::Connection& db, Body body) {
  return sql::in_exclusive_transaction(db, body);
}

// Runs `sql` and calls `row(statement)` for each row it returns; a `row`
// that returns a Status stops the walk at its first error.
template <typename Row>
Status for_each_row(sql::Connection& db, const std::string& sql, Row row) {
  auto query = db.prepare(sql);
  if (!query) return query.error();
  return query->each_row(row);
}

}  // namespace kmem::store

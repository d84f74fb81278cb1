// What the engines of the store's seam share (store/sql.h).
#include "store/sql.h"

namespace kmem::store::sql {

const char* type_name(Type type) {
  switch (type) {
    case Type::kInteger: return "INTEGER";
    case Type::kReal: return "REAL";
    case Type::kText: return "TEXT";
    case Type::kBlob: return "BLOB";
    default: return "NULL";
  }
}

Status Statement::run() {
  Result<bool> row = cursor_->step();
  cursor_->reset();
  if (!row) return row.error();
  return Status::success();
}

}  // namespace kmem::store::sql

// Opening a kmem database for writing, on either engine: a PostgreSQL URL or
// an SQLite file (created when missing, in WAL mode), its schema migrated to
// the current version. Database::open and the job queue both open this way.
#pragma once

#include <memory>
#include <string>

#include "kmem/result.h"
#include "store/sql.h"

namespace kmem::store {

Result<std::unique_ptr<sql::Connection>> open_writable(const std::string& db);

}  // namespace kmem::store

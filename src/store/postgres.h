// The PostgreSQL engine of the store's seam (store/sql.h), over libpqxx: a
// database named by a URL (postgresql://user@host:port/dbname?...). Parameters
// are sent apart from the SQL text; results are read as text and typed by
// their columns' types.
#pragma once

#include <memory>
#include <string>

#include "kmem/result.h"
#include "store/sql.h"

namespace kmem::store::postgres {

// Whether `db` names a PostgreSQL database (postgresql:// or postgres://)
// rather than an SQLite file.
bool is_url(const std::string& db);

// Connects to `url`; `read_only`: every transaction of the session is read
// only. Errors name the URL without its password.
Result<std::unique_ptr<sql::Connection>> connect(const std::string& url, bool read_only);

}  // namespace kmem::store::postgres

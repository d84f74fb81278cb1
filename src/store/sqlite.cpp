// The SQLite engine of the store's seam.
#include "store/sqlite.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "util/file.h"

namespace kmem::store::sqlite {

namespace {

// How long a connection waits for another one's lock before failing.
constexpr int kBusyTimeoutMs = 5000;

class Cursor final : public sql::Cursor {
 public:
  Cursor(sqlite3_stmt* stmt, const Connection* connection) : stmt_(stmt, sqlite3_finalize), connection_(connection) {}

  void bind_text(int index, const std::string& value) override {
    sqlite3_bind_text(stmt_.get(), index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  }
  void bind_real(int index, double value) override { sqlite3_bind_double(stmt_.get(), index, value); }
  void bind_integer(int index, long long value) override { sqlite3_bind_int64(stmt_.get(), index, value); }
  void bind_null(int index) override { sqlite3_bind_null(stmt_.get(), index); }

  Result<bool> step() override {
    int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return connection_->error("statement failed");
  }
  void reset() override {
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
  }

  std::string text(int column) const override {
    const unsigned char* s = sqlite3_column_text(stmt_.get(), column);
    return s ? std::string(reinterpret_cast<const char*>(s), sqlite3_column_bytes(stmt_.get(), column)) : "";
  }
  double real(int column) const override { return sqlite3_column_double(stmt_.get(), column); }
  long long integer64(int column) const override { return sqlite3_column_int64(stmt_.get(), column); }
  sql::Type type(int column) const override {
    switch (sqlite3_column_type(stmt_.get(), column)) {
      case SQLITE_INTEGER: return sql::Type::kInteger;
      case SQLITE_FLOAT: return sql::Type::kReal;
      case SQLITE_TEXT: return sql::Type::kText;
      case SQLITE_BLOB: return sql::Type::kBlob;
      default: return sql::Type::kNull;
    }
  }

 private:
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt_;
  const Connection* connection_;
};

}  // namespace

Connection::Connection(sqlite3* db, std::string path) : db_(db, sqlite3_close), path_(std::move(path)) {}

Result<std::unique_ptr<Connection>> Connection::open(const std::string& path, Mode mode) {
  if (path.empty() || path == ":memory:")
    return Error(fmt::format("'{}': not a database file (SQLite would keep nothing there)", path));
  // A FIFO or device would block or mean nothing as a database.
  Status regular = mode == Mode::kReadOnly ? util::check_regular_file(path) : util::check_regular_file_or_missing(path);
  if (!regular) return regular.error();
  int flags = mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  std::unique_ptr<Connection> connection(new Connection(db, path));
  if (rc != SQLITE_OK) return connection->error("cannot open database");
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  return connection;
}

Result<std::unique_ptr<Connection>> Connection::copy_in_memory() const {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nullptr);
  std::unique_ptr<Connection> copy(new Connection(db, path_));
  if (rc != SQLITE_OK) return copy->error("cannot open an in-memory copy");
  sqlite3_backup* backup = sqlite3_backup_init(db, "main", db_.get(), "main");
  if (backup == nullptr) return copy->error("cannot copy the database");
  sqlite3_backup_step(backup, -1);
  if (sqlite3_backup_finish(backup) != SQLITE_OK) return copy->error("cannot copy the database");
  return copy;
}

Error Connection::error(const std::string& what) const {
  return Error(fmt::format("{}: {}: {}", path_, what, db_ ? sqlite3_errmsg(db_.get()) : "out of memory"));
}

Status Connection::exec(const std::string& sql) {
  if (sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) return error("SQL failed");
  return Status::success();
}

Status Connection::use_wal() {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  while (true) {
    std::string mode;
    auto read_mode = [](void* out, int, char** values, char**) {
      *static_cast<std::string*>(out) = values[0] != nullptr ? values[0] : "";
      return 0;
    };
    int rc = sqlite3_exec(db_.get(), "PRAGMA journal_mode = WAL", read_mode, &mode, nullptr);
    if (rc == SQLITE_OK && mode == "wal") return Status::success();
    bool busy = rc == SQLITE_BUSY || rc == SQLITE_OK;  // a refused switch may just report the old mode
    if (!busy || std::chrono::steady_clock::now() >= deadline)
      return rc == SQLITE_OK ? Error(fmt::format("{}: cannot switch to WAL mode (it stays '{}')", path_, mode))
                             : error("cannot switch to WAL mode");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

Result<sql::Statement> Connection::prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return error("cannot prepare '" + sql + "'");
  return sql::Statement(std::make_unique<Cursor>(stmt, this));
}

Result<int> Connection::schema_version() {
  auto query = prepare("PRAGMA user_version");
  if (!query) return query.error();
  auto row = query->step();
  if (!row) return row.error();
  return query->integer(0);
}

Status Connection::set_schema_version(int version) { return exec(fmt::format("PRAGMA user_version = {}", version)); }

}  // namespace kmem::store::sqlite

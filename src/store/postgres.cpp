// The PostgreSQL engine of the store's seam, over libpq.
#include "store/postgres.h"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <cstdlib>
#include <optional>
#include <vector>

namespace kmem::postgres {

namespace {

// The advisory lock that writers of the store take in turn (begin_exclusive).
constexpr long long kStoreWriteLock = 0x6b6d656d;  // "kmem"

// Type OIDs of the built-in types (PostgreSQL's catalog pg_type).
enum : Oid { kBool = 16, kBytea = 17, kInt8 = 20, kInt2 = 21, kInt4 = 23, kFloat4 = 700, kFloat8 = 701, kNumeric = 1700 };

// libpq's messages end with a newline.
std::string trimmed(const char* message) {
  std::string s = message != nullptr ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// The URL as errors show it: user, host, port and database, never the password.
std::string display_name(const std::string& url) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    PQfreemem(error);
    return "postgresql://(unreadable URL)";
  }
  std::string user, host, port, dbname;
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    std::string value = o->val != nullptr ? o->val : "";
    std::string keyword = o->keyword;
    if (keyword == "user") user = value;
    if (keyword == "host") host = value;
    if (keyword == "port") port = value;
    if (keyword == "dbname") dbname = value;
  }
  PQconninfoFree(options);
  return fmt::format("postgresql://{}{}{}{}/{}", user, user.empty() ? "" : "@", host, port.empty() ? "" : ":" + port,
                     dbname);
}

// The SQL text with each `?` outside a quoted literal made `$1`, `$2`, ...
std::string numbered_parameters(const std::string& sql) {
  std::string out;
  int next = 1;
  char quote = 0;
  for (char c : sql) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      out += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += c;
    } else if (c == '?') {
      out += "$" + std::to_string(next++);
    } else {
      out += c;
    }
  }
  return out;
}

class Connection;

class Cursor final : public sql::Cursor {
 public:
  Cursor(Connection& connection, std::string sql) : connection_(connection), sql_(std::move(sql)) {}
  ~Cursor() override { clear(); }

  void bind_text(int index, const std::string& value) override {
    // Parameters travel as C strings, and PostgreSQL's text holds no NUL:
    // refused rather than cut short.
    if (value.find('\0') != std::string::npos && !bind_error_)
      bind_error_ = fmt::format("parameter {} holds a NUL byte, which PostgreSQL text cannot hold", index);
    slot(index) = value;
  }
  void bind_real(int index, double value) override { slot(index) = fmt::format("{}", value); }
  void bind_integer(int index, long long value) override { slot(index) = std::to_string(value); }
  void bind_null(int index) override { slot(index).reset(); }

  Result<bool> step() override;
  void reset() override {
    clear();
    parameters_.clear();
    bind_error_.reset();
  }

  std::string text(int column) const override {
    return std::string(PQgetvalue(result_, row_, column), PQgetlength(result_, row_, column));
  }
  double real(int column) const override { return std::strtod(PQgetvalue(result_, row_, column), nullptr); }
  long long integer64(int column) const override {
    if (PQftype(result_, column) == kBool) return *PQgetvalue(result_, row_, column) == 't' ? 1 : 0;
    return std::strtoll(PQgetvalue(result_, row_, column), nullptr, 10);
  }
  sql::Type type(int column) const override {
    if (PQgetisnull(result_, row_, column)) return sql::Type::kNull;
    switch (PQftype(result_, column)) {
      case kBool:
      case kInt2:
      case kInt4:
      case kInt8: return sql::Type::kInteger;
      case kFloat4:
      case kFloat8:
      case kNumeric: return sql::Type::kReal;
      case kBytea: return sql::Type::kBlob;
      default: return sql::Type::kText;
    }
  }

 private:
  std::optional<std::string>& slot(int index) {
    if (static_cast<int>(parameters_.size()) < index) parameters_.resize(index);
    return parameters_[index - 1];
  }
  void clear() {
    if (result_ != nullptr) PQclear(result_);
    result_ = nullptr;
    row_ = -1;
  }

  Connection& connection_;
  std::string sql_;
  std::vector<std::optional<std::string>> parameters_;
  std::optional<std::string> bind_error_;
  PGresult* result_ = nullptr;
  int row_ = -1;
};

class Connection final : public sql::Connection {
 public:
  Connection(PGconn* conn, std::string path) : conn_(conn, PQfinish), path_(std::move(path)) {}

  sql::Dialect dialect() const override { return sql::Dialect::kPostgres; }
  const std::string& path() const override { return path_; }

  Status exec(const std::string& sql) override {
    PGresult* result = PQexec(conn_.get(), sql.c_str());
    Status s = check(result, "SQL failed");
    PQclear(result);
    return s;
  }

  Result<sql::Statement> prepare(const std::string& sql) override {
    return sql::Statement(std::make_unique<Cursor>(*this, numbered_parameters(sql)));
  }

  Status begin_exclusive() override {
    return exec(fmt::format("BEGIN; SELECT pg_advisory_xact_lock({})", kStoreWriteLock));
  }
  Status begin_claiming() override { return exec("BEGIN"); }
  const char* claim_lock_sql() const override { return " FOR UPDATE SKIP LOCKED"; }
  const char* now_sql() const override { return "(extract(epoch FROM clock_timestamp())::double precision)"; }

  Result<int> schema_version() override {
    auto exists = prepare("SELECT to_regclass('kmem_schema') IS NOT NULL");
    auto row = exists->step();
    if (!row) return row.error();
    if (exists->integer64(0) == 0) return 0;
    auto query = prepare("SELECT version FROM kmem_schema");
    row = query->step();
    if (!row) return row.error();
    return *row ? query->integer(0) : 0;
  }

  Status set_schema_version(int version) override {
    return exec(fmt::format(
        "CREATE TABLE IF NOT EXISTS kmem_schema (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), "
        "version INTEGER NOT NULL); "
        "INSERT INTO kmem_schema(singleton, version) VALUES (1, {}) "
        "ON CONFLICT (singleton) DO UPDATE SET version = excluded.version",
        version));
  }

  bool broken() const override { return PQstatus(conn_.get()) == CONNECTION_BAD; }

  // Success for a result that is no error; else the error naming the database.
  Status check(PGresult* result, const std::string& what) const {
    ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return Status::success();
    std::string message = result != nullptr ? trimmed(PQresultErrorMessage(result)) : "";
    if (message.empty()) message = trimmed(PQerrorMessage(conn_.get()));
    return Error(fmt::format("{}: {}: {}", path_, what, message));
  }

  PGconn* raw() { return conn_.get(); }

 private:
  std::unique_ptr<PGconn, void (*)(PGconn*)> conn_;
  std::string path_;
};

Result<bool> Cursor::step() {
  if (bind_error_) return Error(fmt::format("{}: {}", connection_.path(), *bind_error_));
  if (result_ == nullptr) {
    std::vector<const char*> values;
    for (const auto& p : parameters_) values.push_back(p ? p->c_str() : nullptr);
    result_ = PQexecParams(connection_.raw(), sql_.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                           nullptr, nullptr, 0);
    if (Status s = connection_.check(result_, "statement failed"); !s) {
      clear();
      return s.error();
    }
  }
  ++row_;
  return row_ < PQntuples(result_);
}

}  // namespace

bool is_url(const std::string& db) { return db.starts_with("postgresql://") || db.starts_with("postgres://"); }

Result<std::unique_ptr<sql::Connection>> connect(const std::string& url, bool read_only) {
  std::string name = display_name(url);
  PGconn* conn = PQconnectdb(url.c_str());
  auto connection = std::make_unique<Connection>(conn, name);
  if (conn == nullptr) return Error(name + ": cannot connect: out of memory");
  if (PQstatus(conn) != CONNECTION_OK)
    return Error(fmt::format("{}: cannot connect: {}", name, trimmed(PQerrorMessage(conn))));
  // Notices ("relation already exists, skipping") are no errors: not printed.
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  Status s = connection->exec("SET client_encoding = 'UTF8'");
  if (s && read_only) s = connection->exec("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
  if (!s) return s.error();
  return std::unique_ptr<sql::Connection>(std::move(connection));
}

}  // namespace kmem::postgres

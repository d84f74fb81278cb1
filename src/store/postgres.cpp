// The PostgreSQL engine of the store's seam, over libpqxx (libpq's URL
// parser names the database in errors).
#include "store/postgres.h"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <cstdlib>
#include <optional>
#include <pqxx/pqxx>
#include <vector>

namespace kmem::store::postgres {

namespace {

// The advisory lock that writers of the store take in turn (begin_exclusive).
constexpr long long kStoreWriteLock = 0x6b6d656d;  // "kmem"

// Type OIDs of the built-in types (PostgreSQL's catalog pg_type).
enum : Oid {
  kBool = 16,
  kBytea = 17,
  kInt8 = 20,
  kInt2 = 21,
  kInt4 = 23,
  kFloat4 = 700,
  kFloat8 = 701,
  kNumeric = 1700
};

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
  return fmt::format("postgresql://{}{}{}{}{}/{}", user, user.empty() ? "" : "@", host, port.empty() ? "" : ":", port,
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
      out += '$';
      out += std::to_string(next++);
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
    result_.reset();
    row_ = -1;
    parameters_.clear();
    bind_error_.reset();
  }

  std::string text(int column) const override {
    const pqxx::field f = field(column);
    return std::string(f.c_str(), f.size());
  }
  double real(int column) const override { return std::strtod(field(column).c_str(), nullptr); }
  long long integer64(int column) const override {
    if (result_->column_type(column) == kBool) return *field(column).c_str() == 't' ? 1 : 0;
    return std::strtoll(field(column).c_str(), nullptr, 10);
  }
  sql::Type type(int column) const override {
    if (field(column).is_null()) return sql::Type::kNull;
    switch (result_->column_type(column)) {
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
  pqxx::field field(int column) const { return (*result_)[row_][column]; }

  Connection& connection_;
  std::string sql_;
  std::vector<std::optional<std::string>> parameters_;
  std::optional<std::string> bind_error_;
  std::optional<pqxx::result> result_;
  int row_ = -1;
};

// Server notices ("relation already exists, skipping") are no errors: dropped.
class QuietNotices final : public pqxx::errorhandler {
 public:
  using pqxx::errorhandler::errorhandler;
  bool operator()(const char[]) noexcept override { return false; }
};

// One session. Transactions are the store's own (BEGIN ... COMMIT sent as
// SQL, see sql.h), so each statement runs in a pqxx::nontransaction. A lost
// connection stays lost: libpqxx would reconnect by itself, silently dropping
// an open transaction and the session's settings, so every statement after a
// broken_connection fails and the caller opens another connection.
class Connection final : public sql::Connection {
 public:
  Connection(std::unique_ptr<pqxx::connection> conn, std::string path)
      : conn_(std::move(conn)), notices_(*conn_), path_(std::move(path)) {}

  sql::Dialect dialect() const override { return sql::Dialect::kPostgres; }
  const std::string& path() const override { return path_; }

  Status exec(const std::string& sql) override {
    // The simple query protocol: one or more statements, no parameters.
    auto result = run("SQL failed", [&](pqxx::nontransaction& t) { return t.exec(sql); });
    return result ? Status::success() : Status(result.error());
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
    return exec(
        fmt::format("CREATE TABLE IF NOT EXISTS kmem_schema (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), "
                    "version INTEGER NOT NULL); "
                    "INSERT INTO kmem_schema(singleton, version) VALUES (1, {}) "
                    "ON CONFLICT (singleton) DO UPDATE SET version = excluded.version",
                    version));
  }

  // Runs `query` (a call on a pqxx::nontransaction) in this session; a
  // failure names the database and `what`.
  template <typename Query>
  Result<pqxx::result> run(const char* what, Query query) {
    if (lost_) return Error(fmt::format("{}: {}: the connection was lost earlier: {}", path_, what, *lost_));
    try {
      pqxx::nontransaction statement(*conn_);
      pqxx::result result = query(statement);
      statement.commit();
      return result;
    } catch (const pqxx::broken_connection& e) {
      lost_ = trimmed(e.what());
      return Error(fmt::format("{}: {}: connection lost: {}", path_, what, *lost_));
    } catch (const std::exception& e) {
      return Error(fmt::format("{}: {}: {}", path_, what, trimmed(e.what())));
    }
  }

 private:
  std::unique_ptr<pqxx::connection> conn_;
  QuietNotices notices_;
  std::string path_;
  std::optional<std::string> lost_;
};

Result<bool> Cursor::step() {
  if (bind_error_) return Error(fmt::format("{}: {}", connection_.path(), *bind_error_));
  if (!result_) {
    std::vector<const char*> values;
    for (const auto& p : parameters_) values.push_back(p ? p->c_str() : nullptr);
    // The extended protocol, as every prepared statement: one statement, its
    // parameters apart from the text (nullptr for NULL).
    auto result = connection_.run("statement failed", [&](pqxx::nontransaction& t) {
      return t.exec_params(sql_, pqxx::prepare::make_dynamic_params(values));
    });
    if (!result) return result.error();
    result_ = std::move(*result);
  }
  ++row_;
  return row_ < static_cast<int>(result_->size());
}

}  // namespace

bool is_url(const std::string& db) { return db.starts_with("postgresql://") || db.starts_with("postgres://"); }

Result<std::unique_ptr<sql::Connection>> connect(const std::string& url, bool read_only) {
  std::string name = display_name(url);
  std::unique_ptr<pqxx::connection> conn;
  try {
    conn = std::make_unique<pqxx::connection>(url);
  } catch (const std::exception& e) {
    return Error(fmt::format("{}: cannot connect: {}", name, trimmed(e.what())));
  }
  auto connection = std::make_unique<Connection>(std::move(conn), name);
  Status s = connection->exec("SET client_encoding = 'UTF8'");
  if (s && read_only) s = connection->exec("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
  if (!s) return s.error();
  return std::unique_ptr<sql::Connection>(std::move(connection));
}

}  // namespace kmem::store::postgres

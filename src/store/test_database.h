// A fresh, empty kmem database for one test on either engine, so the same
// tests run against both: an SQLite file in a temporary folder, or a schema
// of its own in the PostgreSQL database that $KMEM_TEST_PG_URL names
// (scripts/test.sh starts a throw-away server and sets it). Without that
// variable (or with it empty) the PostgreSQL variant is skipped, saying so.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "store/postgres.h"

namespace kmem::store {

enum class Engine { kSqlite, kPostgres };

inline std::string engine_name(const ::testing::TestParamInfo<Engine>& info) {
  return info.param == Engine::kSqlite ? "Sqlite" : "Postgres";
}

class TestDatabase {
 public:
  // The skip message when the engine is unavailable here, else empty.
  static std::string unavailable(Engine engine) {
    const char* url = std::getenv("KMEM_TEST_PG_URL");
    if (engine == Engine::kPostgres &&
        (url == nullptr || *url == '\0'))  // empty: its schema's URL would be a file name
      return "no PostgreSQL server: set KMEM_TEST_PG_URL (scripts/test.sh starts one)";
    return "";
  }

  explicit TestDatabase(Engine engine) : engine_(engine) {
    static std::atomic<int> counter = 0;
    std::string name = "kmem_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    dir_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    if (engine == Engine::kSqlite) {
      url_ = (dir_ / "kmem.db").string();
      return;
    }
    base_ = std::getenv("KMEM_TEST_PG_URL");
    schema_ = name;
    admin("CREATE SCHEMA " + schema_);
    url_ = base_ + (base_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_;
  }
  ~TestDatabase() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    if (engine_ == Engine::kPostgres) admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
  }
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  // What --db takes: the file's path or the URL.
  const std::string& url() const { return url_; }
  // A folder for the test's other files, removed with the database.
  const std::filesystem::path& scratch() const { return dir_; }

 private:
  void admin(const std::string& sql) const {
    auto connection = postgres::connect(base_, /*read_only=*/false);
    ASSERT_TRUE(connection) << connection.error().message();
    Status s = (*connection)->exec(sql);
    ASSERT_TRUE(s) << s.error().message();
  }

  Engine engine_;
  std::filesystem::path dir_;
  std::string base_, schema_, url_;
};

}  // namespace kmem::store

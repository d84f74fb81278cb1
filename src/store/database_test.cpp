// Tests of the kmem database: WAL mode, migrations, lossless import/read, that
// a refused or failed import leaves the previous content untouched, that
// reading never changes the file, and that concurrent opens all succeed.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kmem/store.h"
#include "store/schema.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kSeedPath = std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json";

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kmem_db_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto seed = load_memory(kSeedPath);
    ASSERT_TRUE(seed) << seed.error().message();
    seed_ = std::move(*seed);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string db_path() const { return (dir_ / "kmem.db").string(); }

  // Runs one SQL statement on a separate raw connection and returns the first
  // column of the first row as text.
  std::string raw_query(const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(db_path().c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::string out;
    if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
  }

  // Runs a script of SQL statements on a separate raw connection.
  void raw_exec(const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_path().c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
  }

  std::string file_bytes() const {
    std::ifstream in(db_path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  }

  fs::path dir_;
  Memory seed_;
};

TEST_F(DatabaseTest, ImportThenReadIsLossless) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->replace(seed_));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(seed_));
}

TEST_F(DatabaseTest, LoadMemorySniffsTheSqliteHeader) {
  {
    auto db = Database::open(db_path());
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->replace(seed_));
  }
  auto loaded = load_memory(db_path());
  ASSERT_TRUE(loaded) << loaded.error().message();
  EXPECT_EQ(memory_to_json(*loaded), memory_to_json(seed_));
}

TEST_F(DatabaseTest, EmptyDatabaseSaysSo) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db);
  auto back = db->read();
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message().find(db_path()), std::string::npos);
}

TEST_F(DatabaseTest, UsesWriteAheadLogging) {
  ASSERT_TRUE(Database::open(db_path()));
  EXPECT_EQ(raw_query("PRAGMA journal_mode"), "wal");  // persistent in the file
}

TEST_F(DatabaseTest, MigratesToTheCurrentVersionAndReopensUnchanged) {
  {
    auto db = Database::open(db_path());
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->replace(seed_));
  }
  EXPECT_EQ(raw_query("PRAGMA user_version"), std::to_string(store::kMigrations.size()));
  auto reopened = Database::open(db_path());
  ASSERT_TRUE(reopened) << reopened.error().message();
  auto back = reopened->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(seed_));
}

TEST_F(DatabaseTest, ProcessesCreatingOneDatabaseAtOnceAllSucceed) {
  for (int round = 0; round < 10; ++round) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::vector<pid_t> children;
    for (int i = 0; i < 4; ++i) {
      pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        auto db = Database::open(db_path());
        Status s = db ? db->replace(seed_) : Status(db.error());
        if (!s) std::fprintf(stderr, "%s\n", s.error().message().c_str());
        ::_exit(s ? 0 : 1);
      }
      children.push_back(pid);
    }
    for (pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
    }
  }
  auto back = Database::open_existing(db_path());
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back->read()), memory_to_json(seed_));
}

TEST_F(DatabaseTest, MigratesAnExistingVersionZeroFile) {
  raw_query("CREATE TABLE unrelated(x)");  // an SQLite file kmem never touched
  EXPECT_EQ(raw_query("PRAGMA user_version"), "0");
  auto db = Database::open(db_path());
  ASSERT_TRUE(db) << db.error().message();
  EXPECT_EQ(raw_query("PRAGMA user_version"), std::to_string(store::kMigrations.size()));
  EXPECT_TRUE(db->replace(seed_));
}

TEST_F(DatabaseTest, MigratesAVersionOneDatabaseKeepingItsContent) {
  raw_exec(store::kMigrations[0]);
  raw_exec(
      "PRAGMA user_version = 1;"
      "INSERT INTO store VALUES (1, 'alice', 10.0, 0);"
      "INSERT INTO readers VALUES ('alice', 'Alice'), ('bob', 'Bob');"
      "INSERT INTO problems VALUES ('L1_008', 1, 8, 'Matmul', 'matmul');"
      "INSERT INTO items(position, id, kind, category, item_order, text) VALUES (0, 'p', 'pitfall', 'matmul', 0, 't');"
      "INSERT INTO group_baselines VALUES ('alice', 'L1|matmul', 1.5);");
  auto db = Database::open(db_path());
  ASSERT_TRUE(db) << db.error().message();
  EXPECT_EQ(raw_query("PRAGMA user_version"), std::to_string(store::kMigrations.size()));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->readers.size(), 2u);
  ASSERT_EQ(back->items.size(), 1u);
  EXPECT_EQ(back->items[0].id, "p");
  ASSERT_EQ(back->baselines.size(), 1u);  // bob had none
  EXPECT_EQ(back->baselines.at("alice").groups.at("L1|matmul"), 1.5);
}

TEST_F(DatabaseTest, MigratesAVersionThreeDatabaseItemsAsActiveSeedItems) {
  for (int i = 0; i < 3; ++i) raw_exec(store::kMigrations[i]);
  raw_exec(
      "PRAGMA user_version = 3;"
      "INSERT INTO store VALUES (1, 'alice', 10.0, 0);"
      "INSERT INTO readers VALUES ('alice', 'Alice', 1);"
      "INSERT INTO problems VALUES ('L1_008', 1, 8, 'Matmul', 'matmul');"
      "INSERT INTO items(position, id, kind, category, item_order, text) VALUES (0, 'p', 'pitfall', 'matmul', 0, 't');"
      "INSERT INTO problem_baselines VALUES ('alice', 'L1_008', 1.5);");
  auto db = Database::open(db_path());
  ASSERT_TRUE(db) << db.error().message();
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  ASSERT_EQ(back->items.size(), 1u);
  EXPECT_EQ(back->items[0].state, ItemState::kActive);
  EXPECT_TRUE(back->items[0].provenance.is_seed());
  EXPECT_TRUE(back->baselines.at("alice").provenance.empty());
}

TEST_F(DatabaseTest, StatesProvenanceAndHistoryRoundTrip) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db) << db.error().message();
  Memory memory = seed_;
  Item& kernel = memory.items.back();
  kernel.state = ItemState::kRetired;
  kernel.provenance = Provenance{"episode:e/r/none/L1_001/0", "r", "sha256:ab", "NVIDIA H200", "2026-12-04T08:00:00Z"};
  kernel.history = {HistoryEntry{"2026-12-04T09:00:00Z", "retire", "fails now", ItemState::kActive, ItemState::kRetired,
                                 1.5, std::nullopt}};
  std::string pid = memory.baselines.begin()->second.problems.begin()->first;
  memory.baselines.begin()->second.provenance[pid] = Provenance{"experiment:x", "", "v", "cpu", "d"};
  ASSERT_TRUE(db->replace(memory));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(memory));
  EXPECT_EQ(back->items.back().history, kernel.history);
}

TEST_F(DatabaseTest, UpdateIsOneTransactionAndAFailedChangeKeepsTheContent) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->replace(seed_));
  Status failed = db->update([](const Memory&) -> Result<Memory> { return Error("no"); });
  EXPECT_FALSE(failed);
  Status invalid = db->update([](const Memory& m) -> Result<Memory> {
    Memory out = m;
    out.items.push_back(out.items.front());  // a duplicate id
    return out;
  });
  EXPECT_FALSE(invalid);
  auto back = db->read();
  ASSERT_TRUE(back);
  EXPECT_EQ(memory_to_json(*back), memory_to_json(seed_));
}

TEST_F(DatabaseTest, KeepsABaselineEntryWithoutValues) {
  Memory memory = seed_;
  std::string other = memory.author == "claude-opus-5-5" ? "claude-opus-4-8" : "claude-opus-5-5";
  memory.baselines[other] = Baseline{};
  auto db = Database::open(db_path());
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->replace(memory));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  ASSERT_TRUE(back->baselines.contains(other));
  EXPECT_EQ(memory_to_json(*back), memory_to_json(memory));
}

TEST_F(DatabaseTest, RefusesANewerSchema) {
  raw_query("PRAGMA user_version = 99");
  auto db = Database::open(db_path());
  ASSERT_FALSE(db);
  EXPECT_NE(db.error().message().find(db_path()), std::string::npos);
  EXPECT_NE(db.error().message().find("99"), std::string::npos);
}

TEST_F(DatabaseTest, ReadingNeverChangesTheFile) {
  {
    auto db = Database::open(db_path());
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->replace(seed_));
  }
  std::string before = file_bytes();
  auto loaded = load_memory(db_path());
  ASSERT_TRUE(loaded) << loaded.error().message();
  EXPECT_EQ(memory_to_json(*loaded), memory_to_json(seed_));
  auto db = Database::open_existing(db_path());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->problems());
  EXPECT_FALSE(db->replace(seed_));
  EXPECT_FALSE(db->upsert_problems({seed_.problems.begin()->second}));
  EXPECT_EQ(file_bytes(), before);
}

TEST_F(DatabaseTest, ReadingRefusesAnUnrelatedSqliteFileAndLeavesIt) {
  raw_exec("CREATE TABLE unrelated(x); INSERT INTO unrelated VALUES (1);");
  std::string before = file_bytes();
  auto loaded = load_memory(db_path());
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().message(), db_path() + ": not a kmem database");
  EXPECT_FALSE(Database::open_existing(db_path()));
  EXPECT_EQ(file_bytes(), before);
  EXPECT_EQ(raw_query("SELECT count(*) FROM sqlite_master"), "1");
}

TEST_F(DatabaseTest, ReadingAnOlderSchemaMigratesOnlyInMemory) {
  raw_exec(store::kMigrations[0]);
  raw_exec(
      "PRAGMA user_version = 1;"
      "INSERT INTO store VALUES (1, 'alice', 10.0, 0);"
      "INSERT INTO readers VALUES ('alice', 'Alice');"
      "INSERT INTO group_baselines VALUES ('alice', 'L1|matmul', 1.5);");
  std::string before = file_bytes();
  auto loaded = load_memory(db_path());
  ASSERT_TRUE(loaded) << loaded.error().message();
  EXPECT_EQ(loaded->baselines.at("alice").groups.at("L1|matmul"), 1.5);
  auto db = Database::open_existing(db_path());
  ASSERT_TRUE(db) << db.error().message();
  EXPECT_FALSE(db->upsert_problems({seed_.problems.begin()->second}));
  EXPECT_EQ(file_bytes(), before);
  EXPECT_EQ(raw_query("PRAGMA user_version"), "1");
}

TEST_F(DatabaseTest, ReadingRefusesANewerSchema) {
  raw_query("PRAGMA user_version = 99");
  auto db = Database::open_existing(db_path());
  ASSERT_FALSE(db);
  EXPECT_NE(db.error().message().find(db_path() + ": schema version 99"), std::string::npos) << db.error().message();
}

TEST_F(DatabaseTest, PathsThatKeepNothingAreRefused) {
  for (const std::string& path : {std::string(), std::string(":memory:")}) {
    auto db = Database::open(path);
    ASSERT_FALSE(db) << "'" << path << "' was accepted";
    EXPECT_EQ(db.error().message().rfind("'" + path + "': not a database file", 0), 0u) << db.error().message();
  }
}

TEST_F(DatabaseTest, InvalidMemoryIsRefusedAndTheDatabaseKeepsItsContent) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->replace(seed_));
  std::string before = memory_to_json(*db->read());

  Memory bad = seed_;
  bad.items.back().source = "L9_999";
  Status s = db->replace(bad);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find(db_path()), std::string::npos) << s.error().message();
  EXPECT_NE(s.error().message().find(bad.items.back().id), std::string::npos) << s.error().message();
  EXPECT_EQ(memory_to_json(*db->read()), before);
}

TEST_F(DatabaseTest, FailureInTheMiddleOfAnImportRollsEverythingBack) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->replace(seed_));
  std::string before = memory_to_json(*db->read());
  // A trigger makes the insert of one particular item fail after the old
  // content was deleted and part of the new one written.
  raw_query(
      "CREATE TRIGGER fail_on_boom BEFORE INSERT ON items WHEN NEW.id = 'boom' "
      "BEGIN SELECT RAISE(ABORT, 'boom refused'); END");
  Memory next = seed_;
  next.readers.erase(next.author == "claude-opus-5-5" ? "claude-opus-4-8" : "claude-opus-5-5");
  next.baselines.clear();
  Item boom = next.items.back();
  boom.id = "boom";
  next.items.push_back(boom);
  Status s = db->replace(next);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("boom"), std::string::npos) << s.error().message();
  EXPECT_EQ(memory_to_json(*db->read()), before);
}

TEST_F(DatabaseTest, ProblemsCanBeUpsertedBeforeAndAfterAMemory) {
  auto db = Database::open(db_path());
  ASSERT_TRUE(db);
  Problem fresh{"L1_001", 1, 1, "Square_matrix_multiplication_", "matmul"};
  ASSERT_TRUE(db->upsert_problems({fresh}));
  auto listed = db->problems();
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->at("L1_001").name, "Square_matrix_multiplication_");

  ASSERT_TRUE(db->replace(seed_));
  Problem renamed = seed_.problems.at("L1_008");
  renamed.name = "Renamed";
  ASSERT_TRUE(db->upsert_problems({fresh, renamed}));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->problems.size(), seed_.problems.size() + 1);
  EXPECT_EQ(back->problems.at("L1_008").name, "Renamed");
  EXPECT_EQ(back->items.size(), seed_.items.size());
  EXPECT_EQ(back->baselines.size(), seed_.baselines.size());
  EXPECT_EQ(back->targets, seed_.targets);
}

}  // namespace
}  // namespace kmem

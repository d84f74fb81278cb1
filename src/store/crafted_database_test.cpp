// Crafted databases: each case imports the seed, damages the database with raw
// SQL (as an attacker or a bug in another tool could), and checks that reading
// it is refused with one error naming the database, the table and the row,
// never an exception or abort; and that replace refuses a Memory built in code
// with the same faults.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>

#include "kmem/limits.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kSeedPath = std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json";

// One damage: SQL run on the imported seed, and the words the error must hold.
struct Damage {
  const char* name;
  std::string sql;
  std::vector<std::string> expected;
};

std::vector<Damage> damages() {
  const std::string first_recipe = "(SELECT min(position) FROM items WHERE kind = 'recipe')";
  return {
      {"label of a missing item",
       "INSERT INTO item_labels VALUES ('ghost', 0, 'correctness')",
       {"item_labels row", "no item has the id 'ghost'"}},
      {"target of a missing problem",
       "UPDATE targets SET problem_id = 'L9_999' WHERE position = 3",
       {"targets row", "unknown problem 'L9_999'"}},
      {"target out of order", "UPDATE targets SET position = 500 WHERE position = 3", {"targets row", "position"}},
      {"targets without has_targets", "UPDATE store SET has_targets = 0", {"targets row", "has_targets"}},
      {"has_targets not a flag", "UPDATE store SET has_targets = 2", {"store row 1", "has_targets", "0 or 1"}},
      {"invalid UTF-8 in a text",
       "UPDATE items SET text = CAST(X'4142FF43' AS TEXT) WHERE position = 0",
       {"items row", "lesson:00", "column 'text'", "invalid UTF-8"}},
      {"invalid UTF-8 in an id",
       "UPDATE readers SET id = CAST(X'C0AF' AS TEXT) WHERE id = 'claude-opus-5-5'",
       {"readers row", "column 'id'", "invalid UTF-8"}},
      {"blob for a text", "UPDATE readers SET display = X'00'", {"readers row", "column 'display'", "BLOB"}},
      {"text for a number",
       "UPDATE items SET speedup = 'fast' WHERE position = " + first_recipe,
       {"items row", "column 'speedup'", "number", "TEXT"}},
      {"text for an integer",
       "UPDATE problems SET level = 'one' WHERE id = 'L1_008'",
       {"problems row", "column 'level'", "integer", "TEXT"}},
      {"integer beyond int",
       "UPDATE problems SET number = 1000000000000 WHERE id = 'L1_008'",
       {"problems row", "column 'number'", "range of int"}},
      {"NULL text of a recipe",
       "UPDATE items SET text = NULL WHERE position = " + first_recipe,
       {"items row", "column 'text'", "NULL"}},
      {"NULL speedup of a kernel",
       "UPDATE items SET speedup = NULL WHERE kind = 'kernel'",
       {"items row", "column 'speedup'", "NULL"}},
      {"unknown kind",
       "PRAGMA ignore_check_constraints = ON; UPDATE items SET kind = 'trick' WHERE position = 0",
       {"items row", "unknown kind 'trick'"}},
      {"two store rows",
       "PRAGMA ignore_check_constraints = ON; INSERT INTO store VALUES (2, 'claude-opus-4-8', 10.0, 1)",
       {"store row 2", "more than one row"}},
      {"infinite score cap", "UPDATE store SET score_cap = 9e999", {"store row 1", "score_cap", "inf"}},
      {"zero score cap", "UPDATE store SET score_cap = 0", {"score cap 0"}},
      {"negative speedup",
       "UPDATE items SET speedup = -3 WHERE position = " + first_recipe,
       {"items[", "recipe", "speedup -3"}},
      {"absurd speedup",
       "UPDATE items SET speedup = 1e308 WHERE position = " + first_recipe,
       {"items[", "speedup 1e+308"}},
      {"negative baseline", "UPDATE problem_baselines SET score = -7 WHERE rowid = 1", {"baselines.", "score -7"}},
      {"baseline above the cap",
       "UPDATE group_baselines SET score = 1e308 WHERE rowid = 1",
       {"baselines.", "groups.", "score 1e+308"}},
      {"baseline of an unknown reader",
       "INSERT INTO problem_baselines VALUES ('ghost', 'L1_008', 1.0)",
       {"problem_baselines row", "unknown reader 'ghost'"}},
      {"malformed problem id",
       "UPDATE problems SET id = 'L-1_-05', level = -1, number = -5 WHERE id = 'L1_008'",
       {"problems row", "L-1_-05", "level -1"}},
      {"problem id of another number",
       "UPDATE problems SET number = 9 WHERE id = 'L1_008'",
       {"problems row", "L1_008", "expected L1_009"}},
      {"empty reader display", "UPDATE readers SET display = ''", {"readers.", "field 'display' is empty"}},
      {"category on a lesson",
       "UPDATE items SET category = 'conv' WHERE position = 0",
       {"items[0]", "a lesson has no field 'category'"}},
      {"category with a bar", "UPDATE problems SET category = 'mat|mul' WHERE id = 'L1_008'", {"L1_008", "category"}},
      {"reader id with a space",
       "UPDATE readers SET id = 'a b' WHERE id = 'claude-opus-5-5'; "
       "UPDATE problem_baselines SET reader_id = 'a b' WHERE reader_id = 'claude-opus-5-5'; "
       "UPDATE group_baselines SET reader_id = 'a b' WHERE reader_id = 'claude-opus-5-5'",
       {"readers.a b", "reader id 'a b'"}},
  };
}

class CraftedDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kmem_crafted_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto seed = load_memory(kSeedPath);
    ASSERT_TRUE(seed) << seed.error().message();
    seed_ = std::move(*seed);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A fresh database holding the seed, damaged by `sql` on a raw connection.
  std::string damaged(const std::string& name, const std::string& sql) {
    std::string path = (dir_ / (name + ".db")).string();
    {
      auto db = Database::open(path);
      EXPECT_TRUE(db);
      EXPECT_TRUE(db->replace(seed_));
    }
    sqlite3* raw = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << name << ": " << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(raw);
    return path;
  }

  fs::path dir_;
  Memory seed_;
};

TEST_F(CraftedDatabaseTest, EveryDamageIsRefusedNamingTheTableAndRow) {
  int n = 0;
  for (const Damage& d : damages()) {
    std::string path = damaged("case" + std::to_string(n++), d.sql);
    auto memory = load_memory(path);
    ASSERT_FALSE(memory) << d.name << " was accepted";
    const std::string& message = memory.error().message();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << d.name << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << d.name << ": " << message;
    for (const std::string& word : d.expected)
      EXPECT_NE(message.find(word), std::string::npos) << d.name << ": '" << word << "' not in: " << message;
  }
}

TEST_F(CraftedDatabaseTest, TheCatalogueIsCheckedToo) {
  std::string path = damaged("catalogue", "UPDATE problems SET name = CAST(X'FF' AS TEXT) WHERE id = 'L1_008'");
  auto db = Database::open_existing(path);
  ASSERT_TRUE(db) << db.error().message();
  auto problems = db->problems();
  ASSERT_FALSE(problems);
  EXPECT_NE(problems.error().message().find("problems row"), std::string::npos) << problems.error().message();
  EXPECT_NE(problems.error().message().find("column 'name'"), std::string::npos) << problems.error().message();
}

// The same faults in a Memory built in code: replace refuses them before it
// writes anything, so the database keeps its content.
TEST_F(CraftedDatabaseTest, ReplaceRefusesWhatReadWouldRefuse) {
  std::string path = (dir_ / "kmem.db").string();
  auto db = Database::open(path);
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->replace(seed_));
  std::string before = memory_to_json(*db->read());
  size_t recipe = 0;
  while (seed_.items[recipe].kind != ItemKind::kRecipe) ++recipe;
  std::vector<std::pair<const char*, std::function<void(Memory&)>>> faults = {
      {"infinite score cap", [](Memory& m) { m.score_cap = INFINITY; }},
      {"negative score cap", [](Memory& m) { m.score_cap = -1; }},
      {"negative speedup", [&](Memory& m) { m.items[recipe].speedup = -2; }},
      {"speedup beyond the limit", [&](Memory& m) { m.items[recipe].speedup = limits::kMaxSpeedup * 2; }},
      {"NaN speedup", [&](Memory& m) { m.items[recipe].speedup = std::nan(""); }},
      {"negative baseline", [](Memory& m) { m.baselines.begin()->second.problems.begin()->second = -7; }},
      {"negative zero baseline", [](Memory& m) { m.baselines.begin()->second.problems.begin()->second = -0.0; }},
      {"invalid UTF-8 text", [](Memory& m) { m.items[0].text = "ok \xFF"; }},
      {"overlong UTF-8", [](Memory& m) { m.items[0].text = "\xC0\xAF"; }},
      {"surrogate in UTF-8", [](Memory& m) { m.items[0].text = "\xED\xA0\x80"; }},
      {"invalid UTF-8 display", [](Memory& m) { m.readers.begin()->second.display = "\xE2\x82"; }},
      {"unknown label", [](Memory& m) { m.items[0].labels = {"style"}; }},
      {"code on a recipe", [&](Memory& m) { m.items[recipe].code = "x"; }},
      {"problem id L-1_-05",
       [](Memory& m) {
         m.problems["L-1_-05"] = Problem{"L-1_-05", -1, -5, "X", "matmul"};
       }},
  };
  for (const auto& [name, fault] : faults) {
    Memory bad = seed_;
    fault(bad);
    Status s = db->replace(bad);
    ASSERT_FALSE(s) << name << " was accepted";
    EXPECT_EQ(s.error().message().rfind(path + ": ", 0), 0u) << name << ": " << s.error().message();
    EXPECT_EQ(memory_to_json(*db->read()), before) << name;
  }
}

TEST_F(CraftedDatabaseTest, AFifoIsRefusedWithoutBlocking) {
  std::string fifo = (dir_ / "store.fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto loaded = load_memory(fifo);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().message(), fifo + ": is a FIFO, not a regular file");
  for (auto open : {&Database::open, &Database::open_existing}) {
    auto db = open(fifo);
    ASSERT_FALSE(db);
    EXPECT_EQ(db.error().message(), fifo + ": is a FIFO, not a regular file");
  }
  auto folder = Database::open(dir_.string());
  ASSERT_FALSE(folder);
  EXPECT_EQ(folder.error().message(), dir_.string() + ": is a directory");
}

}  // namespace
}  // namespace kmem

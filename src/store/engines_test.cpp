// The store's behaviour on both engines (SQLite and PostgreSQL): the same
// tests, parametrised by engine (store/test_database.h), so what one engine
// does the other does too: lossless round trips, one-transaction updates
// that keep the content on failure, concurrent writers taking turns,
// experiments and their episodes, read-only opening.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "kmem/episode.h"
#include "kmem/store.h"
#include "store/test_database.h"

namespace kmem {
namespace {

const std::string kSeedPath = std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json";

class EngineTest : public ::testing::TestWithParam<store::Engine> {
 protected:
  void SetUp() override {
    if (std::string why = store::TestDatabase::unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
    db_ = std::make_unique<store::TestDatabase>(GetParam());
    auto seed = load_memory(kSeedPath);
    ASSERT_TRUE(seed) << seed.error().message();
    seed_ = std::move(*seed);
  }
  const std::string& url() const { return db_->url(); }

  std::unique_ptr<store::TestDatabase> db_;
  Memory seed_;
};

TEST_P(EngineTest, ImportThenReadIsLossless) {
  auto db = Database::open(url());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->replace(seed_));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(seed_));
  auto loaded = load_memory(url());  // what every --store and --db reader uses
  ASSERT_TRUE(loaded) << loaded.error().message();
  EXPECT_EQ(memory_to_json(*loaded), memory_to_json(seed_));
}

TEST_P(EngineTest, EmptyDatabaseSaysSo) {
  auto db = Database::open(url());
  ASSERT_TRUE(db) << db.error().message();
  auto back = db->read();
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message().find("holds no memory yet"), std::string::npos) << back.error().message();
}

TEST_P(EngineTest, ReopensAtTheCurrentSchemaWithItsContent) {
  ASSERT_TRUE(Database::open(url())->replace(seed_));
  auto again = Database::open(url());
  ASSERT_TRUE(again) << again.error().message();
  auto back = again->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(seed_));
}

TEST_P(EngineTest, StatesProvenanceAndHistoryRoundTrip) {
  auto db = Database::open(url());
  ASSERT_TRUE(db) << db.error().message();
  Memory memory = seed_;
  Item& kernel = memory.items.back();
  kernel.state = ItemState::kRetired;
  kernel.provenance = Provenance{"episode:e/r/none/L1_001/0", "r", "sha256:ab", "NVIDIA H200", "2026-12-04T08:00:00Z"};
  kernel.history = {HistoryEntry{"2026-12-04T09:00:00Z", "retire", "fails now", ItemState::kActive, ItemState::kRetired,
                                 1.5, std::nullopt}};
  kernel.speedup = 0.1 + 0.2;  // a double that needs all its digits
  std::string pid = memory.baselines.begin()->second.problems.begin()->first;
  memory.baselines.begin()->second.provenance[pid] = Provenance{"experiment:x", "", "v", "cpu", "d"};
  ASSERT_TRUE(db->replace(memory));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(memory));
  EXPECT_EQ(back->items.back().history, kernel.history);
}

TEST_P(EngineTest, AFailedOrInvalidUpdateKeepsTheContent) {
  auto db = Database::open(url());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->replace(seed_));
  EXPECT_FALSE(db->update([](const Memory&) -> Result<Memory> { return Error("no"); }));
  EXPECT_FALSE(db->update([](const Memory& m) -> Result<Memory> {
    Memory out = m;
    out.items.push_back(out.items.front());  // a duplicate id
    return out;
  }));
  Memory bad = seed_;
  bad.items.back().source = "L9_999";
  Status refused = db->replace(bad);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find(bad.items.back().id), std::string::npos) << refused.error().message();
  EXPECT_EQ(memory_to_json(*db->read()), memory_to_json(seed_));
}

TEST_P(EngineTest, ConcurrentUpdatesTakeTurns) {
  ASSERT_TRUE(Database::open(url())->replace(seed_));
  constexpr int kWriters = 4, kEach = 3;
  std::vector<std::thread> writers;
  std::atomic<int> failures = 0;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      auto db = Database::open(url());  // a connection of its own, as another process has
      if (!db) return void(++failures);
      for (int i = 0; i < kEach; ++i) {
        Status s = db->update([&](const Memory& m) -> Result<Memory> {
          Memory out = m;
          Item lesson = out.items.front();
          lesson.id = "lesson:w" + std::to_string(w) + "_" + std::to_string(i);
          out.items.push_back(lesson);
          return out;
        });
        if (!s) ++failures;
      }
    });
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures, 0);
  auto back = Database::open(url())->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->items.size(), seed_.items.size() + kWriters * kEach);  // no update lost
}

TEST_P(EngineTest, ProblemsCanBeUpsertedBeforeAMemory) {
  auto db = Database::open(url());
  ASSERT_TRUE(db);
  Problem fresh{"L1_001", 1, 1, "Square_matrix_multiplication_", "matmul"};
  ASSERT_TRUE(db->upsert_problems({fresh}));
  fresh.name = "Renamed";
  ASSERT_TRUE(db->upsert_problems({fresh}));
  auto listed = db->problems();
  ASSERT_TRUE(listed) << listed.error().message();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->at("L1_001").name, "Renamed");
}

TEST_P(EngineTest, ExperimentsKeepTheFirstEpisodeOfAKeyWithItsTurns) {
  auto db = Database::open(url());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->begin_experiment("x", R"({"name":"x"})"));
  ASSERT_TRUE(db->begin_experiment("x", R"({"name":"x"})"));  // the same spec again
  EXPECT_FALSE(db->begin_experiment("x", R"({"name":"y"})"));
  EpisodeOutcome o;
  o.end = "submitted";
  o.submitted = o.correct = true;
  o.score = 2.5;
  o.shown_item_ids = {"lesson:00"};
  Turn turn;
  turn.index = 1;
  turn.action = "SUBMIT";
  turn.verdict = "pass";
  turn.candidate = "import torch";
  turn.speedup = 2.5;
  turn.flags = {"unsteady_timing"};
  o.turns = {turn};
  Problem p{"L1_001", 1, 1, "x", "relu"};
  EpisodeKey key{"reader-a", "none", "L1_001", 0};
  auto first = db->record_episode("x", key, p, o);
  ASSERT_TRUE(first) << first.error().message();
  EXPECT_TRUE(*first);
  o.score = 5;
  auto again = db->record_episode("x", key, p, o);
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_FALSE(*again);
  auto episodes = db->experiment_episodes("x");
  ASSERT_TRUE(episodes) << episodes.error().message();
  ASSERT_EQ(episodes->size(), 1u);
  EXPECT_EQ(episodes->at(0).score, 2.5);
  EXPECT_EQ(episodes->at(0).turns, 1);
  auto learned = db->learning_episodes("x");
  ASSERT_TRUE(learned) << learned.error().message();
  ASSERT_EQ(learned->size(), 1u);
  ASSERT_EQ(learned->at(0).turns.size(), 1u);
  EXPECT_EQ(learned->at(0).turns[0].candidate, "import torch");
  EXPECT_EQ(learned->at(0).turns[0].flags, std::vector<std::string>{"unsteady_timing"});
  EXPECT_EQ(learned->at(0).shown_item_ids, std::vector<std::string>{"lesson:00"});
  EXPECT_EQ(*db->experiments(), std::vector<std::string>{"x"});
}

TEST_P(EngineTest, OpeningForReadingRefusesWritesAndAnEmptyDatabase) {
  EXPECT_FALSE(Database::open_existing(url()));  // nothing there yet (and nothing created)
  ASSERT_TRUE(Database::open(url())->replace(seed_));
  auto reading = Database::open_existing(url());
  ASSERT_TRUE(reading) << reading.error().message();
  EXPECT_EQ(memory_to_json(*reading->read()), memory_to_json(seed_));
  EXPECT_FALSE(reading->replace(seed_));
}

// The one difference: PostgreSQL's text holds no NUL byte (JSON's \u0000),
// so such a store is refused there, whole, instead of cut short.
TEST_P(EngineTest, ATextWithANulByteIsKeptOrRefusedNeverCut) {
  auto db = Database::open(url());
  ASSERT_TRUE(db) << db.error().message();
  ASSERT_TRUE(db->replace(seed_));
  Memory memory = seed_;
  memory.items.front().text = std::string("before\0after", 12);
  Status s = db->replace(memory);
  if (GetParam() == store::Engine::kSqlite) {
    ASSERT_TRUE(s) << s.error().message();
    EXPECT_EQ(db->read()->items.front().text, memory.items.front().text);
  } else {
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message().find("NUL byte"), std::string::npos) << s.error().message();
    EXPECT_EQ(memory_to_json(*db->read()), memory_to_json(seed_));
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineTest, ::testing::Values(store::Engine::kSqlite, store::Engine::kPostgres),
                         store::engine_name);

}  // namespace
}  // namespace kmem

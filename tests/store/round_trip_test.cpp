// Property tests of the store over generated memories (seeded, so a failure
// is reproducible from the seed it prints): every valid Memory survives
// export -> import -> database -> export byte for byte, and renders the same
// 10-policy texts before and after; a generated invalid value is refused on
// every path in.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "kmem/limits.h"
#include "kmem/memory.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

// Builds random valid memories: ids, names and texts drawn from awkward
// alphabets (multi-byte UTF-8, quotes, backslashes, braces, newlines), floats
// across their whole allowed range, optional fields present or not.
class MemoryGenerator {
 public:
  explicit MemoryGenerator(unsigned seed) : rng_(seed) {}

  Memory memory() {
    Memory m;
    m.score_cap = pick({10.0, 1.0, limits::kMaxScoreCap, real(1e-3, 100.0), 5e-324});
    int readers = integer(1, 4);
    for (int i = 0; i < readers; ++i) {
      std::string id = identifier(true);
      m.readers[id] = Reader{id, name()};
    }
    m.author = std::next(m.readers.begin(), integer(0, static_cast<int>(m.readers.size()) - 1))->first;
    int problems = integer(1, 12);
    for (int i = 0; i < problems; ++i) {
      Problem p;
      p.level = integer(limits::kMinLevel, limits::kMaxLevel);
      p.number = integer(limits::kMinProblemNumber, limits::kMaxProblemNumber);
      p.id = "L" + std::to_string(p.level) + "_" +
             std::string(p.number < 10    ? "00"
                         : p.number < 100 ? "0"
                                          : "") +
             std::to_string(p.number);
      p.name = name();
      p.category = pick<std::string>({"matmul", "conv", "norm", "x", identifier(false)});
      m.problems[p.id] = p;
    }
    std::vector<std::string> ids;
    for (const auto& [id, p] : m.problems) ids.push_back(id);
    if (coin()) {
      std::vector<std::string> targets = ids;
      std::shuffle(targets.begin(), targets.end(), rng_);
      targets.resize(integer(0, static_cast<int>(targets.size())));
      m.targets = targets;
    }
    int items = integer(0, 30);
    for (int i = 0; i < items; ++i) m.items.push_back(item("item" + std::to_string(i) + identifier(true), m, ids));
    for (const auto& [id, r] : m.readers) {
      if (coin()) continue;
      Baseline& b = m.baselines[id];
      for (const std::string& pid : ids)
        if (coin()) b.problems[pid] = score(m.score_cap);
      for (const auto& [pid, p] : m.problems)
        if (coin()) b.groups["L" + std::to_string(p.level) + "|" + p.category] = score(m.score_cap);
    }
    return m;
  }

 private:
  Item item(const std::string& id, const Memory& m, const std::vector<std::string>& problems) {
    Item item;
    item.id = id;
    item.kind = pick({ItemKind::kLesson, ItemKind::kPitfall, ItemKind::kRecipe, ItemKind::kKernel});
    for (int l = integer(0, 3); l > 0; --l)
      item.labels.push_back(pick<std::string>({"prohibition", "correctness", "environment"}));
    bool provenance = item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel;
    if (!provenance || coin()) item.order = pick({0, 1, -1, integer(-1000, 1000), 2147483647, -2147483647 - 1});
    if (item.kind != ItemKind::kLesson) {
      const Problem& p = m.problems.at(problems[integer(0, static_cast<int>(problems.size()) - 1)]);
      item.category = coin() ? p.category : identifier(false);
    }
    if (provenance) {
      item.source = problems[integer(0, static_cast<int>(problems.size()) - 1)];
      item.speedup = pick({1.0, limits::kMaxSpeedup, 5e-324, real(0.01, 40.0), std::exp(real(-20, 13.8))});
    }
    if (item.kind == ItemKind::kKernel) item.code = text();
    else item.text = text();
    if (coin()) item.text_no_numbers = text();
    return item;
  }

  double score(double cap) { return pick({0.0, cap, real(0.0, cap)}); }
  std::string identifier(bool bar_allowed) {
    std::string out;
    for (int n = integer(1, 12); n > 0; --n) {
      char c = static_cast<char>(integer('!', '~'));
      out += c == '|' && !bar_allowed ? '_' : c;
    }
    return out;
  }
  std::string name() {
    static const std::vector<std::string> kPieces = {
        "a", "Z", " ", "\xC3\xA9", "\xE6\xBC\xA2", "\xF0\x9F\x98\x80", "\"", "\\", "{", "}", "%", "_", "0.5"};
    std::string out;
    for (int n = integer(1, 10); n > 0; --n) out += kPieces[integer(0, static_cast<int>(kPieces.size()) - 1)];
    return out;
  }
  std::string text() {
    static const std::vector<std::string> kPieces = {
        "word ", "\n", "\t",  "{sp}", "{x}", "1.5x ", "\xC3\xA9", "\xF0\x9F\x98\x80",
        "\"q\"", "\\", "```", "\r\n", "%s",  "<b>"};
    std::string out;
    for (int n = integer(0, 20); n > 0; --n) out += kPieces[integer(0, static_cast<int>(kPieces.size()) - 1)];
    return out;
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  bool coin() { return integer(0, 1) == 1; }
  template <typename T>
  T pick(std::initializer_list<T> choices) {
    return *std::next(choices.begin(), integer(0, static_cast<int>(choices.size()) - 1));
  }

  std::mt19937 rng_;
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every text the pack's policies render for the memory, in one string.
std::string all_texts(const Memory& memory, const Pack& pack) {
  MemoryIndex index(memory);
  std::string out;
  for (const auto& [name, policy] : pack.policies)
    for (const auto& [reader, unused] : memory.readers)
      for (const std::string& id : target_ids(memory)) {
        auto text = render(index, pack, policy, reader, memory.problems.at(id));
        out += name + "/" + reader + "/" + id + "\n" + (text ? *text : "error: " + text.error().message()) + "\n";
      }
  return out;
}

class RoundTripTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kmem_round_trip_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::string pack_path = std::string(KMEM_DATA_DIR) + "/seed/prompt-pack.json";
    auto pack = parse_pack_json(read(pack_path), pack_path);
    ASSERT_TRUE(pack) << pack.error().message();
    pack_ = std::move(*pack);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  Pack pack_;
};

TEST_F(RoundTripTest, ExportImportExportIsIdenticalAndRendersTheSame) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Memory generated = MemoryGenerator(seed).memory();
    ASSERT_TRUE(validate_memory(generated, "generated")) << validate_memory(generated, "generated").error().message();
    std::string exported = memory_to_json(generated);
    auto imported = parse_memory_json(exported, "exported.json");
    ASSERT_TRUE(imported) << imported.error().message();
    EXPECT_EQ(memory_to_json(*imported), exported);

    std::string db_path = (dir_ / ("s" + std::to_string(seed) + ".db")).string();
    {
      auto db = Database::open(db_path);
      ASSERT_TRUE(db) << db.error().message();
      ASSERT_TRUE(db->replace(*imported));
    }
    auto from_db = load_memory(db_path);  // as `kmem export` reads it
    ASSERT_TRUE(from_db) << from_db.error().message();
    EXPECT_EQ(memory_to_json(*from_db), exported);
    EXPECT_EQ(all_texts(*from_db, pack_), all_texts(generated, pack_));
    fs::remove(db_path);
  }
}

TEST_F(RoundTripTest, TheSeedRoundTripsThroughTheDatabase) {
  auto seed = load_memory(std::string(KMEM_DATA_DIR) + "/seed/memory-store.json");
  ASSERT_TRUE(seed) << seed.error().message();
  std::string db_path = (dir_ / "seed.db").string();
  auto db = Database::open(db_path);
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->replace(*seed));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(*seed));
  EXPECT_EQ(all_texts(*back, pack_), all_texts(*seed, pack_));
}

// One invalid value put into a generated memory is refused by the JSON
// import of its export (where JSON can carry it) and by replace.
TEST_F(RoundTripTest, GeneratedFaultsAreRefusedOnEveryPathIn) {
  std::vector<std::pair<const char*, std::function<bool(Memory&)>>> faults = {
      {"speedup <= 0",
       [](Memory& m) {
         for (Item& i : m.items)
           if (i.kind == ItemKind::kRecipe || i.kind == ItemKind::kKernel) return i.speedup = -i.speedup, true;
         return false;
       }},
      {"speedup beyond kMaxSpeedup",
       [](Memory& m) {
         for (Item& i : m.items)
           if (i.kind == ItemKind::kKernel) return i.speedup = limits::kMaxSpeedup * 1.5, true;
         return false;
       }},
      {"baseline above the cap",
       [](Memory& m) {
         for (auto& [r, b] : m.baselines)
           if (!b.problems.empty()) return b.problems.begin()->second = m.score_cap * 2, true;
         return false;
       }},
      {"score cap 0", [](Memory& m) { return m.score_cap = 0, true; }},
      {"score cap beyond kMaxScoreCap", [](Memory& m) { return m.score_cap = limits::kMaxScoreCap * 2, true; }},
      {"problem id with level 0",
       [](Memory& m) {
         return m.problems["L0_001"] = Problem{"L0_001", 0, 1, "n", "c"}, true;
       }},
      {"problem number 0",
       [](Memory& m) {
         return m.problems["L1_000"] = Problem{"L1_000", 1, 0, "n", "c"}, true;
       }},
      {"empty reader id",
       [](Memory& m) {
         return m.readers[""] = Reader{"", "d"}, true;
       }},
      {"reader id with a control character",
       [](Memory& m) {
         return m.readers["a\tb"] = Reader{"a\tb", "d"}, true;
       }},
      {"display with a newline", [](Memory& m) { return m.readers.begin()->second.display = "a\nb", true; }},
  };
  for (unsigned seed = 1; seed <= 40; ++seed) {
    for (const auto& [name, fault] : faults) {
      Memory m = MemoryGenerator(seed).memory();
      if (!fault(m)) continue;
      SCOPED_TRACE(std::string(name) + ", seed " + std::to_string(seed));
      EXPECT_FALSE(validate_memory(m, "m"));
      EXPECT_FALSE(parse_memory_json(memory_to_json(m), "m.json"));
      auto db = Database::open((dir_ / "faults.db").string());
      ASSERT_TRUE(db);
      EXPECT_FALSE(db->replace(m));
    }
  }
}

}  // namespace
}  // namespace kmem

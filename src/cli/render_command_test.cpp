// Runs `kmem render`: the acceptance contract of the command. --all equals
// tests/conformance/seed-dump.json and covers the store's targets (else all
// problems), one render is byte-exact without a trailing newline (from a JSON
// store or a database), and unknown names exit 2 with one line listing the
// valid choices; bad input (an unrelated SQLite file, a folder, a number out
// of range) and a failed write to stdout exit 2 and change nothing.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_test_support.h"

namespace {

namespace fs = std::filesystem;

using Outcome = kmem::test::CommandOutcome;
using kmem::test::read_whole_file;

class RenderCommand : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = kmem::test::fresh_test_dir("kmem_render_test"); }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs kmem with `arguments`; stdout and stderr are kept apart.
  Outcome kmem(const std::string& arguments) {
    return kmem::test::run_command(std::string(KMEM_BINARY) + " " + arguments, dir_ / "stderr");
  }

  nlohmann::json dump() const { return nlohmann::json::parse(read_whole_file(KMEM_CONFORMANCE_DIR "/seed-dump.json")); }
  std::string second(const std::string& file) const { return KMEM_CONFORMANCE_DIR "/second/" + file; }

  fs::path dir_;
};

TEST_F(RenderCommand, AllEqualsTheSeedDump) {
  Outcome all = kmem("render --all");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_TRUE(nlohmann::json::parse(all.out) == dump());
  Outcome explicit_paths = kmem(std::string("render --all --store ") + KMEM_DATA_DIR +
                                "/seed/memory-store.json --pack " + KMEM_DATA_DIR + "/seed/prompt-pack.json");
  EXPECT_EQ(explicit_paths.out, all.out) << "the output must be stable";
}

TEST_F(RenderCommand, AllCoversTheTargetsElseEveryProblem) {
  Outcome targets =
      kmem("render --all --store " + second("memory-store.json") + " --pack " + second("prompt-pack.json"));
  ASSERT_EQ(targets.exit_code, 0) << targets.err;
  nlohmann::json listed = nlohmann::json::parse(targets.out);
  EXPECT_EQ(listed.size(), 6u);
  for (const auto& [policy, readers] : listed.items()) {
    EXPECT_EQ(readers.size(), 3u);
    for (const auto& [reader, problems] : readers.items()) {
      EXPECT_EQ(problems.size(), 3u) << policy << "/" << reader;
      EXPECT_TRUE(problems.contains("L1_010") && problems.contains("L1_011") && problems.contains("L1_031"));
    }
  }
  nlohmann::json store = nlohmann::json::parse(read_whole_file(second("memory-store.json")));
  store.erase("targets");
  std::ofstream(dir_ / "no-targets.json") << store.dump();
  Outcome all =
      kmem("render --all --store " + (dir_ / "no-targets.json").string() + " --pack " + second("prompt-pack.json"));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_TRUE(nlohmann::json::parse(all.out) == nlohmann::json::parse(read_whole_file(second("memory-dump.json"))));
}

TEST_F(RenderCommand, OneTextByteExactFromJsonOrDatabase) {
  std::string expected = dump()["fg_target"]["claude-opus-5-5"]["L2_006"];
  Outcome one = kmem("render --policy fg_target --reader claude-opus-5-5 --problem L2_006");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, expected);
  EXPECT_NE(one.out.back(), '\n');

  std::string db = (dir_ / "seed.db").string();
  Outcome imported = kmem(std::string("import ") + KMEM_DATA_DIR + "/seed/memory-store.json --db " + db);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  Outcome from_db = kmem("render --store " + db + " --policy fg_target --reader claude-opus-5-5 --problem L2_006");
  ASSERT_EQ(from_db.exit_code, 0) << from_db.err;
  EXPECT_EQ(from_db.out, expected);
  EXPECT_EQ(kmem("render --policy none --reader claude-opus-4-8 --problem L1_008").out, "");
}

TEST_F(RenderCommand, UnknownNamesExit2NamingTheInputAndAFewCloseIds) {
  Outcome policy = kmem("render --policy nope --reader claude-opus-4-8 --problem L1_008");
  EXPECT_EQ(policy.exit_code, 2);
  EXPECT_EQ(
      policy.err,
      "kmem render: " KMEM_DATA_DIR
      "/seed/prompt-pack.json: unknown policy 'nope' (choose from: fg_target, "
      "frontier_gated, lessons_only, no_approach, no_numbers, no_prohib, none, prior, reader_relative, show_all)\n");
  // A problem outside the store, without a KernelBench folder: the three
  // closest ids, not all 93.
  Outcome problem = kmem("render --policy none --reader claude-opus-4-8 --problem L1_09");
  EXPECT_EQ(problem.exit_code, 2);
  EXPECT_EQ(problem.err.rfind("kmem render: problem 'L1_09' is not in " KMEM_DATA_DIR "/seed/memory-store.json "
                              "(closest: L1_0",
                              0),
            0u)
      << problem.err;
  EXPECT_NE(problem.err.find("needs --kernelbench DIR or a problem file"), std::string::npos) << problem.err;
  EXPECT_LT(std::count(problem.err.begin(), problem.err.end(), ','), 4);
  EXPECT_EQ(problem.err.find('\n'), problem.err.size() - 1);
  EXPECT_TRUE(policy.out.empty() && problem.out.empty());
}

TEST_F(RenderCommand, RendersWhatAnEpisodeShowsForAnyProblemAndReader) {
  // The quickstart's L1_019 (not in the seed) by id in a KernelBench folder
  // and as a file, for a reader without a baseline: the episode's text.
  std::string kb = std::string(KMEM_SOURCE_DIR) + "/docs/quickstart/kb";
  Outcome by_id = kmem("render --policy show_all --reader my-model --problem L1_019 --kernelbench " + kb);
  ASSERT_EQ(by_id.exit_code, 0) << by_id.err;
  EXPECT_NE(by_id.out.find("### Lessons about this environment"), std::string::npos) << by_id.out;
  EXPECT_NE(by_id.err.find("reader 'my-model' has no baseline"), std::string::npos) << by_id.err;
  Outcome by_file = kmem("render --policy show_all --reader my-model --problem " + kb + "/level1/19_ReLU.py");
  ASSERT_EQ(by_file.exit_code, 0) << by_file.err;
  EXPECT_EQ(by_file.out, by_id.out);
  // A reader the store lacks renders like one with no baseline under the
  // reader-relative policy: unknown values, no error.
  Outcome unknown = kmem("render --policy reader_relative --reader gpt --problem L2_006");
  ASSERT_EQ(unknown.exit_code, 0) << unknown.err;
  // The seed's speedups were measured on GPUs: a text for the CPU shows none.
  Outcome cpu = kmem("render --policy show_all --reader claude-opus-4-8 --problem L2_006 --device cpu");
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  EXPECT_EQ(cpu.out.find("x on "), std::string::npos) << cpu.out;
  EXPECT_NE(kmem("render --policy show_all --reader claude-opus-4-8 --problem L2_006").out.find("x on "),
            std::string::npos);
}

TEST_F(RenderCommand, AnUnrelatedSqliteFileIsRefusedAndLeftAsItWas) {
  std::string path = (dir_ / "other.db").string();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE notes(text); INSERT INTO notes VALUES ('mine');", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  std::string before = read_whole_file(path);
  Outcome run = kmem("render --all --store " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "kmem render: " + path + ": not a kmem database\n");
  EXPECT_EQ(read_whole_file(path), before);
}

TEST_F(RenderCommand, BadPacksAndFailedWritesExit2WithoutACrash) {
  std::string pack = read_whole_file(std::string(KMEM_DATA_DIR) + "/seed/prompt-pack.json");
  pack.replace(pack.find("\"max_pitfalls\": 6"), 17, "\"max_pitfalls\": 1e400");
  std::ofstream(dir_ / "big.json") << pack;
  Outcome big = kmem("render --all --pack " + (dir_ / "big.json").string());
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_EQ(big.err.rfind("kmem render: " + (dir_ / "big.json").string() + ": malformed JSON: ", 0), 0u) << big.err;
  Outcome folder = kmem("render --all --pack " + dir_.string());
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_EQ(folder.err, "kmem render: " + dir_.string() + ": is a directory\n");
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const char* args : {"render --all", "render --policy fg_target --reader claude-opus-5-5 --problem L2_006"}) {
    Outcome full = kmem(std::string(args) + " >/dev/full");
    EXPECT_EQ(full.exit_code, 2) << args;
    EXPECT_EQ(full.err.rfind("kmem render: stdout: write failed: ", 0), 0u) << args << ": " << full.err;
  }
}

TEST_F(RenderCommand, UsageAndFileErrorsExit2) {
  EXPECT_EQ(kmem("render --policy none").exit_code, 2);
  EXPECT_EQ(kmem("render --all --policy none").exit_code, 2);
  Outcome missing = kmem("render --all --pack " + (dir_ / "absent.json").string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err,
            "kmem render: " + (dir_ / "absent.json").string() + ": cannot open: No such file or directory\n");
  std::ofstream(dir_ / "bad.json") << R"({"format": 1, "texts": {}, "policies": {}})";
  Outcome bad = kmem("render --all --pack " + (dir_ / "bad.json").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "kmem render: " + (dir_ / "bad.json").string() + ": format must be 'kmem-prompt-pack/1'\n");
}

}  // namespace

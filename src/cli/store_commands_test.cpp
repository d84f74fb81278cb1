// Runs the kmem program for import, export and problems: exit codes, the one
// error line naming file and entry, that a refused import changes nothing,
// that reading a database leaves it as it was, and that a failed write to
// stdout is an error.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// Runs kmem with `arguments`; stdout goes to `out` (a shell redirection
// target), else is kept with stderr in the output.
Outcome kmem(const std::string& arguments, const std::string& out = "") {
  std::string command = std::string(KMEM_BINARY) + " " + arguments + (out.empty() ? " 2>&1" : " 2>&1 >" + out);
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class StoreCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kmem_cli_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  const std::string seed_ = std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json";
};

TEST_F(StoreCommands, ImportExportImportExportIsAFixedPoint) {
  Outcome imported = kmem("import " + seed_ + " --db " + path("a.db"));
  ASSERT_EQ(imported.exit_code, 0) << imported.output;
  EXPECT_NE(imported.output.find("107 items"), std::string::npos) << imported.output;
  Outcome exported = kmem("export --db " + path("a.db"));
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  std::ofstream(path("a.json")) << exported.output;
  ASSERT_EQ(kmem("import " + path("a.json") + " --db " + path("b.db")).exit_code, 0);
  ASSERT_EQ(kmem("export --db " + path("b.db") + " --out " + path("b.json")).exit_code, 0);
  EXPECT_EQ(read_file(path("b.json")), exported.output);
}

TEST_F(StoreCommands, RefusedImportPrintsOneLineAndLeavesTheDatabase) {
  ASSERT_EQ(kmem("import " + seed_ + " --db " + path("a.db")).exit_code, 0);
  std::string before = kmem("export --db " + path("a.db")).output;
  std::string text = read_file(seed_);
  text.replace(text.find("\"kind\": \"kernel\""), 16, "\"kind\": \"snippet\"");
  std::ofstream(path("bad.json")) << text;
  Outcome refused = kmem("import " + path("bad.json") + " --db " + path("a.db"));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.output.rfind("kmem import: " + path("bad.json") + ": items[", 0), 0u) << refused.output;
  EXPECT_NE(refused.output.find("snippet"), std::string::npos) << refused.output;
  EXPECT_EQ(std::count(refused.output.begin(), refused.output.end(), '\n'), 1) << refused.output;
  EXPECT_EQ(kmem("export --db " + path("a.db")).output, before);
}

TEST_F(StoreCommands, ExportOfAMissingDatabaseFailsWithoutCreatingIt) {
  Outcome run = kmem("export --db " + path("none.db"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find(path("none.db")), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(path("none.db")));
}

TEST_F(StoreCommands, ProblemsImportKeepsTheMemoryAndLists) {
  ASSERT_EQ(kmem("import " + seed_ + " --db " + path("a.db")).exit_code, 0);
  std::string before = kmem("export --db " + path("a.db")).output;
  Outcome imported =
      kmem("problems import " + std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench --db " + path("a.db"));
  ASSERT_EQ(imported.exit_code, 0) << imported.output;
  EXPECT_NE(imported.output.find("29 problems"), std::string::npos) << imported.output;
  Outcome listed = kmem("problems list --db " + path("a.db"));
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_NE(listed.output.find("L1_019  1 activation      ReLU"), std::string::npos) << listed.output;
  Outcome json = kmem("problems list --json --db " + path("a.db"));
  EXPECT_NE(json.output.find("\"id\": \"L4_016\""), std::string::npos) << json.output;
  // The seed's items, baselines and problems are all still there.
  Outcome after = kmem("export --db " + path("a.db"));
  ASSERT_EQ(after.exit_code, 0) << after.output;
  EXPECT_NE(after.output.find("\"L1_019\""), std::string::npos);
  EXPECT_EQ(after.output.size() > before.size(), true);
}

TEST_F(StoreCommands, ReadingADatabaseLeavesItAsItWas) {
  ASSERT_EQ(kmem("import " + seed_ + " --db " + path("a.db")).exit_code, 0);
  std::string before = read_file(path("a.db"));
  EXPECT_EQ(kmem("export --db " + path("a.db")).exit_code, 0);
  EXPECT_EQ(kmem("problems list --db " + path("a.db")).exit_code, 0);
  EXPECT_EQ(kmem("import " + path("a.db") + " --db " + path("b.db")).exit_code, 0);
  EXPECT_EQ(read_file(path("a.db")), before);
}

TEST_F(StoreCommands, AFolderIsRefusedAsAStore) {
  Outcome run = kmem("import " + dir_.string() + " --db " + path("a.db"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.output, "kmem import: " + dir_.string() + ": is a directory\n");
  EXPECT_FALSE(fs::exists(path("a.db")));
}

// A FIFO would block a reader forever: every store, database and pack path
// refuses anything but a regular file, with one line and exit 2.
TEST_F(StoreCommands, AFifoIsRefusedEverywhereWithOneLine) {
  std::string fifo = path("f");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  struct Case {
    std::string command, arguments;
  } cases[] = {
      {"import", fifo + " --db " + path("a.db")},
      {"import", seed_ + " --db " + fifo},
      {"export", "--db " + fifo},
      {"render", "--store " + fifo + " --all"},
      {"render", "--pack " + fifo + " --all"},
      {"problems", "list --db " + fifo},
  };
  for (const Case& c : cases) {
    Outcome run = kmem(c.command + " " + c.arguments);
    EXPECT_EQ(run.exit_code, 2) << c.arguments;
    EXPECT_EQ(run.output, "kmem " + c.command + ": " + fifo + ": is a FIFO, not a regular file\n") << c.arguments;
  }
  EXPECT_FALSE(fs::exists(path("a.db")));
}

// A database damaged by another tool: every command that reads it refuses it
// with one line naming the table and row (no abort, no exception).
TEST_F(StoreCommands, ACraftedDatabaseIsRefusedByEveryCommand) {
  ASSERT_EQ(kmem("import " + seed_ + " --db " + path("a.db")).exit_code, 0);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path("a.db").c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "INSERT INTO item_labels VALUES ('ghost', 0, 'correctness')", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  for (const std::string& command : {"render --all --store " + path("a.db"), "export --db " + path("a.db"),
                                     "import " + path("a.db") + " --db " + path("b.db")}) {
    Outcome run = kmem(command);
    EXPECT_EQ(run.exit_code, 2) << command;
    EXPECT_NE(run.output.find(path("a.db") + ": item_labels row "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("no item has the id 'ghost'"), std::string::npos) << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
  }
  EXPECT_FALSE(fs::exists(path("b.db")));
}

TEST_F(StoreCommands, DatabasePathsThatKeepNothingAreRefused) {
  Outcome empty = kmem("import " + seed_ + " --db ''");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_EQ(empty.output, "kmem import: '': not a database file (SQLite would keep nothing there)\n");
  Outcome memory = kmem("import " + seed_ + " --db :memory:");
  EXPECT_EQ(memory.exit_code, 2);
  EXPECT_EQ(memory.output, "kmem import: ':memory:': not a database file (SQLite would keep nothing there)\n");
}

TEST_F(StoreCommands, AFailedWriteToStdoutIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  ASSERT_EQ(kmem("import " + seed_ + " --db " + path("a.db")).exit_code, 0);
  ASSERT_EQ(
      kmem("problems import " + std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench --db " + path("a.db")).exit_code, 0);
  for (const std::string& command :
       {"export --db " + path("a.db"), "problems list --db " + path("a.db"),
        "problems list --json --db " + path("a.db"), "import " + seed_ + " --db " + path("b.db")}) {
    Outcome run = kmem(command, "/dev/full");
    EXPECT_EQ(run.exit_code, 2) << command;
    EXPECT_NE(run.output.find(": stdout: write failed: "), std::string::npos) << command << ": " << run.output;
  }
}

TEST_F(StoreCommands, ProblemsImportOfAFolderWithoutLevelsFails) {
  Outcome run = kmem("problems import " + dir_.string() + " --db " + path("a.db"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("no level<N> folders"), std::string::npos) << run.output;
}

}  // namespace

// Tests of the shared input readers: whole files (regular files only, size
// limit, errors naming the path), typed JSON fields, and the limits.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "kmem/limits.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem::util {
namespace {

namespace fs = std::filesystem;

class FileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kmem_util_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(FileTest, ReadsARegularFileWhole) {
  std::string bytes("a\0b\nc", 5);
  std::ofstream(path("f"), std::ios::binary) << bytes;
  EXPECT_EQ(*read_file(path("f")), bytes);
  EXPECT_EQ(*read_file_or_empty(path("f")), bytes);
  EXPECT_EQ(*read_file_start(path("f"), 2), std::string("a\0", 2));
  EXPECT_EQ(*read_file_start(path("f"), 100), bytes);
  fs::create_symlink(path("f"), path("link"));
  EXPECT_EQ(*read_file(path("link")), bytes);
  EXPECT_TRUE(check_regular_file(path("link")));
}

TEST_F(FileTest, RefusesWhatIsNotARegularFileWithoutBlocking) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_EQ(read_file(path("fifo")).error().message(), path("fifo") + ": is a FIFO, not a regular file");
  EXPECT_EQ(read_file_start(path("fifo"), 16).error().message(), path("fifo") + ": is a FIFO, not a regular file");
  EXPECT_EQ(check_regular_file(path("fifo")).error().message(), path("fifo") + ": is a FIFO, not a regular file");
  EXPECT_FALSE(check_regular_file_or_missing(path("fifo")));
  EXPECT_EQ(read_file(dir_.string()).error().message(), dir_.string() + ": is a directory");
  EXPECT_EQ(check_regular_file(dir_.string()).error().message(), dir_.string() + ": is a directory");
  EXPECT_EQ(read_file("/dev/null").error().message(), "/dev/null: is a character device, not a regular file");
  EXPECT_EQ(read_file(path("absent")).error().message(), path("absent") + ": cannot open: No such file or directory");
  EXPECT_TRUE(check_regular_file_or_missing(path("absent")));
  EXPECT_EQ(*read_file_or_empty(path("absent")), "");
  EXPECT_EQ(read_file_or_empty(path("fifo")).error().message(), path("fifo") + ": is a FIFO, not a regular file");
  EXPECT_FALSE(check_regular_file(path("absent")));
}

TEST_F(FileTest, RefusesAFileBeyondTheLimit) {
  std::ofstream(path("big"), std::ios::binary) << std::string(100, 'x');
  EXPECT_TRUE(read_file(path("big"), 100));
  auto refused = read_file(path("big"), 99);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message(), path("big") + ": larger than the 99 bytes a file may hold here");
}

TEST(JsonFields, TypedReadsNameTheField) {
  auto doc = parse_strict_json(R"({"s": "x", "i": 3, "big": 4294967296, "d": 1.5, "b": true, "o": {}, "l": ["a"],
                                   "n": null, "mixed": ["a", 1]})",
                               "f.json");
  ASSERT_TRUE(doc);
  JsonFields f(*doc, "f.json: top");
  EXPECT_EQ(*f.string("s"), "x");
  EXPECT_EQ(*f.integer("i"), 3);
  EXPECT_EQ(*f.finite("d"), 1.5);
  EXPECT_EQ(*f.finite("i"), 3.0);
  EXPECT_TRUE(*f.boolean("b"));
  EXPECT_TRUE(f.object("o"));
  EXPECT_EQ(*f.strings("l"), std::vector<std::string>{"a"});
  EXPECT_FALSE(f.has("n"));
  EXPECT_EQ(f.string("n").error().message(), "f.json: top: missing field 'n'");
  EXPECT_EQ(f.string("i").error().message(), "f.json: top: field 'i' must be a string");
  EXPECT_EQ(f.integer("d").error().message(), "f.json: top: field 'd' must be an integer");
  EXPECT_EQ(f.integer("big").error().message(), "f.json: top: field 'big' must be an integer in the range of int");
  EXPECT_EQ(f.boolean("s").error().message(), "f.json: top: field 's' must be true or false");
  EXPECT_EQ(f.strings("mixed").error().message(), "f.json: top: field 'mixed' must be a list of strings");
  EXPECT_EQ(f.only({"s"}).error().message().rfind("f.json: top: unknown field 'b' (expected s)", 0), 0u);
  EXPECT_EQ(JsonFields(nlohmann::json::array(), "a").is_object().error().message(), "a: must be an object");
}

TEST(JsonFields, TheStrictParserRefusesDuplicateKeys) {
  auto doc = parse_strict_json(R"({"a": {"b": 1, "b": 2}})", "d.json");
  ASSERT_FALSE(doc);
  EXPECT_EQ(doc.error().message(), "d.json: a.b: duplicate key (a key may appear once per object)");
}

TEST(Limits, ProblemIdsAndGroupKeys) {
  for (const char* id : {"L1_001", "L1_008", "L12_100", "L99_999"}) EXPECT_TRUE(limits::check_problem_id(id)) << id;
  for (const char* id : {"L-1_-05", "L0_001", "L1_000", "L01_001", "L1_1", "L1_0001", "L100_001", "l1_001", "L1-001",
                         "L_001", "L1_", "", "L1_00a"})
    EXPECT_FALSE(limits::check_problem_id(id)) << id;
  EXPECT_EQ(limits::check_problem_id("L-1_-05").error().message(),
            "problem id 'L-1_-05' is not L<level>_<number> (level 1 to 99, number 001 to 999)");
  for (const char* key : {"L1|matmul", "L99|a_b"}) EXPECT_TRUE(limits::check_group_key(key)) << key;
  for (const char* key : {"matmul", "L0|x", "L1|", "L1|a|b", "L1|a b", "Lx|a", "L01|a"})
    EXPECT_FALSE(limits::check_group_key(key)) << key;
}

TEST(Limits, NumbersAndTexts) {
  EXPECT_TRUE(limits::check_speedup(limits::kMaxSpeedup));
  EXPECT_TRUE(limits::check_speedup(5e-324));
  for (double bad : std::initializer_list<double>{0.0, -1.0, 1e308, limits::kMaxSpeedup * 1.0000001, INFINITY, NAN})
    EXPECT_FALSE(limits::check_speedup(bad)) << bad;
  EXPECT_EQ(limits::check_speedup(-1).error().message(), "speedup -1 is not > 0 and at most 1000000");
  for (double bad : std::initializer_list<double>{0.0, -1.0, INFINITY, NAN, 2e6})
    EXPECT_FALSE(limits::check_score_cap(bad)) << bad;
  EXPECT_TRUE(limits::check_baseline(0.0, 10.0));
  EXPECT_TRUE(limits::check_baseline(10.0, 10.0));
  for (double bad : std::initializer_list<double>{-7.0, -0.0, 10.5, NAN, INFINITY})
    EXPECT_FALSE(limits::check_baseline(bad, 10.0)) << bad;
  EXPECT_TRUE(limits::check_utf8("plain \xC3\xA9 \xE6\xBC\xA2 \xF0\x9F\x98\x80"));
  for (const char* bad : {"\xFF", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xC3", "\xE6\xBC"})
    EXPECT_FALSE(limits::check_utf8(bad)) << bad;
  EXPECT_EQ(limits::check_utf8("ab\xFF").error().message(), "holds invalid UTF-8 at byte 2");
  EXPECT_FALSE(limits::check_text(std::string(limits::kMaxTextBytes + 1, 'x')));
  EXPECT_TRUE(limits::check_reader_id("meta-llama/Llama-3.1@8b"));
  for (const char* bad : {"", "a b", "a\tb", "\xC3\xA9"}) EXPECT_FALSE(limits::check_reader_id(bad)) << bad;
  EXPECT_FALSE(limits::check_reader_id(std::string(limits::kMaxIdBytes + 1, 'a')));
  EXPECT_FALSE(limits::check_category("a|b"));
  EXPECT_TRUE(limits::check_name("Claude \xC3\xA9 4"));
  for (const char* bad : {"", "a\nb", "\x7F"}) EXPECT_FALSE(limits::check_name(bad)) << bad;
}

}  // namespace
}  // namespace kmem::util

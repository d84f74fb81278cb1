// Runs each conformance case: renders every text of its memory-dump.json from
// its store and pack and requires all of them byte-exact. On failure it names
// the first mismatching texts (policy/reader/problem) and shows where each
// first differs, line by line.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kmem/memory.h"
#include "kmem/store.h"

namespace kmem {
namespace {

constexpr int kMismatchesShown = 3;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (!text.empty() && text.back() == '\n') lines.push_back("");
  return lines;
}

// Where two texts first differ: the two lines before, then the differing
// line as expected ("-") and as rendered ("+").
std::string difference(const std::string& expected, const std::string& actual) {
  std::vector<std::string> want = lines_of(expected), got = lines_of(actual);
  size_t first = 0;
  while (first < want.size() && first < got.size() && want[first] == got[first]) ++first;
  auto line = [&](const std::vector<std::string>& lines) {
    return first < lines.size() ? "| " + lines[first] : std::string("(end of text)");
  };
  std::ostringstream out;
  out << "  expected " << expected.size() << " bytes, rendered " << actual.size() << " bytes; first difference at line "
      << first + 1 << "\n";
  for (size_t i = first >= 2 ? first - 2 : 0; i < first; ++i) out << "    " << i + 1 << " | " << want[i] << "\n";
  out << "  - " << first + 1 << " " << line(want) << "\n";
  out << "  + " << first + 1 << " " << line(got) << "\n";
  return out.str();
}

std::vector<std::string> cases() {
  std::vector<std::string> names;
  std::istringstream list(KMEM_CONFORMANCE_CASES);
  for (std::string name; std::getline(list, name, ',');) names.push_back(name);
  return names;
}

class Conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(Conformance, RendersEveryTextByteExact) {
  std::string dir = std::string(KMEM_CONFORMANCE_DIR) + "/" + GetParam() + "/";
  auto memory = parse_memory_json(read(dir + "memory-store.json"), dir + "memory-store.json");
  ASSERT_TRUE(memory.ok()) << memory.error().message();
  auto indexed = IndexedMemory::build(std::move(*memory));
  ASSERT_TRUE(indexed.ok()) << indexed.error().message();
  auto pack = parse_pack_json(read(dir + "prompt-pack.json"), dir + "prompt-pack.json");
  ASSERT_TRUE(pack.ok()) << pack.error().message();
  nlohmann::json dump = nlohmann::json::parse(read(dir + "memory-dump.json"));

  int total = 0, exact = 0;
  std::ostringstream report;
  for (const auto& [policy, readers] : dump.items())
    for (const auto& [reader, problems] : readers.items())
      for (const auto& [problem, expected] : problems.items()) {
        ++total;
        auto rendered = render_prompt(*indexed, *pack, policy, reader, problem);
        std::string name = policy + "/" + reader + "/" + problem;
        if (!rendered.ok()) {
          if (total - exact <= kMismatchesShown) report << name << ": " << rendered.error().message() << "\n";
        } else if (*rendered == expected.get<std::string>()) {
          ++exact;
        } else if (total - exact <= kMismatchesShown) {
          report << name << ":\n" << difference(expected.get<std::string>(), *rendered);
        }
      }
  std::cout << "[ conformance ] " << GetParam() << ": " << exact << "/" << total << " texts byte-exact\n";
  EXPECT_GT(total, 0);
  EXPECT_EQ(exact, total) << "first mismatching texts (policy/reader/problem):\n" << report.str();

  // Nothing more and nothing less than the dump: render_all gives the same table.
  auto table = render_all(*indexed, *pack);
  ASSERT_TRUE(table.ok()) << table.error().message();
  EXPECT_TRUE(nlohmann::json(*table) == dump) << "render_all differs from memory-dump.json in its keys or texts";
}

INSTANTIATE_TEST_SUITE_P(Cases, Conformance, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace kmem

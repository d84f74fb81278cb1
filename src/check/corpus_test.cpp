// The checker's corpora: testdata/evasions/*.py are attacks, each naming on
// its first line (`# expect: CODE`) the offence it must get among others;
// testdata/honest/*.py and the 44 kernels of the seed memory are honest
// candidates that must get none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "kmem/check.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string codes(const std::vector<Offence>& offences) {
  std::string out;
  for (const Offence& v : offences) out += v.code + "@" + std::to_string(v.line) + " ";
  return out;
}

TEST(Corpus, EveryEvasionGetsItsOffence) {
  Checker checker;
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(KMEM_CHECK_TESTDATA "/evasions")) {
    if (entry.path().extension() != ".py") continue;
    std::string source = read(entry.path());
    ASSERT_TRUE(source.starts_with("# expect: ")) << entry.path();
    std::string expected = source.substr(10, source.find('\n') - 10);
    std::vector<Offence> offences = checker.check_source(source);
    bool found = false;
    for (const Offence& v : offences) found = found || v.code == expected;
    EXPECT_TRUE(found) << entry.path().filename() << ": expected " << expected << ", got " << codes(offences);
    ++cases;
  }
  EXPECT_GE(cases, 50);
}

TEST(Corpus, HonestCandidatesPass) {
  Checker checker;
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(KMEM_CHECK_TESTDATA "/honest")) {
    if (entry.path().extension() != ".py") continue;
    std::vector<Offence> offences = checker.check_source(read(entry.path()));
    EXPECT_TRUE(offences.empty()) << entry.path().filename() << ": " << codes(offences);
    ++cases;
  }
  EXPECT_GE(cases, 1);
}

TEST(Corpus, SeedKernelsPass) {
  nlohmann::json store = nlohmann::json::parse(read(KMEM_SEED_STORE));
  Checker checker;
  int kernels = 0;
  for (const auto& item : store["items"]) {
    if (item["kind"] != "kernel") continue;
    std::vector<Offence> offences = checker.check_source(item["code"].get<std::string>());
    EXPECT_TRUE(offences.empty()) << item["id"] << ": " << codes(offences);
    ++kernels;
  }
  EXPECT_EQ(kernels, 44);
}

}  // namespace
}  // namespace kmem

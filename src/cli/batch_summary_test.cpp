// The batch summary covers the whole results file: verdict counts, the
// correct and fast_1 jobs, the geometric mean speedup, the ids each flag marks.
#include "batch_summary.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace kmem::cli {
namespace {

TEST(BatchSummary, CountsVerdictsSpeedupsAndNamesTheFlaggedJobs) {
  std::map<std::string, FinishedJob> results = {
      {"a", {"pass", {"unsteady_timing"}, 2.0}},
      {"b", {"pass", {"implausible_speedup", "unsteady_timing"}, 0.5}},
      {"c", {"pass", {}, 4.0}},
      {"d", {"output_mismatch", {}, 0.0}},
  };
  BatchSummary summary(results, 3, 1);
  EXPECT_EQ(summary.text(12.34, "out.jsonl"),
            "3 jobs evaluated in 12.3 s, 1 skipped (already in out.jsonl)\n"
            "out.jsonl holds 4 jobs: correct 3, fast_1 2, geometric mean speedup 1.587x (of the correct)\n"
            "verdicts: output_mismatch 1, pass 3\n"
            "flag implausible_speedup: 1 (b)\n"
            "flag unsteady_timing: 2 (a, b)\n");
  EXPECT_EQ(summary.evaluated(), 3u);
  EXPECT_EQ(summary.count("pass"), 3u);
  EXPECT_EQ(summary.count("crash"), 0u);
  auto json = summary.json(12.34, "out.jsonl");
  EXPECT_EQ(json["evaluated"], 3);
  EXPECT_EQ(json["skipped"], 1);
  EXPECT_EQ(json["jobs"], 4);
  EXPECT_EQ(json["correct"], 3);
  EXPECT_EQ(json["fast_1"], 2);
  EXPECT_NEAR(json["geomean_speedup"].get<double>(), std::cbrt(2.0 * 0.5 * 4.0), 1e-12);
  EXPECT_EQ(json["verdicts"]["pass"], 3);
  EXPECT_EQ(json["flags"]["unsteady_timing"], (nlohmann::json{"a", "b"}));
}

TEST(BatchSummary, ShowsAFewIdsPerFlagAndCountsTheRest) {
  std::map<std::string, FinishedJob> results;
  for (const char* id : {"a", "b", "c", "d"}) results[id] = {"crash", {"unsteady_timing"}, 0.0};
  BatchSummary summary(results, 4, 0);
  EXPECT_NE(summary.text(1.0, "r", 2).find("flag unsteady_timing: 4 (a, b and 2 more)\n"), std::string::npos);
  EXPECT_NE(summary.text(1.0, "r").find("correct 0, fast_1 0\n"), std::string::npos);
  EXPECT_TRUE(summary.json(1.0, "r")["geomean_speedup"].is_null());
}

// Jobs run again alone after running out of memory among others: this GPU
// took too many at once.
TEST(BatchSummary, NamesTheJobsRunAgainAloneForWantOfMemory) {
  std::map<std::string, FinishedJob> results = {
      {"big", {"pass", {}, 1.5, true}}, {"small", {"pass", {}, 2.0, false}}, {"huge", {"pass", {}, 1.1, true}}};
  BatchSummary summary(results, 3, 0);
  EXPECT_NE(summary.text(1.0, "r").find("ran again alone for want of GPU memory: 2 (big, huge); fewer jobs at once "
                                        "(--parallel) may be faster on this GPU\n"),
            std::string::npos);
  EXPECT_EQ(summary.json(1.0, "r")["ran_alone"], (nlohmann::json{"big", "huge"}));
  EXPECT_EQ(BatchSummary({{"small", results["small"]}}, 1, 0).text(1.0, "r").find("alone"), std::string::npos);
}

// Read back from the results file: a record whose timeline has a first
// attempt was run again alone.
TEST(BatchSummary, TheResultsFileTellsWhichJobsRanAgainAlone) {
  std::string path = ::testing::TempDir() + "/kmem-ran-alone.jsonl";
  std::ofstream(path, std::ios::trunc)
      << R"({"id": "big", "verdict": "pass", "speedup": 1.5, "flags": [], "seconds": {"first_attempt": 2.5}})"
      << "\n"
      << R"({"id": "small", "verdict": "pass", "speedup": 2.0, "flags": [], "seconds": {"total": 1.0}})"
      << "\n";
  auto results = ResultsFile::open(path);
  ASSERT_TRUE(results) << results.error().message();
  EXPECT_TRUE(results->latest().at("big").ran_alone);
  EXPECT_FALSE(results->latest().at("small").ran_alone);
  std::remove(path.c_str());
}

TEST(BatchSummary, AnEmptyResultsFileSaysSo) {
  EXPECT_EQ(BatchSummary({}, 0, 0).text(0.0, "r"), "0 jobs evaluated in 0.0 s, 0 skipped (already in r)\n");
}

}  // namespace
}  // namespace kmem::cli

// The batch summary covers the whole results file: verdict counts, the
// correct and fast_1 jobs, the geometric mean speedup, the ids each flag marks.
#include "batch_summary.h"

#include <gtest/gtest.h>

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

TEST(BatchSummary, AnEmptyResultsFileSaysSo) {
  EXPECT_EQ(BatchSummary({}, 0, 0).text(0.0, "r"), "0 jobs evaluated in 0.0 s, 0 skipped (already in r)\n");
}

}  // namespace
}  // namespace kmem::cli

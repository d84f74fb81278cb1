// The batch summary counts verdicts and lists the ids each flag marks.
#include "batch_summary.h"

#include <gtest/gtest.h>

namespace kmem::cli {
namespace {

EvalOutcome outcome(const std::string& id, const std::string& verdict, std::vector<std::string> flags = {}) {
  EvalOutcome o;
  o.job.id = id;
  o.verdict = verdict;
  o.flags = std::move(flags);
  return o;
}

TEST(BatchSummary, CountsVerdictsAndNamesTheFlaggedJobs) {
  BatchSummary summary(3);
  summary.add(outcome("a", "pass", {"unsteady_timing"}));
  summary.add(outcome("b", "pass", {"implausible_speedup", "unsteady_timing"}));
  summary.add(outcome("c", "output_mismatch"));
  EXPECT_EQ(summary.text(12.34, "out.jsonl"),
            "3 jobs evaluated in 12.3 s, 3 skipped (already in out.jsonl)\n"
            "verdicts: output_mismatch 1, pass 2\n"
            "flag implausible_speedup: 1 (b)\n"
            "flag unsteady_timing: 2 (a, b)\n");
  EXPECT_EQ(summary.evaluated(), 3u);
  EXPECT_EQ(summary.count("pass"), 2u);
  EXPECT_EQ(summary.count("crash"), 0u);
  auto json = summary.json(12.34, "out.jsonl");
  EXPECT_EQ(json["evaluated"], 3);
  EXPECT_EQ(json["skipped"], 3);
  EXPECT_EQ(json["verdicts"]["pass"], 2);
  EXPECT_EQ(json["flags"]["unsteady_timing"], (nlohmann::json{"a", "b"}));
}

TEST(BatchSummary, ShowsAFewIdsPerFlagAndCountsTheRest) {
  BatchSummary summary(0);
  for (const char* id : {"a", "b", "c", "d"}) summary.add(outcome(id, "pass", {"unsteady_timing"}));
  EXPECT_NE(summary.text(1.0, "r", 2).find("flag unsteady_timing: 4 (a, b and 2 more)\n"), std::string::npos);
}

TEST(BatchSummary, NothingRunSaysSo) {
  EXPECT_EQ(BatchSummary(5).text(0.0, "r"), "0 jobs evaluated in 0.0 s, 5 skipped (already in r)\n");
}

}  // namespace
}  // namespace kmem::cli

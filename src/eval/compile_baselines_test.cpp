// CompileBaselines: outcomes held back until their problem's baseline is
// known, reported at once when none was asked for, each problem measured
// once, and everything held reported by finish(), with a fake measurement.
#include "compile_baselines.h"

#include <gtest/gtest.h>

#include <future>
#include <map>
#include <mutex>

namespace kmem::eval {
namespace {

EvalOutcome passed(const std::string& id, double candidate_ms) {
  EvalOutcome outcome;
  outcome.job.id = id;
  outcome.verdict = "pass";
  outcome.candidate_ms = candidate_ms;
  return outcome;
}

class Baselines : public ::testing::Test {
 protected:
  // Records each outcome reported.
  void reported(EvalOutcome outcome) {
    std::lock_guard hold(mutex_);
    reported_[outcome.job.id] = std::move(outcome);
  }
  size_t count() {
    std::lock_guard hold(mutex_);
    return reported_.size();
  }

  std::mutex mutex_;
  std::map<std::string, EvalOutcome> reported_;
};

TEST_F(Baselines, OutcomesWaitForTheirProblemsBaselineAndCarryIt) {
  std::promise<void> go;
  std::shared_future<void> released = go.get_future().share();
  std::map<std::string, int> measured;
  std::mutex measured_mutex;
  CompileBaselines baselines(
      2,
      [&](const std::string& key) -> Result<std::optional<double>> {
        {
          std::lock_guard hold(measured_mutex);
          measured[key]++;
        }
        released.wait();
        if (key == "broken") return Error("the worker died");
        return std::optional<double>(key == "slow" ? 2.0 : 1.0);
      },
      [this](EvalOutcome outcome) { reported(std::move(outcome)); });
  baselines.ask("slow");
  baselines.ask("slow");  // once per problem
  baselines.ask("broken");
  baselines.report("slow", passed("a", 4.0));
  baselines.report("broken", passed("b", 1.0));
  baselines.report("cached", passed("c", 1.0));  // never asked: reported now, as it is
  EXPECT_EQ(count(), 1u);
  EXPECT_FALSE(reported_["c"].compile_ms);
  go.set_value();
  baselines.finish();
  ASSERT_EQ(count(), 3u);
  EXPECT_DOUBLE_EQ(*reported_["a"].compile_ms, 2.0);
  EXPECT_DOUBLE_EQ(*reported_["a"].speedup_vs_compile, 0.5);
  EXPECT_FALSE(reported_["b"].compile_ms);  // a failed measurement is no baseline, never an error
  EXPECT_EQ(reported_["b"].verdict, "pass");
  EXPECT_EQ(measured["slow"], 1);
  // Known now: a later outcome of the problem goes at once, with it.
  baselines.report("slow", passed("d", 1.0));
  EXPECT_DOUBLE_EQ(*reported_["d"].compile_ms, 2.0);
}

}  // namespace
}  // namespace kmem::eval

// The compile baselines of a batch's problems (docs/evaluator.md,
// "Baselines"), measured while the candidates run, on threads and reference
// workers of their own: compiling takes seconds to a minute a problem, and a
// reference worker answers one command at a time, so on the workers that
// serve candidates it would hold up their inputs and judgements. The
// outcomes of a problem whose baseline is being measured are held back and
// reported with it once it is known (or known to be none).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kmem/eval.h"
#include "kmem/result.h"

namespace kmem::eval {

class CompileBaselines {
 public:
  // Measures the baseline of the problem `key` names; none when there is none.
  using Measure = std::function<Result<std::optional<double>>(const std::string& key)>;
  using Report = std::function<void(EvalOutcome)>;

  // `threads` measure at once (at least one), each by `measure`; outcomes go to `report`.
  CompileBaselines(int threads, Measure measure, Report report);
  // finish()es.
  ~CompileBaselines();
  CompileBaselines(const CompileBaselines&) = delete;
  CompileBaselines& operator=(const CompileBaselines&) = delete;

  // Asks for the baseline of problem `key` (once; later asks change nothing).
  void ask(const std::string& key);
  // Reports `outcome`, of problem `key`: now when its baseline was not asked
  // for, else once the baseline is known, with it (add_compile_baseline).
  void report(const std::string& key, EvalOutcome outcome);
  // Measures what was asked, reports every outcome held, and stops the threads.
  void finish();

 private:
  struct Problem {
    bool known = false;
    std::optional<double> compile_ms;
    std::vector<EvalOutcome> held;
  };

  void measure_asked();

  Measure measure_;
  Report report_;
  std::mutex mutex_;
  std::condition_variable asked_;  // a key was queued, or finish() began
  std::deque<std::string> queue_;
  std::map<std::string, Problem> problems_;
  bool finishing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace kmem::eval

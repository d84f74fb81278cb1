// Measuring compile baselines beside a batch and holding outcomes back for them (compile_baselines.h).
#include "compile_baselines.h"

#include <algorithm>

#include "verdict.h"

namespace kmem::eval {

CompileBaselines::CompileBaselines(int threads, Measure measure, Report report)
    : measure_(std::move(measure)), report_(std::move(report)) {
  for (int t = 0; t < std::max(1, threads); ++t) threads_.emplace_back([this] { measure_asked(); });
}

CompileBaselines::~CompileBaselines() { finish(); }

void CompileBaselines::ask(const std::string& key) {
  std::lock_guard hold(mutex_);
  if (finishing_ || !problems_.try_emplace(key).second) return;
  queue_.push_back(key);
  asked_.notify_one();
}

void CompileBaselines::report(const std::string& key, EvalOutcome outcome) {
  {
    std::lock_guard hold(mutex_);
    auto found = problems_.find(key);
    if (found != problems_.end() && !found->second.known) {
      found->second.held.push_back(std::move(outcome));
      return;
    }
    if (found != problems_.end()) add_compile_baseline(outcome, found->second.compile_ms);
  }
  report_(std::move(outcome));
}

void CompileBaselines::finish() {
  {
    std::lock_guard hold(mutex_);
    finishing_ = true;
  }
  asked_.notify_all();
  for (auto& thread : threads_)
    if (thread.joinable()) thread.join();
  threads_.clear();
}

void CompileBaselines::measure_asked() {
  std::unique_lock hold(mutex_);
  while (true) {
    asked_.wait(hold, [&] { return !queue_.empty() || finishing_; });
    if (queue_.empty()) return;
    std::string key = std::move(queue_.front());
    queue_.pop_front();
    hold.unlock();
    auto measured = measure_(key);  // a failure is no baseline: the outcomes go without one
    hold.lock();
    Problem& problem = problems_[key];
    problem.known = true;
    if (measured) problem.compile_ms = *measured;
    const std::optional<double> compile_ms = problem.compile_ms;
    std::vector<EvalOutcome> held = std::move(problem.held);
    problem.held.clear();
    hold.unlock();
    for (auto& outcome : held) {
      add_compile_baseline(outcome, compile_ms);
      report_(std::move(outcome));
    }
    hold.lock();
  }
}

}  // namespace kmem::eval

// What a batch of `kmem eval --jobs` came to: how many jobs were evaluated
// (those the checker rejected before any code ran included) and skipped
// (already in the results file), the count of each verdict and of
// each flag with the ids it marks (the jobs to look at, or run again: an
// `unsteady_timing` speedup is not repeatable), the wall time.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kmem/eval.h"

namespace kmem::cli {

class BatchSummary {
 public:
  explicit BatchSummary(size_t skipped) : skipped_(skipped) {}

  void add(const EvalOutcome& outcome);
  size_t evaluated() const { return ran_; }
  // Outcomes with `verdict` so far.
  size_t count(const std::string& verdict) const;

  // Lines for a person; `ids_shown` ids at most per flag.
  std::string text(double wall_s, const std::string& results_path, size_t ids_shown = 5) const;
  nlohmann::json json(double wall_s, const std::string& results_path) const;

 private:
  size_t skipped_, ran_ = 0;
  std::map<std::string, size_t> verdicts_;
  std::map<std::string, std::vector<std::string>> flagged_;  // flag -> ids, in the order they finished
};

}  // namespace kmem::cli

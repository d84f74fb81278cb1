// What a batch of `kmem eval --jobs` came to. This run: how many jobs were
// evaluated (those the checker rejected before any code ran included) and
// skipped (already in the results file), the wall time. The whole results
// file (each job's latest record, this run's and earlier runs'): the count of
// each verdict, the correct jobs, those faster than the reference (fast_1),
// the geometric mean speedup of the correct ones, and each flag with the ids
// it marks (the jobs to look at, or run again with --redo: an
// `unsteady_timing` speedup is not repeatable), and the jobs run again alone
// on the GPU for want of memory (too many at once for this GPU).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kmem/eval.h"

namespace kmem::cli {

class BatchSummary {
 public:
  BatchSummary(const std::map<std::string, FinishedJob>& results, size_t evaluated, size_t skipped);

  size_t evaluated() const { return evaluated_; }
  // Jobs of the results file with `verdict`.
  size_t count(const std::string& verdict) const;

  // Lines for a person; `ids_shown` ids at most per flag.
  std::string text(double wall_s, const std::string& results_path, size_t ids_shown = 5) const;
  nlohmann::json json(double wall_s, const std::string& results_path) const;

 private:
  size_t evaluated_, skipped_, jobs_ = 0, correct_ = 0, fast_1_ = 0;
  std::optional<double> geomean_speedup_;  // of the correct jobs; none without one
  std::map<std::string, size_t> verdicts_;
  std::map<std::string, std::vector<std::string>> flagged_;  // flag -> ids, sorted
  std::vector<std::string> ran_alone_;  // ids run again alone on the GPU after running out of memory, sorted
};

}  // namespace kmem::cli

// The closing summary of a batch evaluation.
#include "batch_summary.h"

#include <fmt/format.h>

#include <cmath>

namespace kmem::cli {

BatchSummary::BatchSummary(const std::map<std::string, FinishedJob>& results, size_t evaluated, size_t skipped)
    : evaluated_(evaluated), skipped_(skipped), jobs_(results.size()) {
  double log_sum = 0.0;
  for (const auto& [id, job] : results) {
    ++verdicts_[job.verdict];
    for (const auto& flag : job.flags) flagged_[flag].push_back(id);
    if (job.ran_alone) ran_alone_.push_back(id);
    if (job.verdict != "pass" || !(job.speedup > 0.0)) continue;
    ++correct_;
    if (job.speedup > 1.0) ++fast_1_;
    log_sum += std::log(job.speedup);
  }
  if (correct_ > 0) geomean_speedup_ = std::exp(log_sum / static_cast<double>(correct_));
}

size_t BatchSummary::count(const std::string& verdict) const {
  auto found = verdicts_.find(verdict);
  return found == verdicts_.end() ? 0 : found->second;
}

std::string BatchSummary::text(double wall_s, const std::string& results_path, size_t ids_shown) const {
  std::string text = fmt::format("{} job{} evaluated in {:.1f} s, {} skipped (already in {})\n", evaluated_,
                                 evaluated_ == 1 ? "" : "s", wall_s, skipped_, results_path);
  if (jobs_ == 0) return text;
  text += fmt::format("{} holds {} job{}: correct {}, fast_1 {}", results_path, jobs_, jobs_ == 1 ? "" : "s", correct_,
                      fast_1_);
  if (geomean_speedup_) text += fmt::format(", geometric mean speedup {:.3f}x (of the correct)", *geomean_speedup_);
  text += "\n";
  std::string counts;
  for (const auto& [verdict, count] : verdicts_)
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", verdict, count);
  text += "verdicts: " + counts + "\n";
  auto listed = [&](const std::vector<std::string>& ids) {
    std::string shown;
    for (size_t i = 0; i < ids.size() && i < ids_shown; ++i) shown += (i ? ", " : "") + ids[i];
    if (ids.size() > ids_shown) shown += fmt::format(" and {} more", ids.size() - ids_shown);
    return fmt::format("{} ({})", ids.size(), shown);
  };
  for (const auto& [flag, ids] : flagged_) text += fmt::format("flag {}: {}\n", flag, listed(ids));
  if (!ran_alone_.empty())
    text += fmt::format(
        "ran again alone for want of GPU memory: {}; fewer jobs at once (--parallel) may be faster on "
        "this GPU\n",
        listed(ran_alone_));
  return text;
}

nlohmann::json BatchSummary::json(double wall_s, const std::string& results_path) const {
  return {{"evaluated", evaluated_},
          {"skipped", skipped_},
          {"wall_s", wall_s},
          {"results", results_path},
          {"jobs", jobs_},
          {"correct", correct_},
          {"fast_1", fast_1_},
          {"geomean_speedup", geomean_speedup_ ? nlohmann::json(*geomean_speedup_) : nlohmann::json()},
          {"verdicts", verdicts_},
          {"flags", flagged_},
          {"ran_alone", ran_alone_}};
}

}  // namespace kmem::cli

// The closing summary of a batch evaluation.
#include "batch_summary.h"

#include <fmt/format.h>

namespace kmem::cli {

void BatchSummary::add(const EvalOutcome& outcome) {
  ++ran_;
  ++verdicts_[outcome.verdict];
  for (const auto& flag : outcome.flags) flagged_[flag].push_back(outcome.job.id);
}

size_t BatchSummary::count(const std::string& verdict) const {
  auto found = verdicts_.find(verdict);
  return found == verdicts_.end() ? 0 : found->second;
}

std::string BatchSummary::text(double wall_s, const std::string& results_path, size_t ids_shown) const {
  std::string text = fmt::format("{} job{} evaluated in {:.1f} s, {} skipped (already in {})\n", ran_,
                                 ran_ == 1 ? "" : "s", wall_s, skipped_, results_path);
  std::string counts;
  for (const auto& [verdict, count] : verdicts_)
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", verdict, count);
  if (!counts.empty()) text += "verdicts: " + counts + "\n";
  for (const auto& [flag, ids] : flagged_) {
    std::string shown;
    for (size_t i = 0; i < ids.size() && i < ids_shown; ++i) shown += (i ? ", " : "") + ids[i];
    if (ids.size() > ids_shown) shown += fmt::format(" and {} more", ids.size() - ids_shown);
    text += fmt::format("flag {}: {} ({})\n", flag, ids.size(), shown);
  }
  return text;
}

nlohmann::json BatchSummary::json(double wall_s, const std::string& results_path) const {
  return {{"evaluated", ran_},       {"skipped", skipped_},   {"wall_s", wall_s},
          {"results", results_path}, {"verdicts", verdicts_}, {"flags", flagged_}};
}

}  // namespace kmem::cli

// The report as terminal tables and as one JSON object.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kmem/experiment.h"

namespace kmem {

namespace {

std::string interval_text(const Interval& i) { return fmt::format("{:.3f} [{:.3f}, {:.3f}]", i.mean, i.low, i.high); }

std::string signed_interval_text(const Interval& i) {
  return fmt::format("{:+.3f} [{:+.3f}, {:+.3f}]", i.mean, i.low, i.high);
}

nlohmann::json interval_json(const Interval& i) { return {{"mean", i.mean}, {"low", i.low}, {"high", i.high}}; }

}  // namespace

std::string report_text(const Report& r) {
  std::string out = fmt::format(
      "experiment {}: fast_p at p = {}, 95% intervals from {} bootstrap resamples over problems (seed {})\n\n",
      r.experiment, r.options.p, r.options.resamples, r.options.seed);
  out += fmt::format("{:<20} {:<22} {:>8} {:>8} {:>7} {:>7} {:>7} {:>7} {:>26} {:>8} {:>26} {:>6}\n", "reader",
                     "policy", "episodes", "problems", "correct", "fast_0", "fast_1",
                     fmt::format("fast_{}", r.options.p), "mean score [95%]", "geomean", "vs none [95%]", "errors");
  for (const CellMetrics& c : r.cells)
    out += fmt::format("{:<20} {:<22} {:>8} {:>8} {:>7.3f} {:>7.3f} {:>7.3f} {:>7.3f} {:>26} {:>8} {:>26} {:>6}\n",
                       c.reader, c.policy, c.episodes, c.problems, c.correct, c.fast_0, c.fast_1, c.fast_p,
                       interval_text(c.score), c.geomean_speedup ? fmt::format("{:.3f}", *c.geomean_speedup) : "-",
                       c.effect ? signed_interval_text(*c.effect) : "-", c.errors);
  out += fmt::format(
      "\nagainst the faster of eager and torch.compile (eager where there was no compile baseline):\n"
      "{:<20} {:<22} {:>8} {:>7} {:>7}\n",
      "reader", "policy", "compiled", "fast_1", fmt::format("fast_{}", r.options.p));
  for (const CellMetrics& c : r.cells)
    out += fmt::format("{:<20} {:<22} {:>8} {:>7.3f} {:>7.3f}\n", c.reader, c.policy, c.compiled, c.fast_1_best,
                       c.fast_p_best);
  out += fmt::format("\n{:<20} {:<22} {:<16} {:>8} {:>7} {:>10} {:>8}\n", "reader", "policy", "category", "episodes",
                     "correct", "mean score", "vs none");
  for (const CategoryMetrics& c : r.categories)
    out += fmt::format("{:<20} {:<22} {:<16} {:>8} {:>7.3f} {:>10.3f} {:>8}\n", c.reader, c.policy, c.category,
                       c.episodes, c.correct, c.mean_score, c.effect ? fmt::format("{:+.3f}", *c.effect) : "-");
  return out;
}

std::string report_json(const Report& r) {
  nlohmann::json cells = nlohmann::json::array(), categories = nlohmann::json::array();
  for (const CellMetrics& c : r.cells) {
    nlohmann::json cell = {{"reader", c.reader},
                           {"policy", c.policy},
                           {"episodes", c.episodes},
                           {"problems", c.problems},
                           {"correct", c.correct},
                           {"fast_0", c.fast_0},
                           {"fast_1", c.fast_1},
                           {"fast_p", c.fast_p},
                           {"mean_score", c.mean_score},
                           {"fast_1_best", c.fast_1_best},
                           {"fast_p_best", c.fast_p_best},
                           {"compiled", c.compiled},
                           {"score", interval_json(c.score)},
                           {"errors", c.errors},
                           {"model_s", c.model_s},
                           {"eval_s", c.eval_s},
                           {"paired_problems", c.paired_problems}};
    cell["geomean_speedup"] = c.geomean_speedup ? nlohmann::json(*c.geomean_speedup) : nlohmann::json();
    cell["effect_vs_none"] = c.effect ? interval_json(*c.effect) : nlohmann::json();
    cells.push_back(cell);
  }
  for (const CategoryMetrics& c : r.categories)
    categories.push_back({{"reader", c.reader},
                          {"policy", c.policy},
                          {"category", c.category},
                          {"episodes", c.episodes},
                          {"correct", c.correct},
                          {"mean_score", c.mean_score},
                          {"effect_vs_none", c.effect ? nlohmann::json(*c.effect) : nlohmann::json()}});
  nlohmann::json out = {{"experiment", r.experiment},
                        {"p", r.options.p},
                        {"bootstrap", {{"resamples", r.options.resamples}, {"seed", r.options.seed}, {"level", 0.95}}},
                        {"cells", cells},
                        {"categories", categories},
                        {"problems", r.problems},
                        {"problem_scores", r.problem_scores}};
  return out.dump(2) + "\n";
}

}  // namespace kmem

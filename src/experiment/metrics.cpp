// The report's numbers (docs/experiments.md, "Metrics"): KernelBench's
// correct rate and fast_p per reader x policy (against eager, and against
// the faster of eager and torch.compile), mean score and geometric-mean
// speedup, the paired memory effect against `none` per problem with a
// percentile bootstrap interval, and a per-category breakdown.
#include <algorithm>
#include <cmath>
#include <random>

#include "kmem/experiment.h"

namespace kmem {

namespace {

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// `none` first, then by name.
bool policy_before(const std::string& a, const std::string& b) {
  if (a == "none" || b == "none") return a == "none" && b != "none";
  return a < b;
}

struct Cell {
  std::vector<const StoredEpisode*> episodes;
  std::map<std::string, std::vector<double>> scores_by_problem;
};

// Mean score per problem.
std::map<std::string, double> problem_means(const Cell& cell) {
  std::map<std::string, double> out;
  for (const auto& [problem, scores] : cell.scores_by_problem) out[problem] = mean(scores);
  return out;
}

// Per problem both cells have: here minus `none`; `category` filters when set.
std::vector<double> paired_differences(const std::map<std::string, double>& here,
                                       const std::map<std::string, double>& none,
                                       const std::map<std::string, std::string>& categories,
                                       const std::string* category) {
  std::vector<double> out;
  for (const auto& [problem, score] : here) {
    auto base = none.find(problem);
    if (base == none.end()) continue;
    if (category != nullptr && categories.at(problem) != *category) continue;
    out.push_back(score - base->second);
  }
  return out;
}

CellMetrics cell_metrics(const std::string& reader, const std::string& policy, const Cell& cell,
                         const ReportOptions& options) {
  CellMetrics m;
  m.reader = reader;
  m.policy = policy;
  m.episodes = static_cast<int>(cell.episodes.size());
  m.problems = static_cast<int>(cell.scores_by_problem.size());
  int correct = 0, fast_0 = 0, fast_1 = 0, fast_p = 0, timed = 0, fast_1_best = 0, fast_p_best = 0;
  double score_sum = 0, log_sum = 0;
  for (const StoredEpisode* e : cell.episodes) {
    score_sum += e->score;
    m.model_s += e->model_s;
    m.eval_s += e->eval_s;
    if (e->end == "endpoint_error" || e->end == "evaluator_error") ++m.errors;
    if (!e->correct) continue;
    ++correct;
    fast_0 += e->speedup > 0 ? 1 : 0;
    fast_1 += e->speedup > 1 ? 1 : 0;
    fast_p += e->speedup > options.p ? 1 : 0;
    double best = e->speedup_vs_compile ? std::min(e->speedup, *e->speedup_vs_compile) : e->speedup;
    m.compiled += e->speedup_vs_compile ? 1 : 0;
    fast_1_best += best > 1 ? 1 : 0;
    fast_p_best += best > options.p ? 1 : 0;
    if (e->speedup > 0) {
      log_sum += std::log(e->speedup);
      ++timed;
    }
  }
  double n = std::max(1, m.episodes);
  m.correct = correct / n;
  m.fast_0 = fast_0 / n;
  m.fast_1 = fast_1 / n;
  m.fast_p = fast_p / n;
  m.fast_1_best = fast_1_best / n;
  m.fast_p_best = fast_p_best / n;
  m.mean_score = score_sum / n;
  if (timed > 0) m.geomean_speedup = std::exp(log_sum / timed);
  std::vector<double> per_problem;
  for (const auto& [problem, score] : problem_means(cell)) per_problem.push_back(score);
  m.score = bootstrap_mean(per_problem, options.resamples, options.seed);
  return m;
}

}  // namespace

Interval bootstrap_mean(const std::vector<double>& values, int resamples, unsigned long seed) {
  Interval out;
  out.mean = mean(values);
  out.low = out.high = out.mean;
  if (values.size() < 2 || resamples < 1) return out;
  std::mt19937_64 rng(seed);
  std::vector<double> means(resamples);
  for (double& m : means) {
    double sum = 0;
    // rng() % n rather than a distribution: the same draws with every standard library.
    for (size_t i = 0; i < values.size(); ++i) sum += values[rng() % values.size()];
    m = sum / static_cast<double>(values.size());
  }
  std::sort(means.begin(), means.end());
  auto at = [&](double q) { return means[static_cast<size_t>(std::floor(q * (resamples - 1) + 0.5))]; };
  out.low = at(0.025);
  out.high = at(0.975);
  return out;
}

Report build_report(const std::string& experiment, const std::vector<StoredEpisode>& episodes,
                    const ReportOptions& options) {
  Report report;
  report.experiment = experiment;
  report.options = options;
  std::map<std::string, std::map<std::string, Cell>> cells;                               // reader -> policy
  std::map<std::string, std::map<std::string, std::map<std::string, Cell>>> by_category;  // + category
  std::map<std::string, std::string> categories;                                          // problem -> category
  for (const StoredEpisode& e : episodes) {
    for (Cell* cell : {&cells[e.key.reader][e.key.policy], &by_category[e.key.reader][e.key.policy][e.category]}) {
      cell->episodes.push_back(&e);
      cell->scores_by_problem[e.key.problem].push_back(e.score);
    }
    categories[e.key.problem] = e.category;
  }
  for (const auto& [problem, category] : categories) report.problems.push_back(problem);
  for (auto& [reader, policies] : cells) {
    std::vector<std::string> names;
    for (const auto& [policy, cell] : policies) names.push_back(policy);
    std::sort(names.begin(), names.end(), policy_before);
    auto none = policies.find("none");
    std::map<std::string, double> none_means;
    if (none != policies.end()) none_means = problem_means(none->second);
    for (const std::string& policy : names) {
      const Cell& cell = policies.at(policy);
      CellMetrics m = cell_metrics(reader, policy, cell, options);
      auto means = problem_means(cell);
      report.problem_scores[reader][policy] = means;
      if (policy != "none" && none != policies.end()) {
        auto diffs = paired_differences(means, none_means, categories, nullptr);
        m.paired_problems = static_cast<int>(diffs.size());
        if (!diffs.empty()) m.effect = bootstrap_mean(diffs, options.resamples, options.seed);
      }
      report.cells.push_back(m);
      for (const auto& [category, sub] : by_category[reader][policy]) {
        CategoryMetrics c;
        c.reader = reader;
        c.policy = policy;
        c.category = category;
        c.episodes = static_cast<int>(sub.episodes.size());
        int correct = 0;
        double score = 0;
        for (const StoredEpisode* e : sub.episodes) {
          correct += e->correct ? 1 : 0;
          score += e->score;
        }
        c.correct = correct / static_cast<double>(c.episodes);
        c.mean_score = score / c.episodes;
        if (policy != "none" && none != policies.end()) {
          auto diffs = paired_differences(means, none_means, categories, &category);
          if (!diffs.empty()) c.effect = mean(diffs);
        }
        report.categories.push_back(c);
      }
    }
  }
  return report;
}

}  // namespace kmem

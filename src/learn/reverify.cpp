// Re-verification (docs/learning.md): every kernel item not retired runs
// again on the current evaluator; one that fails is retired with the
// verdict, one that passes keeps the new speedup with its history.
#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kmem/learn.h"
#include "learn/items.h"

namespace kmem {

namespace fs = std::filesystem;

namespace {

// Each job's outcome, in the order of `jobs`, with up to `parallel` of them
// evaluated at once.
std::vector<EvalOutcome> evaluate_all(const std::vector<EvalJob>& jobs, CandidateEvaluator& evaluator, int parallel) {
  std::vector<EvalOutcome> outcomes(jobs.size());
  std::atomic<size_t> next{0};
  auto drain = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) outcomes[i] = evaluator.evaluate(jobs[i]);
  };
  std::vector<std::jthread> threads;
  for (int t = 1; t < std::min<int>(parallel, static_cast<int>(jobs.size())); ++t) threads.emplace_back(drain);
  drain();
  return outcomes;
}

}  // namespace

Result<Memory> reverify_kernels(const Memory& memory, const ProblemPaths& problems, CandidateEvaluator& evaluator,
                                int parallel, const std::string& work_dir, const EvaluatorIdentity& identity,
                                const std::string& date, LearnReport& report) {
  Memory out = memory;
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  if (ec) return Error(fmt::format("{}: cannot create: {}", work_dir, ec.message()));
  // The candidates first, then every evaluation (up to `parallel` at once),
  // then the changes in store order.
  std::vector<Item*> chosen;
  std::vector<EvalJob> jobs;
  for (Item& item : out.items) {
    if (item.kind != ItemKind::kKernel || item.state == ItemState::kRetired) continue;
    auto problem = problems.find(item.source);
    if (problem == problems.end()) {  // kept as it is: nothing was measured
      report.skipped.push_back(fmt::format("{}: skipped, no problem file for {}", item.id, item.source));
      continue;
    }
    std::string name = item.id;
    for (char& c : name)
      if (c == ':' || c == '/') c = '_';
    fs::path candidate = fs::path(work_dir) / (name + ".py");
    {
      std::ofstream file(candidate, std::ios::binary);
      file << item.code;
      if (!file) return Error(fmt::format("{}: cannot write", candidate.string()));
    }
    chosen.push_back(&item);
    jobs.push_back(EvalJob{item.id, problem->second, candidate.string()});
  }
  std::vector<EvalOutcome> outcomes = evaluate_all(jobs, evaluator, parallel);
  for (size_t i = 0; i < chosen.size(); ++i) {
    Item& item = *chosen[i];
    const EvalOutcome& outcome = outcomes[i];
    if (outcome.evaluator_failed())
      return Error(fmt::format("item {}: the evaluator failed: {}", item.id,
                               outcome.detail.empty() ? outcome.message : outcome.detail));
    if (!outcome.passed()) {
      learn::record_change(
          item, date, "reverify",
          fmt::format("{}: {} ({} on {})", outcome.verdict, outcome.message, identity.version, identity.gpu),
          ItemState::kRetired);
      report.updated.push_back(item.id + ": retired, " + outcome.verdict);
      continue;
    }
    std::string flags;
    for (const auto& f : outcome.flags) flags += (flags.empty() ? ", flagged " : ", ") + f;
    if (!flags.empty()) {  // no measurement to trust: noted, nothing changed
      item.history.push_back(HistoryEntry{
          date, "reverify",
          fmt::format("pass on {} {}{} ({:.2f}x, not kept)", identity.version, identity.gpu, flags, outcome.speedup),
          item.state, item.state, std::nullopt, std::nullopt});
      report.updated.push_back(
          fmt::format("{}: {:.2f}x kept, {:.2f}x measured{}", item.id, item.speedup, outcome.speedup, flags));
      continue;
    }
    if (outcome.speedup < 1.0) {  // a slower attempt, never a kernel to adapt
      item.history.push_back(HistoryEntry{
          date, "reverify",
          fmt::format("slower than eager: {:.2f}x on {} {}", outcome.speedup, identity.version, identity.gpu),
          item.state, ItemState::kRetired, item.speedup, outcome.speedup});
      item.state = ItemState::kRetired;
      report.updated.push_back(fmt::format("{}: retired, slower than eager ({:.2f}x)", item.id, outcome.speedup));
      continue;
    }
    item.history.push_back(HistoryEntry{date, "reverify", fmt::format("pass on {} {}", identity.version, identity.gpu),
                                        item.state, item.state, item.speedup, outcome.speedup});
    report.updated.push_back(fmt::format("{}: {:.2f}x -> {:.2f}x", item.id, item.speedup, outcome.speedup));
    item.measurements.push_back(
        Measurement{date, outcome.speedup, identity.gpu, identity.version, !outcome.reference_cached});
    item.speedup = outcome.speedup;
    item.provenance.evaluator = identity.version;
    item.provenance.gpu = identity.gpu;
    item.provenance.date = date;
  }
  return out;
}

}  // namespace kmem

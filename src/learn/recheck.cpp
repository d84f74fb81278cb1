// Noise (docs/learning.md, "Confidence"): an implausible speedup measured
// against a cached reference time is measured again with the reference
// re-timed before the candidate may enter; a wrong cached time shows there.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "kmem/learn.h"

namespace kmem {

namespace fs = std::filesystem;

namespace {

bool implausible(const VerifiedCandidate& c) {
  bool flagged = std::find(c.flags.begin(), c.flags.end(), "implausible_speedup") != c.flags.end();
  return c.verdict == "pass" && c.reference_cached && (flagged || c.speedup >= kImplausibleSpeedup);
}

}  // namespace

Result<std::vector<VerifiedCandidate>> recheck_implausible(std::vector<VerifiedCandidate> candidates,
                                                           CandidateEvaluator& retiming, const std::string& work_dir,
                                                           const std::string& date, LearnReport& report) {
  int n = 0;
  for (VerifiedCandidate& c : candidates) {
    if (!implausible(c)) continue;
    if (c.problem_path.empty())
      return Error(fmt::format("{} ({}): no problem file to measure it again", c.provenance.origin, c.problem));
    std::error_code ec;
    fs::create_directories(work_dir, ec);
    if (ec) return Error(fmt::format("{}: cannot create: {}", work_dir, ec.message()));
    fs::path file = fs::path(work_dir) / fmt::format("recheck-{}-{}.py", c.problem, ++n);
    std::ofstream(file, std::ios::binary) << c.code;
    if (!fs::exists(file)) return Error(fmt::format("{}: cannot write", file.string()));
    EvalOutcome fresh = retiming.evaluate(EvalJob{"recheck-" + c.problem, c.problem_path, file.string()});
    if (fresh.evaluator_failed())
      return Error(fmt::format("{} ({}): measuring again failed: {}", c.provenance.origin, c.problem,
                               fresh.detail.empty() ? fresh.message : fresh.detail));
    std::vector<Measurement> kept = c.measurements;
    if (kept.empty())
      kept.push_back(Measurement{c.provenance.date, c.speedup, c.provenance.gpu, c.provenance.evaluator, false});
    report.updated.push_back(fmt::format(
        "{} ({}): {:.2f}x against the cached reference time, {} with the reference re-timed", c.provenance.origin,
        c.problem, c.speedup, fresh.passed() ? fmt::format("{:.2f}x", fresh.speedup) : fresh.verdict));
    if (fresh.passed())
      kept.push_back(
          Measurement{date, fresh.speedup, c.provenance.gpu, c.provenance.evaluator, !fresh.reference_cached});
    c.verdict = fresh.verdict;
    c.speedup = fresh.speedup;
    c.flags = fresh.flags;
    c.reference_cached = fresh.reference_cached;
    c.measurements = std::move(kept);
  }
  return candidates;
}

}  // namespace kmem

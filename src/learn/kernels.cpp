// Passing candidates become kernel items (docs/learning.md, "Kernels"): one
// per source problem, the best verified speedup wins, duplicates by
// normalised source are left out, flagged outcomes stay out unless promoted.
#include <fmt/format.h>

#include <map>
#include <string_view>

#include "kmem/learn.h"
#include "kmem/limits.h"
#include "learn/items.h"

namespace kmem {
namespace {

// The source without comment lines, blank lines and trailing blanks: two
// candidates that differ only there are one kernel.
std::string normalised(const std::string& code) {
  std::string out;
  size_t start = 0;
  while (start <= code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    std::string_view line(code.data() + start, end - start);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') {
      size_t last = line.find_last_not_of(" \t\r");
      out.append(line.substr(0, last + 1));
      out += '\n';
    }
    start = end + 1;
  }
  return out;
}

std::string flag_list(const std::vector<std::string>& flags) {
  std::string out;
  for (const auto& f : flags) out += (out.empty() ? "" : ", ") + f;
  return out;
}

// Why a candidate may not enter, or "" when it may.
std::string refusal(const VerifiedCandidate& c, const Memory& memory, const LearnOptions& options) {
  if (c.verdict != "pass") return "verdict " + c.verdict;
  // The store holds speedups within limits::kMaxSpeedup; the evaluator may
  // measure more (flagged implausible_speedup), which then stays out.
  if (Status s = limits::check_speedup(c.speedup); !s) return "speedup " + s.error().message();
  if (c.speedup < 1.0)
    return fmt::format("slower than eager ({:.2f}x on {}): a slower attempt, not a kernel to adapt", c.speedup,
                       c.provenance.gpu.empty() ? "an unnamed device" : c.provenance.gpu);
  if (!c.flags.empty() && !options.promote_flagged)
    return "flagged " + flag_list(c.flags) + " (--promote-flagged admits it)";
  if (!memory.problems.contains(c.problem)) return "problem " + c.problem + " is not in the store";
  if (c.code.empty()) return "no source";
  return "";
}

// The candidate's measurements: its own list, else its one measurement.
std::vector<Measurement> measurements_of(const VerifiedCandidate& c) {
  if (!c.measurements.empty()) return c.measurements;
  return {Measurement{c.provenance.date, c.speedup, c.provenance.gpu, c.provenance.evaluator, !c.reference_cached}};
}

}  // namespace

Result<Memory> learn_kernels(const Memory& memory, const std::vector<VerifiedCandidate>& candidates,
                             const LearnOptions& options, LearnReport& report) {
  Memory out = memory;
  // The best admissible candidate per source problem.
  std::map<std::string, const VerifiedCandidate*> best;
  for (const VerifiedCandidate& c : candidates) {
    if (std::string why = refusal(c, memory, options); !why.empty()) {
      report.skipped.push_back(fmt::format("{} ({}): {}", c.provenance.origin, c.problem, why));
      continue;
    }
    auto [it, inserted] = best.emplace(c.problem, &c);
    if (!inserted && c.speedup > it->second->speedup) it->second = &c;
  }
  for (const auto& [problem, c] : best) {
    std::string code = normalised(c->code);
    Item* stored_best = nullptr;  // the fastest kernel of this source not retired
    Item* duplicate = nullptr;
    for (Item& item : out.items) {
      if (item.kind != ItemKind::kKernel || item.state == ItemState::kRetired) continue;
      if (normalised(item.code) == code) duplicate = &item;
      if (item.source == problem && (!stored_best || item.speedup > stored_best->speedup)) stored_best = &item;
    }
    if (duplicate) {
      report.skipped.push_back(
          fmt::format("{} ({}): the same source as item {}", c->provenance.origin, problem, duplicate->id));
      continue;
    }
    if (stored_best && stored_best->speedup >= c->speedup) {
      report.skipped.push_back(fmt::format("{} ({}): {:.2f}x is not faster than item {} ({:.2f}x)",
                                           c->provenance.origin, problem, c->speedup, stored_best->id,
                                           stored_best->speedup));
      continue;
    }
    if (stored_best && stored_best->state == ItemState::kCandidate) {  // still under review: replaced in place
      stored_best->history.push_back(HistoryEntry{options.date, "ingest", "faster: " + c->provenance.origin,
                                                  stored_best->state, stored_best->state, stored_best->speedup,
                                                  c->speedup});
      stored_best->code = c->code;
      stored_best->speedup = c->speedup;
      stored_best->provenance = c->provenance;
      stored_best->measurements = measurements_of(*c);  // another kernel: its own measurements count
      report.updated.push_back(stored_best->id);
      continue;
    }
    Item item;
    item.id = learn::free_item_id(out, "kernel:" + problem);
    item.kind = ItemKind::kKernel;
    item.category = out.problems.at(problem).category;
    item.source = problem;
    item.speedup = c->speedup;
    item.code = c->code;
    item.state = ItemState::kCandidate;
    item.provenance = c->provenance;
    item.measurements = measurements_of(*c);
    std::string why = c->flags.empty() ? "verified" : "verified, promoted although flagged " + flag_list(c->flags);
    item.history.push_back(HistoryEntry{options.date, "ingest", why, ItemState::kCandidate, ItemState::kCandidate,
                                        std::nullopt, c->speedup});
    report.added.push_back(item.id);
    out.items.push_back(std::move(item));
  }
  return out;
}

}  // namespace kmem

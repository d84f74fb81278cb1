// Lessons from verdicts that recur in episodes (docs/learning.md,
// "Lessons"): the checker's or evaluator's own message, one lesson per rule
// (the targets a rule named in different episodes are listed in one text),
// never a second lesson with a stored lesson's text.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "kmem/learn.h"
#include "learn/items.h"

namespace kmem {
namespace {

constexpr size_t kMaxTargets = 5;

// One text for the messages one rule gave: the message itself when they are
// all the same, else the common beginning and end around the list of the
// parts that differ ("attribute 'a', 'b' is not allowed").
std::string merged_message(const std::set<std::string>& messages) {
  if (messages.size() == 1) return *messages.begin();
  const std::string& first = *messages.begin();
  size_t prefix = first.size(), suffix = first.size();
  for (const std::string& m : messages) {
    size_t p = 0;
    while (p < prefix && p < m.size() && m[p] == first[p]) ++p;
    prefix = p;
    size_t s = 0;
    while (s < suffix && s < m.size() && s < first.size() && m[m.size() - 1 - s] == first[first.size() - 1 - s]) ++s;
    suffix = s;
  }
  // Cut back to a quote or a space, so a target is listed whole.
  auto boundary = [](char c) { return c == '\'' || c == ' ' || c == '"'; };
  while (prefix > 0 && !boundary(first[prefix - 1])) --prefix;
  size_t shortest = first.size();
  for (const std::string& m : messages) shortest = std::min(shortest, m.size());
  suffix = std::min(suffix, shortest - prefix);
  while (suffix > 0 && !boundary(first[first.size() - suffix])) --suffix;
  std::string quote =
      prefix > 0 && (first[prefix - 1] == '\'' || first[prefix - 1] == '"') ? std::string(1, first[prefix - 1]) : "";
  std::string middle;
  size_t listed = 0;
  for (const std::string& m : messages) {
    if (listed == kMaxTargets) {
      middle += ", ...";
      break;
    }
    if (listed++ > 0) middle += quote + ", " + quote;
    middle += m.substr(prefix, m.size() - prefix - suffix);
  }
  return first.substr(0, prefix) + middle + first.substr(first.size() - suffix);
}

}  // namespace

Result<Memory> learn_lessons(const Memory& memory, const std::vector<LearnedEpisode>& episodes,
                             const LearnOptions& options, const EvaluatorIdentity& identity, LearnReport& report) {
  Memory out = memory;
  struct Rule {
    std::string stage;
    std::set<std::string> messages;
    std::set<std::string> episodes;  // "<experiment>/<reader>/<policy>/<problem>/<sample>"
  };
  std::map<std::string, Rule> rules;  // by verdict code
  for (const LearnedEpisode& e : episodes) {
    const EpisodeKey& k = e.episode.key;
    std::string where = fmt::format("{}/{}/{}/{}/{}", e.experiment, k.reader, k.policy, k.problem, k.sample);
    for (const StoredTurn& t : e.turns) {
      if (t.verdict == "pass" || (t.stage != "checker" && t.stage != "evaluator")) continue;
      if (t.verdict == "evaluator_error" || t.message.empty()) continue;  // no verdict on the candidate
      Rule& rule = rules[t.verdict];
      rule.stage = t.stage;
      rule.messages.insert(t.message);
      rule.episodes.insert(where);
    }
  }
  int order = 0;
  for (const Item& item : out.items)
    if (item.kind == ItemKind::kLesson && item.order) order = std::max(order, *item.order + 1);
  for (const auto& [code, rule] : rules) {
    if (static_cast<int>(rule.episodes.size()) < options.lesson_min_episodes) continue;
    std::string text = (rule.stage == "checker" ? "Checker rule: " : "Evaluator: ") + merged_message(rule.messages);
    bool known = false;
    for (const Item& item : out.items)
      if (item.kind == ItemKind::kLesson && item.text == text) known = true;
    if (known) {
      report.skipped.push_back(fmt::format("lesson for {}: the store has it already", code));
      continue;
    }
    Item lesson;
    lesson.id = learn::free_item_id(out, "lesson:" + code);
    lesson.kind = ItemKind::kLesson;
    lesson.labels = {"environment"};
    lesson.order = order++;
    lesson.text = text;
    lesson.state = ItemState::kCandidate;
    lesson.provenance =
        Provenance{"episode:" + *rule.episodes.begin(), "", identity.version, identity.gpu, options.date};
    lesson.history.push_back(HistoryEntry{options.date, "ingest",
                                          fmt::format("verdict {} in {} episodes", code, rule.episodes.size()),
                                          ItemState::kCandidate, ItemState::kCandidate, std::nullopt, std::nullopt});
    report.added.push_back(lesson.id);
    out.items.push_back(std::move(lesson));
  }
  return out;
}

}  // namespace kmem

// Baselines and readers from `none` episodes (docs/learning.md, "Baselines
// and readers"): per problem the mean protected score, capped at the store's
// score cap; per (level, category) group the mean of the problem values.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "kmem/learn.h"
#include "kmem/limits.h"

namespace kmem {

Result<Memory> learn_baselines(const Memory& memory, const std::vector<LearnedEpisode>& episodes,
                               const EvaluatorIdentity& identity, const std::string& date, LearnReport& report) {
  Memory out = memory;
  struct Scores {
    double sum = 0;
    int count = 0;
    std::string experiment;
  };
  std::map<std::string, std::map<std::string, Scores>> by_reader;  // reader -> problem -> scores
  for (const LearnedEpisode& e : episodes) {
    const EpisodeKey& key = e.episode.key;
    if (key.policy != "none") continue;
    // An endpoint or evaluator failure is no verdict on the reader.
    if (e.episode.end == "endpoint_error" || e.episode.end == "evaluator_error") continue;
    if (!out.problems.contains(key.problem)) {
      report.skipped.push_back(fmt::format(
          "baseline of {} on {}: the problem is not in the store (kmem problems import)", key.reader, key.problem));
      continue;
    }
    Scores& s = by_reader[key.reader][key.problem];
    s.sum += std::min(e.episode.score, out.score_cap);
    s.count += 1;
    s.experiment = e.experiment;
  }
  for (const auto& [reader, problems] : by_reader) {
    if (Status s = limits::check_reader_id(reader); !s) {
      report.skipped.push_back(fmt::format("baselines of reader '{}': {}", reader, s.error().message()));
      continue;
    }
    if (!out.readers.contains(reader)) out.readers.emplace(reader, Reader{reader, reader});
    Baseline& baseline = out.baselines[reader];
    std::set<std::string> groups;
    for (const auto& [pid, s] : problems) {
      baseline.problems[pid] = s.sum / s.count;
      baseline.provenance[pid] = Provenance{"experiment:" + s.experiment, reader, identity.version, identity.gpu, date};
      const Problem& p = out.problems.at(pid);
      groups.insert(fmt::format("L{}|{}", p.level, p.category));
    }
    for (const std::string& group : groups) {
      double sum = 0;
      int count = 0;
      for (const auto& [pid, v] : baseline.problems) {
        const Problem& p = out.problems.at(pid);
        if (fmt::format("L{}|{}", p.level, p.category) == group) sum += v, ++count;
      }
      baseline.groups[group] = sum / count;
    }
    report.readers.push_back(fmt::format("{}: {} problems", reader, problems.size()));
  }
  return out;
}

}  // namespace kmem

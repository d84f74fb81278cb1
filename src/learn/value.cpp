// The value of items (docs/learning.md, "Value of items"): per item and
// reader, the paired difference in score between episodes whose memory text
// showed the item and episodes of the same problem that did not.
#include <algorithm>
#include <map>
#include <set>

#include "kmem/learn.h"

namespace kmem {

std::vector<ItemValue> item_values(const std::vector<LearnedEpisode>& episodes) {
  struct Sums {
    double sum = 0;
    int count = 0;
  };
  // reader -> problem -> episodes, and every item a reader was shown.
  std::map<std::string, std::map<std::string, std::vector<const LearnedEpisode*>>> by_reader;
  std::map<std::string, std::set<std::string>> items;
  for (const LearnedEpisode& e : episodes) {
    if (e.episode.end == "endpoint_error" || e.episode.end == "evaluator_error") continue;
    by_reader[e.episode.key.reader][e.episode.key.problem].push_back(&e);
    items[e.episode.key.reader].insert(e.shown_item_ids.begin(), e.shown_item_ids.end());
  }
  std::vector<ItemValue> out;
  for (const auto& [reader, problems] : by_reader) {
    for (const std::string& item : items[reader]) {
      ItemValue v{item, reader};
      double total = 0;
      for (const auto& [pid, list] : problems) {
        Sums shown, not_shown;
        for (const LearnedEpisode* e : list) {
          const auto& ids = e->shown_item_ids;
          Sums& s = std::find(ids.begin(), ids.end(), item) != ids.end() ? shown : not_shown;
          s.sum += e->episode.score;
          s.count += 1;
        }
        v.shown += shown.count;
        v.not_shown += not_shown.count;
        if (shown.count == 0 || not_shown.count == 0) continue;
        total += shown.sum / shown.count - not_shown.sum / not_shown.count;
        v.problems += 1;
      }
      if (v.problems == 0) continue;
      v.difference = total / v.problems;
      out.push_back(std::move(v));
    }
  }
  return out;
}

}  // namespace kmem

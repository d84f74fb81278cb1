// Confidence per item (docs/learning.md, "Confidence"): an experiment's
// measured item values kept on the items, and the confidence table that
// `kmem items` and the experiment report show.
#include <algorithm>

#include "kmem/learn.h"
#include "learn/items.h"

namespace kmem {

Memory record_item_values(const Memory& memory, const std::vector<ItemValue>& values, const std::string& experiment) {
  Memory out = memory;
  for (const ItemValue& v : values) {
    Item* item = learn::find_item(out, v.item);
    if (!item || !out.readers.contains(v.reader)) continue;
    item->values[v.reader] = MeasuredValue{experiment, v.problems, v.difference};
  }
  return out;
}

std::vector<ItemConfidenceRow> items_confidence(const Memory& memory, const std::vector<ItemValue>& values,
                                                const std::string& experiment) {
  Memory measured = memory;
  // Values of readers the store does not know count for the report too.
  for (const ItemValue& v : values)
    if (Item* item = learn::find_item(measured, v.item))
      item->values[v.reader] = MeasuredValue{experiment, v.problems, v.difference};
  std::vector<const Item*> order;
  for (const Item& item : measured.items) order.push_back(&item);
  std::stable_sort(order.begin(), order.end(), [](const Item* a, const Item* b) { return more_confident(*a, *b); });
  std::vector<ItemConfidenceRow> rows;
  for (const Item* item : order)
    rows.push_back(ItemConfidenceRow{item->id, item->kind, item->state, item->speedup, item_confidence(*item)});
  return rows;
}

}  // namespace kmem

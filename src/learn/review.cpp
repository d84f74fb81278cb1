// Review: a user moves an item between states or changes its labels; each
// change is kept in the item's history with its reason.
#include <fmt/format.h>

#include "kmem/item_kind.h"
#include "kmem/learn.h"
#include "learn/items.h"

namespace kmem {

Result<Memory> set_item_state(const Memory& memory, const std::string& id, ItemState state, const std::string& reason,
                              const std::string& date) {
  Memory out = memory;
  Item* item = learn::find_item(out, id);
  if (!item) return Error(fmt::format("no item '{}'", id));
  if (item->state == state) return Error(fmt::format("item '{}' is {} already", id, item_state_name(state)));
  if (reason.empty()) return Error(fmt::format("item '{}': a change of state needs a reason", id));
  if (item->kind == ItemKind::kKernel && state == ItemState::kActive) {
    ItemConfidence c = item_confidence(*item);
    if (!c.reproduced)
      return Error(fmt::format(
          "item '{}': its speedup is not reproduced ({} measurement{}, {} within {:.1f}x of the latest, one with the "
          "reference re-timed needed): `kmem reverify` measures it again",
          id, c.measurements, c.measurements == 1 ? "" : "s", c.reproductions, kReproductionSpread));
  }
  const char* action = state == ItemState::kActive ? "promote" : state == ItemState::kRetired ? "retire" : "review";
  learn::record_change(*item, date, action, reason, state);
  // One kernel per source problem is shown: a promoted kernel retires the
  // slower active ones of its source.
  if (item->kind == ItemKind::kKernel && state == ItemState::kActive)
    for (Item& other : out.items)
      if (&other != item && other.kind == ItemKind::kKernel && other.source == item->source &&
          other.state == ItemState::kActive && other.speedup < item->speedup)
        learn::record_change(other, date, "retire", "superseded by " + item->id, ItemState::kRetired);
  return out;
}

Result<Memory> set_item_labels(const Memory& memory, const std::string& id, const std::vector<std::string>& labels,
                               const std::string& reason, const std::string& date) {
  Memory out = memory;
  Item* item = learn::find_item(out, id);
  if (!item) return Error(fmt::format("no item '{}'", id));
  std::string listed;
  for (const std::string& l : labels) listed += (listed.empty() ? "" : ", ") + l;
  item->labels = labels;  // the store's validation refuses an unknown label
  learn::record_change(*item, date, "label",
                       (listed.empty() ? "no labels" : listed) + (reason.empty() ? "" : ": " + reason), item->state);
  return out;
}

}  // namespace kmem

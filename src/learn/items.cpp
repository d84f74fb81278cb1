// Finding items, free ids and history entries for the learning steps.
#include "learn/items.h"

#include <fmt/format.h>

namespace kmem::learn {

Item* find_item(Memory& memory, const std::string& id) {
  for (Item& item : memory.items)
    if (item.id == id) return &item;
  return nullptr;
}

std::string free_item_id(const Memory& memory, const std::string& base) {
  auto taken = [&](const std::string& id) {
    for (const Item& item : memory.items)
      if (item.id == id) return true;
    return false;
  };
  if (!taken(base)) return base;
  for (int n = 2;; ++n)
    if (std::string id = fmt::format("{}:{}", base, n); !taken(id)) return id;
}

void record_change(Item& item, const std::string& date, const std::string& action, const std::string& reason,
                   ItemState to) {
  item.history.push_back(HistoryEntry{date, action, reason, item.state, to, std::nullopt, std::nullopt});
  item.state = to;
}

}  // namespace kmem::learn

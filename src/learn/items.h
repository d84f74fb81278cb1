// What the learning steps share: finding items, free ids, history entries.
#pragma once

#include <string>

#include "kmem/types.h"

namespace kmem::learn {

// The item with `id`, or null.
Item* find_item(Memory& memory, const std::string& id);

// `base` when no item has it, else `base:2`, `base:3`, ...
std::string free_item_id(const Memory& memory, const std::string& base);

// Appends a history entry to `item` and moves it to `to`.
void record_change(Item& item, const std::string& date, const std::string& action, const std::string& reason,
                   ItemState to);

}  // namespace kmem::learn

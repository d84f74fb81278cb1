// The names of item kinds as the store formats spell them.
#pragma once

#include <optional>
#include <string_view>

#include "kmem/types.h"

namespace kmem {

inline const char* item_kind_name(ItemKind kind) {
  switch (kind) {
    case ItemKind::kLesson: return "lesson";
    case ItemKind::kPitfall: return "pitfall";
    case ItemKind::kRecipe: return "recipe";
    case ItemKind::kKernel: return "kernel";
  }
  return "lesson";
}

inline std::optional<ItemKind> item_kind_from_name(std::string_view name) {
  for (ItemKind kind : {ItemKind::kLesson, ItemKind::kPitfall, ItemKind::kRecipe, ItemKind::kKernel})
    if (name == item_kind_name(kind)) return kind;
  return std::nullopt;
}

}  // namespace kmem

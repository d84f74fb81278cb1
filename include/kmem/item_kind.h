// The names of item kinds and states as the store formats spell them.
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

inline const char* item_state_name(ItemState state) {
  switch (state) {
    case ItemState::kCandidate: return "candidate";
    case ItemState::kActive: return "active";
    case ItemState::kRetired: return "retired";
  }
  return "active";
}

inline std::optional<ItemState> item_state_from_name(std::string_view name) {
  for (ItemState state : {ItemState::kCandidate, ItemState::kActive, ItemState::kRetired})
    if (name == item_state_name(state)) return state;
  return std::nullopt;
}

}  // namespace kmem

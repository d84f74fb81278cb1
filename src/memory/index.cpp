// Builds the lookup tables of an IndexedMemory and checks the references
// selection relies on.
#include "memory/index.h"

#include <algorithm>
#include <cctype>

namespace kmem {

std::vector<std::string> name_tokens(const std::string& name) {
  std::vector<std::string> tokens;
  std::string piece;
  for (char c : name + "_") {
    if (c != '_') {
      piece += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!piece.empty()) {
      tokens.push_back(std::move(piece));
      piece.clear();
    }
  }
  return tokens;
}

namespace {

using Tables = IndexedMemory::Tables;

Status check_references(const Memory& memory) {
  if (!memory.readers.contains(memory.author))
    return Error("author '" + memory.author + "' is not one of the readers");
  for (const Item& item : memory.items) {
    bool ordered = item.kind == ItemKind::kLesson || item.kind == ItemKind::kPitfall;
    bool sourced = item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel;
    if (ordered && !item.order) return Error("item '" + item.id + "': no order");
    if (sourced && !memory.problems.contains(item.source))
      return Error("item '" + item.id + "': source problem '" + item.source + "' does not exist");
  }
  return Status::success();
}

void index_problem_tokens(const Memory& memory, Tables& tables) {
  std::unordered_map<std::string, uint32_t> token_ids;
  for (const auto& [id, problem] : memory.problems) {
    std::vector<uint32_t> ids;
    for (const std::string& token : name_tokens(problem.name))
      ids.push_back(token_ids.emplace(token, static_cast<uint32_t>(token_ids.size())).first->second);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    tables.problem_slots.emplace(id, static_cast<uint32_t>(tables.problem_tokens.size()));
    tables.problem_tokens.push_back(std::move(ids));
  }
}

void index_items(const Memory& memory, Tables& tables) {
  const std::vector<Item>& items = memory.items;
  for (uint32_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    switch (item.kind) {
      case ItemKind::kLesson: tables.lessons.push_back(i); break;
      case ItemKind::kPitfall: tables.categories[item.category].pitfalls.push_back(i); break;
      case ItemKind::kRecipe: tables.categories[item.category].recipes.push_back(i); break;
      case ItemKind::kKernel:
        tables.categories[item.category].kernels.push_back({i, tables.problem_slots.at(item.source)});
        break;
    }
  }
  auto by_order = [&](uint32_t a, uint32_t b) { return *items[a].order < *items[b].order; };
  auto by_speedup = [&](uint32_t a, uint32_t b) {
    if (items[a].speedup != items[b].speedup) return items[a].speedup > items[b].speedup;
    return items[a].source > items[b].source;
  };
  std::stable_sort(tables.lessons.begin(), tables.lessons.end(), by_order);
  for (auto& [name, category] : tables.categories) {
    std::stable_sort(category.pitfalls.begin(), category.pitfalls.end(), by_order);
    std::stable_sort(category.recipes.begin(), category.recipes.end(), by_speedup);
    std::stable_sort(category.kernels.begin(), category.kernels.end(),
                     [&](const Tables::Kernel& a, const Tables::Kernel& b) { return by_speedup(a.item, b.item); });
  }
}

}  // namespace

IndexedMemory::IndexedMemory(Memory memory, std::unique_ptr<Tables> tables)
    : memory_(std::move(memory)), tables_(std::move(tables)) {}
IndexedMemory::IndexedMemory(IndexedMemory&&) noexcept = default;
IndexedMemory& IndexedMemory::operator=(IndexedMemory&&) noexcept = default;
IndexedMemory::~IndexedMemory() = default;

Result<IndexedMemory> IndexedMemory::build(Memory memory) {
  if (Status s = check_references(memory); !s) return s.error();
  auto tables = std::make_unique<Tables>();
  index_problem_tokens(memory, *tables);
  index_items(memory, *tables);
  return IndexedMemory(std::move(memory), std::move(tables));
}

}  // namespace kmem

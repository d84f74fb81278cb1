// The value types of the memory (kmem-memory-store/1): readers, problems,
// verified items and each reader's baseline without memory. Plain data,
// handed from the store to selection and rendering; no behaviour here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kmem {

struct Reader {
  std::string id;
  std::string display;
};

struct Problem {
  std::string id;  // L<level>_<number:03d>
  int level = 0;
  int number = 0;
  std::string name;      // KernelBench file stem without the number
  std::string category;  // matmul, conv, norm, ...
};

enum class ItemKind { kLesson, kPitfall, kRecipe, kKernel };

struct Item {
  std::string id;
  ItemKind kind = ItemKind::kLesson;
  std::vector<std::string> labels;  // prohibition, correctness, environment
  std::string category;             // empty for lessons
  std::optional<int> order;         // lessons, pitfalls (and recipes, where given)
  std::string source;               // recipes and kernels: the problem id
  double speedup = 0.0;             // recipes and kernels
  std::string text;                 // lessons, pitfalls, recipes
  std::optional<std::string> text_no_numbers;
  std::string code;                 // kernels

  bool has_label(const std::string& label) const {
    for (const auto& l : labels)
      if (l == label) return true;
    return false;
  }
};

// A reader's mean protected score without memory, per problem and per
// "L<level>|<category>" group.
struct Baseline {
  std::map<std::string, double> problems;
  std::map<std::string, double> groups;
};

// One whole memory: what a store file or database holds.
struct Memory {
  std::string author;  // reader id whose verified attempts produced the items
  double score_cap = 10.0;
  std::map<std::string, Reader> readers;
  std::map<std::string, Problem> problems;
  std::optional<std::vector<std::string>> targets;  // all problems when absent
  std::vector<Item> items;                           // in store order
  std::map<std::string, Baseline> baselines;         // by reader id
};

}  // namespace kmem

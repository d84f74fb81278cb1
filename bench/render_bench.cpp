// Benchmarks of the memory engine: one render from an open store, the whole
// seed dump, and selection on a synthetic store of 100,000 items.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "kmem/memory.h"
#include "kmem/store.h"

namespace kmem {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Seed {
  Memory memory = load_memory(KMEM_SOURCE_DIR "/data/seed/memory-store.json").value();
  Pack pack = parse_pack_json(slurp(KMEM_SOURCE_DIR "/data/seed/prompt-pack.json"), "prompt-pack.json").value();
  MemoryIndex index{memory};
};

const Seed& seed() {
  static const Seed s;
  return s;
}

// One text (the largest policy, show_all) per iteration, cycling over the targets.
void BM_RenderOne(benchmark::State& state) {
  const Seed& s = seed();
  const Policy& policy = s.pack.policies.at("show_all");
  std::vector<std::string> targets = target_ids(s.memory);
  size_t i = 0;
  for (auto _ : state) {
    auto text = render(s.index, s.pack, policy, "claude-opus-5-5", s.memory.problems.at(targets[i++ % targets.size()]));
    benchmark::DoNotOptimize(text);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RenderOne);

// All 1,500 seed texts (what `kmem render --all` renders, without JSON output).
void BM_RenderAllSeed(benchmark::State& state) {
  const Seed& s = seed();
  std::vector<std::string> targets = target_ids(s.memory);
  for (auto _ : state) {
    size_t bytes = 0;
    for (const auto& [name, policy] : s.pack.policies)
      for (const auto& [reader, unused] : s.memory.readers)
        for (const std::string& id : targets)
          bytes += render(s.index, s.pack, policy, reader, s.memory.problems.at(id))->size();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * 1500);
}
BENCHMARK(BM_RenderAllSeed)->Unit(benchmark::kMillisecond);

// A synthetic memory: 1,000 problems in 8 categories and 100,000 items
// (lessons, pitfalls, recipes and kernels in proportion to the seed).
Memory synthetic_memory(int items) {
  std::mt19937 rng(7);
  const std::vector<std::string> categories = {"matmul",    "conv", "conv_transpose", "norm",
                                               "attention", "rnn",  "network",        "reduction"};
  const std::vector<std::string> words = {"Matmul", "Conv2d",  "ReLU", "Softmax", "GELU", "BatchNorm", "Sum",
                                          "Max",    "Scaling", "Bias", "Add",     "Tanh", "Mean",      "Dropout"};
  Memory m;
  m.author = "reader-a";
  m.readers = {{"reader-a", {"reader-a", "Reader A"}}, {"reader-b", {"reader-b", "Reader B"}}};
  for (int p = 1; p <= 1000; ++p) {
    Problem problem;
    problem.level = p % 3 + 1;
    problem.number = p;
    problem.category = categories[p % categories.size()];
    char id[32];
    std::snprintf(id, sizeof id, "L%d_%03d", problem.level, p);
    problem.id = id;
    for (int w = 0; w < 4; ++w) problem.name += (w ? "_" : "") + words[rng() % words.size()];
    m.baselines["reader-b"].problems[problem.id] = (rng() % 500) / 100.0;
    m.problems.emplace(problem.id, problem);
  }
  std::vector<const Problem*> problems;
  for (const auto& [id, p] : m.problems) problems.push_back(&p);
  for (int i = 0; i < items; ++i) {
    const Problem& source = *problems[rng() % problems.size()];
    Item item;
    item.id = "item:" + std::to_string(i);
    int kind = i % 10;
    item.kind = kind == 0  ? ItemKind::kLesson
                : kind < 4 ? ItemKind::kPitfall
                : kind < 6 ? ItemKind::kRecipe
                           : ItemKind::kKernel;
    item.order = i;
    if (item.kind != ItemKind::kLesson) item.category = source.category;
    item.source = source.id;
    item.speedup = (rng() % 4000) / 100.0;
    item.text = "Synthetic advice number " + std::to_string(i) + " for " + source.name;
    item.code = "import torch\n# kernel " + std::to_string(i);
    m.items.push_back(std::move(item));
  }
  return m;
}

void BM_SelectSynthetic100k(benchmark::State& state) {
  static const Memory memory = synthetic_memory(100000);
  static const MemoryIndex index(memory);
  SelectionLimits limits;
  std::vector<const Problem*> targets;
  for (const auto& [id, p] : memory.problems) targets.push_back(&p);
  size_t i = 0;
  for (auto _ : state) {
    Selection s = index.select(*targets[i++ % targets.size()], limits);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SelectSynthetic100k)->Unit(benchmark::kMicrosecond);

// Render (selection + policy + text) on the synthetic store, with a policy
// without lessons: its 10,000 lessons would otherwise dominate the text.
void BM_RenderSynthetic100k(benchmark::State& state) {
  static const Memory memory = synthetic_memory(100000);
  static const MemoryIndex index(memory);
  const Seed& s = seed();
  Policy policy = s.pack.policies.at("frontier_gated");
  policy.lessons = false;
  std::vector<const Problem*> targets;
  for (const auto& [id, p] : memory.problems) targets.push_back(&p);
  size_t i = 0;
  for (auto _ : state) {
    auto text = render(index, s.pack, policy, "reader-b", *targets[i++ % targets.size()]);
    benchmark::DoNotOptimize(text);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RenderSynthetic100k)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kmem

BENCHMARK_MAIN();

// Checker throughput: files checked per second by one kmem::Checker on the
// 44 kernels of the seed memory (target >= 5,000/s on one core). Prints
// items_per_second = files/s.
#include <benchmark/benchmark.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kmem/check.h"

namespace {

std::vector<std::string> seed_kernels() {
  std::ifstream in(KMEM_SEED_STORE);
  const nlohmann::json store = nlohmann::json::parse(in);
  std::vector<std::string> kernels;
  for (const auto& item : store.at("items"))
    if (item.at("kind") == "kernel") kernels.push_back(item.at("code"));
  return kernels;
}

void BM_CheckSourceSeedKernels(benchmark::State& state) {
  const std::vector<std::string> kernels = seed_kernels();
  if (kernels.size() != 44) state.SkipWithError("expected the 44 seed kernels in " KMEM_SEED_STORE);
  kmem::Checker checker;
  size_t bytes = 0;
  for (auto _ : state) {
    for (const std::string& code : kernels) {
      benchmark::DoNotOptimize(checker.check_source(code));
      bytes += code.size();
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kernels.size()));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_CheckSourceSeedKernels)->Unit(benchmark::kMillisecond);

// The evaluator's path: a reply around each kernel, parsed then checked.
void BM_CheckReplySeedKernels(benchmark::State& state) {
  std::vector<std::string> replies;
  for (const std::string& code : seed_kernels())
    replies.push_back("Fused kernel below.\n\n```python\n" + code + "\n```\n\nACTION: SUBMIT\n");
  kmem::Checker checker;
  for (auto _ : state)
    for (const std::string& reply : replies) benchmark::DoNotOptimize(checker.check_reply(reply));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * replies.size()));
}
BENCHMARK(BM_CheckReplySeedKernels)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

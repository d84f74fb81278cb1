// Google Benchmark of the store on the seed memory (93 problems, 107 items):
// JSON parse, JSON export, database import and database read.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kmem/store.h"

namespace {

std::string seed_text() {
  std::ifstream in(std::string(KMEM_BENCH_DATA_DIR) + "/seed/memory-store.json", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

kmem::Memory seed_memory() { return *kmem::parse_memory_json(seed_text(), "seed"); }

std::string temp_db() {
  auto path = std::filesystem::temp_directory_path() / ("kmem_store_bench_" + std::to_string(::getpid()) + ".db");
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  return path.string();
}

void BM_ParseSeedJson(benchmark::State& state) {
  std::string text = seed_text();
  for (auto _ : state) benchmark::DoNotOptimize(kmem::parse_memory_json(text, "seed"));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ParseSeedJson)->Unit(benchmark::kMillisecond);

void BM_ExportSeedJson(benchmark::State& state) {
  kmem::Memory memory = seed_memory();
  for (auto _ : state) benchmark::DoNotOptimize(kmem::memory_to_json(memory));
}
BENCHMARK(BM_ExportSeedJson)->Unit(benchmark::kMillisecond);

void BM_ImportSeedIntoDatabase(benchmark::State& state) {
  kmem::Memory memory = seed_memory();
  std::string path = temp_db();
  auto db = kmem::Database::open(path);
  for (auto _ : state)
    if (!db->replace(memory)) state.SkipWithError("import failed");
  std::filesystem::remove(path);
}
BENCHMARK(BM_ImportSeedIntoDatabase)->Unit(benchmark::kMillisecond);

void BM_ReadSeedFromDatabase(benchmark::State& state) {
  std::string path = temp_db();
  auto db = kmem::Database::open(path);
  if (!db->replace(seed_memory())) state.SkipWithError("import failed");
  for (auto _ : state) benchmark::DoNotOptimize(db->read());
  std::filesystem::remove(path);
}
BENCHMARK(BM_ReadSeedFromDatabase)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

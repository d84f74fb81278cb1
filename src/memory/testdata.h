// Test helper: the second memory (testdata/second-store.json, rules-probing
// data unlike the seed) and its pack (testdata/second-pack.json), plus the
// bundled seed pack.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "kmem/memory.h"
#include "kmem/store.h"

namespace kmem::testdata {

inline std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Memory second_memory() {
  auto memory = parse_memory_json(read(KMEM_MEMORY_TESTDATA "/second-store.json"), "second-store.json");
  EXPECT_TRUE(memory.ok()) << memory.error().message();
  return std::move(memory).value();
}

inline IndexedMemory second_indexed() {
  auto indexed = IndexedMemory::build(second_memory());
  EXPECT_TRUE(indexed.ok()) << indexed.error().message();
  return std::move(indexed).value();
}

inline Pack second_pack() {
  auto pack = parse_pack_json(read(KMEM_MEMORY_TESTDATA "/second-pack.json"), "second-pack.json");
  EXPECT_TRUE(pack.ok()) << pack.error().message();
  return std::move(pack).value();
}

inline std::string seed_pack_text() { return read(KMEM_DATA_DIR_FOR_TESTS "/seed/prompt-pack.json"); }

}  // namespace kmem::testdata

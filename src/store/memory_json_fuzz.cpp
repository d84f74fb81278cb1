// libFuzzer target: parse_memory_json never crashes or throws, and whatever it
// accepts exports to a fixed point.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "kmem/store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto memory = kmem::parse_memory_json(text, "fuzz.json");
  if (!memory) return 0;
  std::string exported = kmem::memory_to_json(*memory);
  auto again = kmem::parse_memory_json(exported, "fuzz.json");
  if (!again || kmem::memory_to_json(*again) != exported) std::abort();
  return 0;
}

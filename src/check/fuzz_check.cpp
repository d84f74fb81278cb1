// libFuzzer target: arbitrary bytes through parse_reply, check_reply and
// check_source (built with -DKMEM_BUILD_FUZZ=ON and clang; see
// docs/benchmarks.md, section Checker).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kmem/check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  kmem::Reply reply = kmem::parse_reply(text);
  if (reply.verdicts.empty()) kmem::check_source(reply.source);
  kmem::check_source(text);
  return 0;
}

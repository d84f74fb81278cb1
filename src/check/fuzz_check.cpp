// libFuzzer target: arbitrary bytes through parse_reply, then one Checker's
// check_source on the chosen block and on the raw bytes (built with
// -DKMEM_BUILD_FUZZ=ON and clang; see docs/benchmarks.md, section Checker).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kmem/check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  kmem::Checker checker;  // two checks with one parser, as a long-lived Checker does
  kmem::Reply reply = kmem::parse_reply(text);
  if (reply.offences.empty()) checker.check_source(reply.source);
  checker.check_source(text);
  return 0;
}

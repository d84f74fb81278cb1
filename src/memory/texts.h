// Which pack texts a policy uses, which placeholders each may hold, and how
// `numbers: false` picks the "<name>_no_numbers" variant of a text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kmem/memory.h"
#include "memory/template.h"

namespace kmem {

// The texts `policy` renders with (base names, before the numbers rule).
std::vector<std::string_view> needed_texts(const Policy& policy);

// The placeholders the text `base` may use.
std::vector<Placeholder> placeholders_allowed(std::string_view base);

// The name of the text used for `base` under `policy`: "<base>_no_numbers"
// when numbers are off and the pack has it, else `base`.
std::string text_name(const Pack& pack, const Policy& policy, std::string_view base);

}  // namespace kmem

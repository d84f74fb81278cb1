// Strict JSON parsing for every kmem input (store, prompt pack, rules, specs):
// a duplicated key is an error instead of silently keeping the last value, and
// no nlohmann exception escapes; errors name the source and where it failed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kmem/result.h"

namespace kmem::util {

// Parses `text`; `source_name` (usually the file path) prefixes every error.
Result<nlohmann::json> parse_strict_json(std::string_view text, const std::string& source_name);

}  // namespace kmem::util

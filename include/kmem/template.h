// Fills a pack template: each {name} whose name is given is replaced by its
// value in one pass (values are never scanned again, so code with braces is
// safe); any other brace text is kept as written.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kmem {

using TemplateValues = std::vector<std::pair<std::string_view, std::string_view>>;

std::string fill(std::string_view text, const TemplateValues& values);

}  // namespace kmem

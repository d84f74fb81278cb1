// Loads the category rule table (kmem-category-rules/1) and applies it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "kmem/catalog.h"
#include "kmem/limits.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {

namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "kmem-category-rules/1";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

Result<std::vector<std::string>> keywords(const util::JsonFields& f, const char* key, bool lower_case) {
  std::vector<std::string> out;
  if (!f.has(key)) return out;
  auto words = f.strings(key);
  if (!words || words->empty() ||
      std::any_of(words->begin(), words->end(), [](const std::string& w) { return w.empty(); }))
    return f.wrong(key, "a non-empty list of non-empty strings");
  for (const std::string& word : *words) out.push_back(lower_case ? lower(word) : word);
  return out;
}

Result<CategoryRule> parse_rule(const Json& rule, const std::string& where) {
  util::JsonFields f(rule, where);
  if (Status s = f.only({"levels", "name_contains", "name_starts_with", "source_contains", "category", "note"}); !s)
    return s.error();
  CategoryRule out;
  auto category = f.string("category");
  if (!category) return category.error();
  if (Status s = limits::check_category(*category); !s) return s.error().wrap(where);
  out.category = std::move(*category);
  if (f.has("levels")) {
    auto levels = f.array("levels");
    if (!levels) return levels.error();
    if ((*levels)->empty()) return f.wrong("levels", "a non-empty list of integers");
    for (const Json& level : **levels) {
      if (!level.is_number_integer() || level.get<long long>() < limits::kMinLevel ||
          level.get<long long>() > limits::kMaxLevel)
        return f.wrong("levels",
                       fmt::format("a non-empty list of integers from {} to {}", limits::kMinLevel, limits::kMaxLevel));
      out.levels.push_back(level.get<int>());
    }
  }
  auto names = keywords(f, "name_contains", true);
  auto prefixes = keywords(f, "name_starts_with", true);
  auto sources = keywords(f, "source_contains", false);
  if (!names) return names.error();
  if (!prefixes) return prefixes.error();
  if (!sources) return sources.error();
  out.name_contains = std::move(*names);
  out.name_starts_with = std::move(*prefixes);
  out.source_contains = std::move(*sources);
  return out;
}

// A condition holds when it is absent (no keywords) or one keyword matches.
bool condition_holds(const std::vector<std::string>& words, auto matches) {
  return words.empty() || std::any_of(words.begin(), words.end(), matches);
}

bool holds(const CategoryRule& rule, int level, const std::string& name, std::string_view source) {
  if (!rule.levels.empty() && std::find(rule.levels.begin(), rule.levels.end(), level) == rule.levels.end())
    return false;
  return condition_holds(rule.name_contains, [&](const std::string& w) { return name.find(w) != std::string::npos; }) &&
         condition_holds(rule.name_starts_with, [&](const std::string& w) { return name.starts_with(w); }) &&
         condition_holds(rule.source_contains,
                         [&](const std::string& w) { return source.find(w) != std::string_view::npos; });
}

}  // namespace

Result<CategoryRules> CategoryRules::parse(std::string_view text, const std::string& source_name) {
  auto doc = util::parse_strict_json(text, source_name);
  if (!doc) return doc.error();
  util::JsonFields top(*doc, source_name);
  if (!doc->is_object() || !top.string("format") || *top.string("format") != kFormat)
    return Error(fmt::format("{}: not a {} document (field 'format')", source_name, kFormat));
  if (Status s = top.only({"format", "rules"}); !s) return s.error();
  auto list = top.array("rules");
  if (!list) return list.error();
  if ((*list)->empty()) return top.wrong("rules", "a non-empty list");
  CategoryRules rules;
  for (size_t i = 0; i < (*list)->size(); ++i) {
    auto rule = parse_rule((**list)[i], fmt::format("{}: rules[{}]", source_name, i));
    if (!rule) return rule.error();
    rules.rules_.push_back(std::move(*rule));
  }
  return rules;
}

Result<CategoryRules> CategoryRules::load(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return text.error();
  return parse(*text, path);
}

std::optional<std::string> CategoryRules::classify(int level, std::string_view name, std::string_view source) const {
  std::string lowered = lower(name);
  for (const CategoryRule& rule : rules_)
    if (holds(rule, level, lowered, source)) return rule.category;
  return std::nullopt;
}

}  // namespace kmem

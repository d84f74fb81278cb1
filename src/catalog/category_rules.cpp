// Loads the category rule table (kmem-category-rules/1) and applies it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kmem/catalog.h"

namespace kmem {

namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "kmem-category-rules/1";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

Result<std::vector<std::string>> keywords(const Json& rule, const char* key, bool lower_case,
                                          const std::string& where) {
  std::vector<std::string> out;
  if (!rule.contains(key)) return out;
  const Json& list = rule.at(key);
  if (!list.is_array() || list.empty())
    return Error(fmt::format("{}: '{}' must be a non-empty list of strings", where, key));
  for (const Json& word : list) {
    if (!word.is_string() || word.get<std::string>().empty())
      return Error(fmt::format("{}: '{}' must be a non-empty list of strings", where, key));
    out.push_back(lower_case ? lower(word.get<std::string>()) : word.get<std::string>());
  }
  return out;
}

Result<CategoryRule> parse_rule(const Json& rule, const std::string& where) {
  static const char* const kKnown[] = {"levels", "name_contains", "name_starts_with", "source_contains",
                                       "category", "note"};
  if (!rule.is_object()) return Error(where + ": a rule is an object");
  for (const auto& [key, value] : rule.items())
    if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown))
      return Error(fmt::format("{}: unknown field '{}'", where, key));
  CategoryRule out;
  if (!rule.contains("category") || !rule.at("category").is_string() || rule.at("category").get<std::string>().empty())
    return Error(where + ": 'category' must be a non-empty string");
  out.category = rule.at("category").get<std::string>();
  if (rule.contains("levels")) {
    const Json& levels = rule.at("levels");
    if (!levels.is_array() || levels.empty()) return Error(where + ": 'levels' must be a non-empty list of integers");
    for (const Json& level : levels) {
      if (!level.is_number_integer() || level.get<long long>() < 1 || level.get<long long>() > 99)
        return Error(where + ": 'levels' must be a non-empty list of integers from 1");
      out.levels.push_back(level.get<int>());
    }
  }
  auto names = keywords(rule, "name_contains", true, where);
  auto prefixes = keywords(rule, "name_starts_with", true, where);
  auto sources = keywords(rule, "source_contains", false, where);
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
         condition_holds(rule.source_contains, [&](const std::string& w) { return source.find(w) != std::string_view::npos; });
}

}  // namespace

Result<CategoryRules> CategoryRules::parse(std::string_view text, const std::string& source_name) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::exception& e) {
    return Error(fmt::format("{}: malformed JSON: {}", source_name, e.what()));
  }
  if (!doc.is_object() || doc.value("format", "") != kFormat)
    return Error(fmt::format("{}: not a {} document (field 'format')", source_name, kFormat));
  if (!doc.contains("rules") || !doc.at("rules").is_array() || doc.at("rules").empty())
    return Error(source_name + ": 'rules' must be a non-empty list");
  CategoryRules rules;
  const Json& list = doc.at("rules");
  for (size_t i = 0; i < list.size(); ++i) {
    auto rule = parse_rule(list[i], fmt::format("{}: rules[{}]", source_name, i));
    if (!rule) return rule.error();
    rules.rules_.push_back(std::move(*rule));
  }
  return rules;
}

Result<CategoryRules> CategoryRules::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open the category rules");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

std::optional<std::string> CategoryRules::classify(int level, std::string_view name, std::string_view source) const {
  std::string lowered = lower(name);
  for (const CategoryRule& rule : rules_)
    if (holds(rule, level, lowered, source)) return rule.category;
  return std::nullopt;
}

}  // namespace kmem

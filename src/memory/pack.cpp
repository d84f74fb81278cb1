// Reads and validates a kmem-prompt-pack/1 document into a Pack.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <nlohmann/json.hpp>

#include "kmem/memory.h"
#include "memory/needed_texts.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "kmem-prompt-pack/1";

Result<bool> flag(const Json& policy, const char* key, bool fallback, const std::string& where) {
  if (!policy.contains(key) || policy.at(key).is_null()) return fallback;
  if (!policy.at(key).is_boolean()) return Error(fmt::format("{}: '{}' must be true or false", where, key));
  return policy.at(key).get<bool>();
}

// Refuses any key of policy `j` that parse_policy does not read, so a
// misspelt option is not silently left at its default.
Status check_policy_keys(const Json& j, const std::string& where) {
  if (j.contains("fixed_text")) {
    for (const auto& [key, value] : j.items())
      if (key != "fixed_text")
        return Error(fmt::format("{}: unknown key '{}' (a fixed_text policy has no other key)", where, key));
    return Status::success();
  }
  constexpr std::array<std::string_view, 7> kKeys = {
      "sections", "numbers", "how_to_read", "you_alone", "drop_prohibitions", "pitfalls_correctness_only", "gate"};
  for (const auto& [key, value] : j.items())
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      return Error(fmt::format("{}: unknown key '{}' (expected sections, numbers, how_to_read, you_alone, "
                               "drop_prohibitions, pitfalls_correctness_only or gate)",
                               where, key));
  return Status::success();
}

Result<Policy> parse_policy(const std::string& name, const Json& j, const std::string& where) {
  if (!j.is_object()) return Error(where + ": a policy is an object");
  if (Status s = check_policy_keys(j, where); !s) return s.error();
  Policy p;
  p.name = name;
  if (j.contains("fixed_text")) {
    if (!j.at("fixed_text").is_string()) return Error(where + ": 'fixed_text' must name a text of the pack");
    p.fixed_text = j.at("fixed_text").get<std::string>();
    return p;
  }
  if (!j.contains("sections") || !j.at("sections").is_array())
    return Error(where + ": a policy needs 'sections' (a list) or 'fixed_text'");
  for (const Json& s : j.at("sections")) {
    std::string section = s.is_string() ? s.get<std::string>() : "";
    if (section == "lessons") p.lessons = true;
    else if (section == "pitfalls") p.pitfalls = true;
    else if (section == "recipes") p.recipes = true;
    else if (section == "kernels") p.kernels = true;
    else return Error(fmt::format("{}: unknown section {} (expected lessons, pitfalls, recipes or kernels)", where, s.dump()));
  }
  struct Flag { const char* key; bool* target; bool fallback; };
  for (Flag f : {Flag{"numbers", &p.numbers, true}, Flag{"how_to_read", &p.how_to_read, false},
                 Flag{"you_alone", &p.you_alone, false}, Flag{"drop_prohibitions", &p.drop_prohibitions, false},
                 Flag{"pitfalls_correctness_only", &p.pitfalls_correctness_only, false}}) {
    auto value = flag(j, f.key, f.fallback, where);
    if (!value) return value.error();
    *f.target = *value;
  }
  if (j.contains("gate") && !j.at("gate").is_null()) {
    const Json& gate = j.at("gate");
    if (gate == "source") p.gate = Gate::kSource;
    else if (gate == "source+target") p.gate = Gate::kSourceAndTarget;
    else return Error(fmt::format("{}: unknown gate {} (expected null, \"source\" or \"source+target\")", where, gate.dump()));
  }
  return p;
}

// The keys of the `episode` section (docs/episodes.md, "Texts"): all of
// them, and no other, when the section is present.
constexpr std::array<std::string_view, 11> kEpisodeKeys = {
    "system",          "task",          "memory_block",     "feedback_pass",   "feedback_build",   "feedback_mismatch",
    "feedback_failed", "feedback_rejected", "feedback_no_action", "turns_left", "last_turn"};

// The keys of the `learn` section (docs/learning.md, "Recipes and pitfalls").
constexpr std::array<std::string_view, 3> kLearnKeys = {"system", "recipe", "pitfall"};

// A section of texts that must hold exactly `keys`; `doc` names the page
// that describes them.
template <size_t N>
Result<std::map<std::string, std::string>> parse_texts_section(const Json& j, const std::string& where,
                                                               const std::array<std::string_view, N>& keys,
                                                               const char* doc) {
  if (!j.is_object()) return Error(where + ": must be an object of texts");
  std::map<std::string, std::string> texts;
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      return Error(fmt::format("{}: unknown key '{}' (see {})", where, key, doc));
    if (!value.is_string()) return Error(fmt::format("{}.{} must be a string", where, key));
    texts.emplace(key, value.template get<std::string>());
  }
  for (std::string_view key : keys)
    if (!texts.contains(std::string(key))) return Error(fmt::format("{}: the text '{}' is missing", where, key));
  return texts;
}

Status check_pack_keys(const Json& doc, const std::string& where) {
  constexpr std::array<std::string_view, 6> kKeys = {"format", "selection", "texts", "policies", "episode", "learn"};
  for (const auto& [key, value] : doc.items())
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      return Error(fmt::format("{}: unknown key '{}' (expected format, selection, texts, policies, episode or learn)",
                               where, key));
  return Status::success();
}

}  // namespace

Result<Pack> parse_pack_json(std::string_view text, const std::string& source_name) {
  auto parsed = parse_strict_json(text, source_name);
  if (!parsed) return parsed.error();
  const Json& doc = *parsed;
  if (!doc.is_object()) return Error(source_name + ": a prompt pack is a JSON object");
  if (!doc.contains("format") || doc.at("format") != kFormat)
    return Error(fmt::format("{}: format must be '{}'", source_name, kFormat));
  if (Status s = check_pack_keys(doc, source_name); !s) return s.error();
  Pack pack;
  if (doc.contains("episode")) {
    auto episode = parse_texts_section(doc.at("episode"), source_name + ": episode", kEpisodeKeys, "docs/episodes.md");
    if (!episode) return episode.error();
    pack.episode = std::move(*episode);
  }
  if (doc.contains("learn")) {
    auto learn = parse_texts_section(doc.at("learn"), source_name + ": learn", kLearnKeys, "docs/learning.md");
    if (!learn) return learn.error();
    pack.learn = std::move(*learn);
  }
  if (doc.contains("selection")) {
    const Json& sel = doc.at("selection");
    if (!sel.is_object()) return Error(source_name + ": 'selection' must be an object");
    struct Limit { const char* key; int* target; };
    for (Limit l : {Limit{"max_pitfalls", &pack.selection.max_pitfalls}, Limit{"max_recipes", &pack.selection.max_recipes},
                    Limit{"related_kernels", &pack.selection.related_kernels}}) {
      if (!sel.contains(l.key)) continue;
      const Json& limit = sel.at(l.key);
      if (!limit.is_number_unsigned() || limit.get<uint64_t>() > static_cast<uint64_t>(INT_MAX))
        return Error(fmt::format("{}: selection.{} must be a non-negative integer", source_name, l.key));
      *l.target = limit.get<int>();
    }
  }
  if (!doc.contains("texts") || !doc.at("texts").is_object()) return Error(source_name + ": 'texts' must be an object");
  for (const auto& [key, value] : doc.at("texts").items()) {
    if (!value.is_string()) return Error(fmt::format("{}: texts.{} must be a string", source_name, key));
    pack.texts.emplace(key, value.get<std::string>());
  }
  if (!doc.contains("policies") || !doc.at("policies").is_object())
    return Error(source_name + ": 'policies' must be an object");
  for (const auto& [name, value] : doc.at("policies").items()) {
    std::string where = fmt::format("{}: policies.{}", source_name, name);
    auto policy = parse_policy(name, value, where);
    if (!policy) return policy.error();
    if (auto missing = missing_text(pack, *policy))
      return Error(fmt::format("{}: needs the text '{}', which the pack lacks", where, *missing));
    pack.policies.emplace(name, std::move(*policy));
  }
  return pack;
}

}  // namespace kmem

// Reads and validates a kmem-prompt-pack/1 document into a Pack.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kmem/memory.h"
#include "memory/needed_texts.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "kmem-prompt-pack/1";

Result<Policy> parse_policy(const std::string& name, const Json& j, const std::string& where) {
  util::JsonFields f(j, where);
  if (Status s = f.is_object(); !s) return s.error();
  Policy p;
  p.name = name;
  if (j.contains("fixed_text")) {
    if (Status s = f.only({"fixed_text"}, "a fixed_text policy"); !s) return s.error();
    auto text = f.string("fixed_text");
    if (!text) return text.error();
    p.fixed_text = std::move(*text);
    return p;
  }
  if (Status s = f.only({"sections", "numbers", "how_to_read", "you_alone", "drop_prohibitions",
                         "pitfalls_correctness_only", "gate", "max_learned"});
      !s)
    return s.error();
  auto sections = f.strings("sections");
  if (!sections) return sections.error();
  for (const std::string& section : *sections) {
    if (section == "lessons") p.lessons = true;
    else if (section == "pitfalls") p.pitfalls = true;
    else if (section == "recipes") p.recipes = true;
    else if (section == "kernels") p.kernels = true;
    else
      return f.error(
          fmt::format("unknown section {} (expected lessons, pitfalls, recipes or kernels)", Json(section).dump()));
  }
  struct Flag {
    const char* key;
    bool* target;
    bool fallback;
  };
  for (Flag flag : {Flag{"numbers", &p.numbers, true}, Flag{"how_to_read", &p.how_to_read, false},
                    Flag{"you_alone", &p.you_alone, false}, Flag{"drop_prohibitions", &p.drop_prohibitions, false},
                    Flag{"pitfalls_correctness_only", &p.pitfalls_correctness_only, false}}) {
    *flag.target = flag.fallback;
    if (!f.has(flag.key)) continue;
    auto value = f.boolean(flag.key);
    if (!value) return value.error();
    *flag.target = *value;
  }
  if (f.has("gate")) {
    const Json& gate = j.at("gate");
    if (gate == "source") p.gate = Gate::kSource;
    else if (gate == "source+target") p.gate = Gate::kSourceAndTarget;
    else return f.error(fmt::format("unknown gate {} (expected null, \"source\" or \"source+target\")", gate.dump()));
  }
  if (f.has("max_learned")) {
    auto cap = f.integer("max_learned");
    if (!cap) return cap.error();
    if (*cap < 0) return f.error("max_learned must be >= 0");
    p.max_learned = *cap;
  }
  return p;
}

// The texts of the `episode` section (docs/episodes.md, "Texts").
const std::initializer_list<std::string_view> kEpisodeKeys = {"system",
                                                              "task",
                                                              "memory_block",
                                                              "feedback_pass",
                                                              "feedback_build",
                                                              "feedback_mismatch",
                                                              "feedback_failed",
                                                              "feedback_rejected",
                                                              "feedback_no_action",
                                                              "turns_left",
                                                              "last_turn",
                                                              "feedback_cut",
                                                              "mismatch_facts",
                                                              "mismatch_sample",
                                                              "mismatch_edges",
                                                              "mismatch_tail",
                                                              "mismatch_everywhere",
                                                              "mismatch_scattered",
                                                              "pass_compile",
                                                              "pass_roofline",
                                                              "pass_own_work"};

// The texts of the `learn` section (docs/learning.md, "Recipes and pitfalls").
const std::initializer_list<std::string_view> kLearnKeys = {"system", "recipe", "pitfall"};

// A section of texts that holds exactly `keys`, each a string.
Result<std::map<std::string, std::string>> parse_texts_section(const util::JsonFields& f,
                                                               std::initializer_list<std::string_view> keys) {
  if (Status s = f.only(keys); !s) return s.error();
  std::map<std::string, std::string> texts;
  for (std::string_view key : keys) {
    auto text = f.string(key);
    if (!text) return text.error();
    texts.emplace(key, std::move(*text));
  }
  return texts;
}

// The string fields of `f`, every one of them.
Result<std::map<std::string, std::string>> all_strings(const util::JsonFields& f, const Json& object) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : object.items()) {
    auto text = f.string(key);
    if (!text) return text.error();
    out.emplace(key, std::move(*text));
  }
  return out;
}

Status parse_selection(const util::JsonFields& top, SelectionLimits& selection) {
  if (!top.has("selection")) return Status::success();
  auto object = top.object("selection");
  if (!object) return object.error();
  util::JsonFields f(**object, top.where() + ": selection");
  if (Status s = f.only({"max_pitfalls", "max_recipes", "related_kernels"}); !s) return s;
  struct Limit {
    const char* key;
    int* target;
  };
  for (Limit l : {Limit{"max_pitfalls", &selection.max_pitfalls}, Limit{"max_recipes", &selection.max_recipes},
                  Limit{"related_kernels", &selection.related_kernels}}) {
    if (!f.has(l.key)) continue;
    auto value = f.integer(l.key);
    if (!value || *value < 0) return f.wrong(l.key, "a non-negative integer");
    *l.target = *value;
  }
  return Status::success();
}

}  // namespace

Result<Pack> parse_pack_json(std::string_view text, const std::string& source_name) {
  auto parsed = util::parse_strict_json(text, source_name);
  if (!parsed) return parsed.error();
  const Json& doc = *parsed;
  util::JsonFields top(doc, source_name);
  if (!doc.is_object()) return top.error("a prompt pack is a JSON object");
  if (!top.has("format") || doc.at("format") != kFormat) return top.error(fmt::format("format must be '{}'", kFormat));
  if (Status s = top.only({"format", "selection", "texts", "policies", "episode", "learn"}); !s) return s.error();
  Pack pack;
  if (top.has("episode")) {
    auto section = top.object("episode");
    if (!section) return section.error();
    auto episode = parse_texts_section(util::JsonFields(**section, source_name + ": episode"), kEpisodeKeys);
    if (!episode) return episode.error();
    pack.episode = std::move(*episode);
  }
  if (top.has("learn")) {
    auto section = top.object("learn");
    if (!section) return section.error();
    auto learn = parse_texts_section(util::JsonFields(**section, source_name + ": learn"), kLearnKeys);
    if (!learn) return learn.error();
    pack.learn = std::move(*learn);
  }
  if (Status s = parse_selection(top, pack.selection); !s) return s.error();
  auto texts = top.object("texts");
  if (!texts) return texts.error();
  auto strings = all_strings(util::JsonFields(**texts, source_name + ": texts"), **texts);
  if (!strings) return strings.error();
  pack.texts = std::move(*strings);
  auto policies = top.object("policies");
  if (!policies) return policies.error();
  for (const auto& [name, value] : (*policies)->items()) {
    std::string where = fmt::format("{}: policies.{}", source_name, name);
    auto policy = parse_policy(name, value, where);
    if (!policy) return policy.error();
    if (auto missing = memory::missing_text(pack, *policy))
      return Error(fmt::format("{}: needs the text '{}', which the pack lacks", where, *missing));
    pack.policies.emplace(name, std::move(*policy));
  }
  return pack;
}

}  // namespace kmem

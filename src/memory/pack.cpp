// Reads and validates a kmem-prompt-pack/1 document into a Pack.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "kmem/memory.h"
#include "memory/template.h"
#include "memory/texts.h"

namespace kmem {
namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "kmem-prompt-pack/1";

struct SectionName {
  std::string_view name;
  Section section;
};
constexpr SectionName kSections[] = {{"lessons", Section::kLessons},
                                     {"pitfalls", Section::kPitfalls},
                                     {"recipes", Section::kRecipes},
                                     {"kernels", Section::kKernels}};

struct GateName {
  std::string_view name;
  Gate gate;
};
constexpr GateName kGates[] = {{"source", Gate::kSource}, {"source+target", Gate::kSourceAndTarget}};

// Errors about one entry of the pack: "<file>:<entry>: <what>".
class Where {
 public:
  Where(const std::string& file, std::string entry) : file_(file), entry_(std::move(entry)) {}
  Where operator/(const std::string& key) const { return Where(file_, entry_.empty() ? key : entry_ + "." + key); }
  Error error(const std::string& what) const {
    return Error(entry_.empty() ? file_ + ": " + what : file_ + ":" + entry_ + ": " + what);
  }

 private:
  const std::string& file_;
  std::string entry_;
};

Status only_keys(const Json& object, std::initializer_list<std::string_view> known, const Where& where) {
  for (const auto& [key, value] : object.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      return where.error(fmt::format("unknown field '{}' (known: {})", key, fmt::join(known, ", ")));
  return Status::success();
}

Result<const Json*> object_field(const Json& parent, const char* key, const Where& where) {
  if (!parent.contains(key)) return where.error(fmt::format("missing field '{}'", key));
  if (!parent.at(key).is_object()) return (where / key).error("must be an object");
  return &parent.at(key);
}

Status parse_selection(const Json& doc, const Where& where, SelectionLimits& limits) {
  auto selection = object_field(doc, "selection", where);
  if (!selection) return selection.error();
  Where here = where / "selection";
  if (Status s = only_keys(**selection, {"max_pitfalls", "max_recipes", "related_kernels"}, here); !s) return s;
  for (auto [key, limit] : {std::pair{"max_pitfalls", &limits.max_pitfalls},
                            std::pair{"max_recipes", &limits.max_recipes},
                            std::pair{"related_kernels", &limits.related_kernels}}) {
    if (!(*selection)->contains(key)) return here.error(fmt::format("missing field '{}'", key));
    const Json& value = (*selection)->at(key);
    if (!value.is_number_unsigned()) return (here / key).error("must be a non-negative integer");
    *limit = value.get<int>();
  }
  return Status::success();
}

Status parse_texts(const Json& doc, const Where& where, std::map<std::string, std::string>& texts) {
  auto object = object_field(doc, "texts", where);
  if (!object) return object.error();
  for (const auto& [name, value] : (*object)->items()) {
    if (!value.is_string()) return (where / "texts" / name).error("must be a string");
    texts.emplace(name, value.get<std::string>());
  }
  return Status::success();
}

Status parse_flag(const Json& entry, const char* key, const Where& where, bool& flag) {
  if (!entry.contains(key)) return Status::success();
  if (!entry.at(key).is_boolean()) return (where / key).error("must be true or false");
  flag = entry.at(key).get<bool>();
  return Status::success();
}

Status parse_sections(const Json& entry, const Where& where, std::vector<Section>& sections) {
  if (!entry.contains("sections")) return where.error("missing field 'sections' (or 'fixed_text')");
  const Json& list = entry.at("sections");
  if (!list.is_array()) return (where / "sections").error("must be a list of section names");
  for (size_t i = 0; i < list.size(); ++i) {
    Where at = where / fmt::format("sections[{}]", i);
    if (!list[i].is_string()) return at.error("must be a section name");
    std::string name = list[i].get<std::string>();
    auto known = std::find_if(std::begin(kSections), std::end(kSections),
                              [&](const SectionName& s) { return s.name == name; });
    if (known == std::end(kSections))
      return at.error(fmt::format("unknown section '{}' (known: lessons, pitfalls, recipes, kernels)", name));
    if (std::find(sections.begin(), sections.end(), known->section) != sections.end())
      return at.error(fmt::format("section '{}' listed twice", name));
    sections.push_back(known->section);
  }
  return Status::success();
}

Status parse_gate(const Json& entry, const Where& where, Gate& gate) {
  if (!entry.contains("gate") || entry.at("gate").is_null()) return Status::success();
  const Json& value = entry.at("gate");
  std::string name = value.is_string() ? value.get<std::string>() : value.dump();
  for (const GateName& known : kGates)
    if (value.is_string() && known.name == name) {
      gate = known.gate;
      return Status::success();
    }
  return (where / "gate").error(fmt::format("unknown gate {} (known: null, \"source\", \"source+target\")",
                                            value.is_string() ? "'" + name + "'" : name));
}

Result<Policy> parse_policy(const std::string& name, const Json& entry, const Where& where) {
  if (!entry.is_object()) return where.error("must be an object");
  Policy policy;
  policy.name = name;
  if (entry.contains("fixed_text")) {
    if (Status s = only_keys(entry, {"fixed_text"}, where); !s) return s.error();
    if (!entry.at("fixed_text").is_string()) return (where / "fixed_text").error("must be the name of a text");
    policy.fixed_text = entry.at("fixed_text").get<std::string>();
    return policy;
  }
  if (Status s = only_keys(entry, {"sections", "numbers", "how_to_read", "you_alone", "drop_prohibitions",
                                   "pitfalls_correctness_only", "gate", "fixed_text"},
                           where);
      !s)
    return s.error();
  if (Status s = parse_sections(entry, where, policy.sections); !s) return s.error();
  for (auto [key, flag] : {std::pair{"numbers", &policy.numbers}, std::pair{"how_to_read", &policy.how_to_read},
                           std::pair{"you_alone", &policy.you_alone},
                           std::pair{"drop_prohibitions", &policy.drop_prohibitions},
                           std::pair{"pitfalls_correctness_only", &policy.pitfalls_correctness_only}})
    if (Status s = parse_flag(entry, key, where, *flag); !s) return s.error();
  if (Status s = parse_gate(entry, where, policy.gate); !s) return s.error();
  return policy;
}

bool shows_numbers(Placeholder p) { return p == Placeholder::kSp || p == Placeholder::kYa || p == Placeholder::kV; }

// Every text `policy` renders with exists, uses only the placeholders
// available to it, and shows no number when the policy has numbers off.
Status check_policy_texts(const Pack& pack, const Policy& policy, const Where& where) {
  for (std::string_view base : needed_texts(policy)) {
    std::string name = text_name(pack, policy, base);
    auto text = pack.texts.find(name);
    if (text == pack.texts.end()) return where.error(fmt::format("needs text '{}', which the pack lacks", name));
    if (policy.fixed_text) continue;  // shown verbatim
    std::vector<Placeholder> allowed = placeholders_allowed(base);
    for (const PlaceholderUse& use : placeholders_in(text->second)) {
      if (!use.placeholder || std::find(allowed.begin(), allowed.end(), *use.placeholder) == allowed.end()) {
        std::vector<std::string_view> names;
        for (Placeholder p : allowed) names.push_back(placeholder_name(p));
        return where.error(fmt::format("text '{}' uses {{{}}}, which it cannot hold (it can: {})", name, use.word,
                                       fmt::join(names, ", ")));
      }
      if (!policy.numbers && shows_numbers(*use.placeholder))
        return where.error(fmt::format("numbers is false but text '{}' shows {{{}}}; add a text '{}_no_numbers'", name,
                                       use.word, base));
    }
  }
  return Status::success();
}

Status parse_policies(const Json& doc, const Where& where, Pack& pack) {
  auto object = object_field(doc, "policies", where);
  if (!object) return object.error();
  if ((*object)->empty()) return (where / "policies").error("must name at least one policy");
  for (const auto& [name, entry] : (*object)->items()) {
    Where here = where / "policies" / name;
    auto policy = parse_policy(name, entry, here);
    if (!policy) return policy.error();
    if (Status s = check_policy_texts(pack, *policy, here); !s) return s;
    pack.policies.emplace(name, std::move(*policy));
  }
  return Status::success();
}

}  // namespace

Result<Pack> parse_pack_json(std::string_view text, const std::string& source_name) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return Error(fmt::format("{}: malformed JSON at byte {}: {}", source_name, e.byte, e.what()));
  }
  Where top(source_name, "");
  if (!doc.is_object()) return Error(source_name + ": must be a JSON object");
  if (Status s = only_keys(doc, {"format", "selection", "texts", "policies"}, top); !s)
    return s.error();
  if (!doc.contains("format") || doc.at("format") != kFormat)
    return Error(fmt::format("{}: format: must be \"{}\"", source_name, kFormat));
  Pack pack;
  if (Status s = parse_selection(doc, top, pack.selection); !s) return s.error();
  if (Status s = parse_texts(doc, top, pack.texts); !s) return s.error();
  if (Status s = parse_policies(doc, top, pack); !s) return s.error();
  return pack;
}

}  // namespace kmem

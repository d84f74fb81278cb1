// The single table of the texts rendering uses and what each may hold.
#include "memory/texts.h"

#include <algorithm>

namespace kmem {
namespace {

using P = Placeholder;

struct TextRule {
  std::string_view base;
  std::vector<Placeholder> placeholders;
};

// Every text may also use {cat} (the target's category) and {author}.
const std::vector<TextRule>& text_rules() {
  static const std::vector<TextRule> rules = {
      {"h1", {}},
      {"section_join", {}},
      {"how_header", {}},
      {"how_to_read_gated", {}},
      {"how_to_read_self", {}},
      {"how_to_read_other", {}},
      {"lessons_header", {}},
      {"pitfalls_header", {}},
      {"recipes_header", {}},
      {"bullet", {P::kText}},
      {"recipe_bullet", {P::kSp, P::kName, P::kPid, P::kText}},
      {"recipe_bullet_reader", {P::kSp, P::kName, P::kPid, P::kYa, P::kText}},
      {"kernel_header", {P::kSp, P::kName, P::kPid}},
      {"kernel_header_reader", {P::kSp, P::kName, P::kPid, P::kYa}},
      {"kernel_code", {P::kCode}},
      {"you_alone_own", {P::kV}},
      {"you_alone_est", {P::kV}},
      {"you_alone_unknown", {}},
  };
  return rules;
}

}  // namespace

std::vector<std::string_view> needed_texts(const Policy& policy) {
  if (policy.fixed_text) return {*policy.fixed_text};
  std::vector<std::string_view> names = {"h1", "section_join"};
  if (policy.how_to_read) {
    names.push_back("how_header");
    if (policy.gate != Gate::kNone) {
      names.push_back("how_to_read_gated");
    } else {
      names.push_back("how_to_read_self");
      names.push_back("how_to_read_other");
    }
  }
  if (policy.shows(Section::kLessons)) names.insert(names.end(), {"lessons_header", "bullet"});
  if (policy.shows(Section::kPitfalls)) names.insert(names.end(), {"pitfalls_header", "bullet"});
  if (policy.shows(Section::kRecipes))
    names.insert(names.end(), {"recipes_header", policy.you_alone ? "recipe_bullet_reader" : "recipe_bullet"});
  if (policy.shows(Section::kKernels))
    names.insert(names.end(), {policy.you_alone ? "kernel_header_reader" : "kernel_header", "kernel_code"});
  if (policy.you_alone && (policy.shows(Section::kRecipes) || policy.shows(Section::kKernels)))
    names.insert(names.end(), {"you_alone_own", "you_alone_est", "you_alone_unknown"});
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<Placeholder> placeholders_allowed(std::string_view base) {
  std::vector<Placeholder> allowed = {P::kCat, P::kAuthor};
  for (const TextRule& rule : text_rules())
    if (rule.base == base) allowed.insert(allowed.end(), rule.placeholders.begin(), rule.placeholders.end());
  return allowed;
}

std::string text_name(const Pack& pack, const Policy& policy, std::string_view base) {
  std::string name(base);
  if (!policy.numbers && pack.texts.contains(name + "_no_numbers")) name += "_no_numbers";
  return name;
}

}  // namespace kmem


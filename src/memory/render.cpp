// Rendering (docs/memory.md, "Rendering"): h1, then the non-empty sections
// how-to-read, lessons, pitfalls, recipes, kernel, kernel, joined by the
// pack's section_join, with every number printed as %.2f.
#include <fmt/format.h>

#include "kmem/memory.h"
#include "kmem/template.h"
#include "memory/needed_texts.h"
#include "memory/policy.h"

namespace kmem {
namespace {

std::string number(double v) { return fmt::format("{:.2f}", v); }

class Renderer {
 public:
  Renderer(const Pack& pack, const Policy& policy, const Memory& memory, const Problem& target)
      : pack_(pack), policy_(policy), memory_(memory), target_(target) {}

  const std::string& text(const std::string& key) const { return pack_.texts.at(key); }

  // The template key for a recipe bullet or kernel header, by policy.
  std::string variant(const std::string& base) const {
    if (!policy_.numbers) return base + "_no_numbers";
    return policy_.you_alone ? base + "_reader" : base;
  }

  std::string item_text(const Item& item) const {
    return !policy_.numbers && item.text_no_numbers ? *item.text_no_numbers : item.text;
  }

  std::string you_alone(const memory::ReaderValue& value) const {
    std::string v = number(value.value);
    switch (value.kind) {
      case memory::ReaderValue::Kind::kOwn: return fill(text("you_alone_own"), {{"v", v}});
      case memory::ReaderValue::Kind::kEstimate: return fill(text("you_alone_est"), {{"v", v}});
      case memory::ReaderValue::Kind::kUnknown: break;
    }
    return text("you_alone_unknown");
  }

  std::string how_to_read(const std::string& reader) const {
    std::string key = policy_.gate != Gate::kNone ? "how_to_read_gated"
                      : reader == memory_.author  ? "how_to_read_self"
                                                  : "how_to_read_other";
    auto author = memory_.readers.find(memory_.author);
    std::string display = author == memory_.readers.end() ? memory_.author : author->second.display;
    return text("how_header") + "\n" + fill(text(key), {{"author", display}});
  }

  std::string bullets(const std::string& header, const std::vector<const Item*>& items) const {
    std::string out = fill(text(header), {{"cat", target_.category}});
    for (const Item* item : items) out += "\n" + fill(text("bullet"), {{"text", item_text(*item)}});
    return out;
  }

  std::string recipes(const std::vector<memory::ShownItem>& items) const {
    std::string out =
        fill(text(policy_.numbers ? "recipes_header" : "recipes_header_no_numbers"), {{"cat", target_.category}});
    for (const memory::ShownItem& shown : items)
      out += "\n" + fill(text(variant("recipe_bullet")), values(shown, item_text(*shown.item)));
    return out;
  }

  std::string kernel(const memory::ShownItem& shown) const {
    return fill(text(variant("kernel_header")), values(shown, "")) + "\n" +
           fill(text("kernel_code"), {{"code", shown.item->code}});
  }

 private:
  // The placeholders of a recipe bullet or kernel header. The strings live in
  // the returned object's storage, so callers use it within one expression.
  struct Values {
    std::string sp, name, pid, ya, text, cat;
    operator TemplateValues() const {
      return {{"sp", sp}, {"name", name}, {"pid", pid}, {"ya", ya}, {"text", text}, {"cat", cat}};
    }
  };
  Values values(const memory::ShownItem& shown, std::string item_text) const {
    const Item& item = *shown.item;
    auto source = memory_.problems.find(item.source);
    return Values{number(item.speedup), source == memory_.problems.end() ? item.source : source->second.name,
                  item.source,          policy_.you_alone && policy_.numbers ? you_alone(shown.you_alone) : "",
                  std::move(item_text), target_.category};
  }

  const Pack& pack_;
  const Policy& policy_;
  const Memory& memory_;
  const Problem& target_;
};

}  // namespace

Result<std::string> render(const MemoryIndex& index, const Pack& pack, const Policy& policy, const std::string& reader,
                           const Problem& target) {
  if (auto missing = memory::missing_text(pack, policy))
    return Error(fmt::format("policy {}: the pack has no text '{}'", policy.name, *missing));
  if (policy.fixed_text) return pack.texts.at(*policy.fixed_text);
  const Memory& memory = index.memory();
  memory::Shown shown = memory::apply_policy(index.select(target, pack.selection), policy, memory, reader);
  Renderer r(pack, policy, memory, target);
  std::vector<std::string> sections;
  if (policy.how_to_read) sections.push_back(r.how_to_read(reader));
  if (!shown.lessons.empty()) sections.push_back(r.bullets("lessons_header", shown.lessons));
  if (!shown.pitfalls.empty()) sections.push_back(r.bullets("pitfalls_header", shown.pitfalls));
  if (!shown.recipes.empty()) sections.push_back(r.recipes(shown.recipes));
  for (const memory::ShownItem& kernel : shown.kernels) sections.push_back(r.kernel(kernel));

  const std::string& join = pack.texts.at("section_join");
  std::string out = pack.texts.at("h1");
  for (const std::string& section : sections) out += join + section;
  return out;
}

std::vector<std::string> shown_item_ids(const MemoryIndex& index, const Pack& pack, const Policy& policy,
                                        const std::string& reader, const Problem& target) {
  if (policy.fixed_text) return {};
  memory::Shown shown = memory::apply_policy(index.select(target, pack.selection), policy, index.memory(), reader);
  std::vector<std::string> ids;
  for (const Item* item : shown.lessons) ids.push_back(item->id);
  for (const Item* item : shown.pitfalls) ids.push_back(item->id);
  for (const memory::ShownItem& recipe : shown.recipes) ids.push_back(recipe.item->id);
  for (const memory::ShownItem& kernel : shown.kernels) ids.push_back(kernel.item->id);
  return ids;
}

}  // namespace kmem

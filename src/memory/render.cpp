// Rendering (memory.md "Rendering"): h1, then the non-empty sections
// how-to-read, lessons, pitfalls, recipes, one per kernel, each "header\nbody",
// joined by the pack's section_join; no trailing newline.
#include <cstdio>

#include "kmem/memory.h"
#include "memory/template.h"
#include "memory/texts.h"

namespace kmem {
namespace {

std::string two_decimals(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

// Builds one prompt; holds what every text of it shares.
class Renderer {
 public:
  Renderer(const Policy& policy, const Pack& pack, const Memory& memory, const std::string& reader,
           const std::string& target)
      : policy_(policy), pack_(pack), memory_(memory), reader_(reader) {
    const Problem& problem = memory.problems.at(target);
    base_fill_[index(Placeholder::kCat)] = problem.category;
    base_fill_[index(Placeholder::kAuthor)] = memory.readers.at(memory.author).display;
  }

  std::string run(const Selection& shown) {
    append(text("h1"), base_fill_);
    if (policy_.how_to_read) how_to_read();
    if (!shown.lessons.empty()) bullets("lessons_header", shown.lessons);
    if (!shown.pitfalls.empty()) bullets("pitfalls_header", shown.pitfalls);
    if (!shown.recipes.empty()) recipes(shown.recipes);
    for (const Item* kernel : shown.kernels) this->kernel(*kernel);
    return std::move(out_);
  }

 private:
  static size_t index(Placeholder p) { return static_cast<size_t>(p); }

  const std::string& text(std::string_view base) const {
    return pack_.texts.at(text_name(pack_, policy_, base));
  }
  const std::string& item_text(const Item& item) const {
    return !policy_.numbers && item.text_no_numbers ? *item.text_no_numbers : item.text;
  }
  void append(std::string_view text, const Fill& fill) { expand(text, fill, out_); }
  void start_section(std::string_view header, const Fill& fill) {
    out_ += text("section_join");
    append(text(header), fill);
    out_ += '\n';
  }

  void how_to_read() {
    std::string_view paragraph = policy_.gate != Gate::kNone ? "how_to_read_gated"
                                 : reader_ == memory_.author ? "how_to_read_self"
                                                             : "how_to_read_other";
    start_section("how_header", base_fill_);
    append(text(paragraph), base_fill_);
  }

  void bullets(std::string_view header, const std::vector<const Item*>& items) {
    start_section(header, base_fill_);
    Fill fill = base_fill_;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_ += '\n';
      fill[index(Placeholder::kText)] = item_text(*items[i]);
      append(text("bullet"), fill);
    }
  }

  // Sets {sp} {name} {pid} {ya} of `item` in `fill`; `speedup` and `ya` own
  // the text of the two numbers.
  void fill_source(const Item& item, std::string& speedup, std::string& ya, Fill& fill) const {
    speedup = two_decimals(item.speedup);
    if (policy_.you_alone) ya = you_alone(item.source);
    fill[index(Placeholder::kSp)] = speedup;
    fill[index(Placeholder::kYa)] = ya;
    fill[index(Placeholder::kName)] = memory_.problems.at(item.source).name;
    fill[index(Placeholder::kPid)] = item.source;
  }

  std::string you_alone(const std::string& source) const {
    ReaderValue value = reader_value(memory_, reader_, source);
    if (value.kind == ReaderValue::Kind::kUnknown) return text("you_alone_unknown");
    std::string number = two_decimals(value.value);
    Fill fill = base_fill_;
    fill[index(Placeholder::kV)] = number;
    std::string shown;
    expand(text(value.kind == ReaderValue::Kind::kOwn ? "you_alone_own" : "you_alone_est"), fill, shown);
    return shown;
  }

  void recipes(const std::vector<const Item*>& items) {
    start_section("recipes_header", base_fill_);
    std::string_view bullet = policy_.you_alone ? "recipe_bullet_reader" : "recipe_bullet";
    Fill fill = base_fill_;
    std::string speedup, ya;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_ += '\n';
      fill_source(*items[i], speedup, ya, fill);
      fill[index(Placeholder::kText)] = item_text(*items[i]);
      append(text(bullet), fill);
    }
  }

  void kernel(const Item& item) {
    Fill fill = base_fill_;
    std::string speedup, ya;
    fill_source(item, speedup, ya, fill);
    start_section(policy_.you_alone ? "kernel_header_reader" : "kernel_header", fill);
    Fill code = base_fill_;
    code[index(Placeholder::kCode)] = item.code;
    append(text("kernel_code"), code);
  }

  const Policy& policy_;
  const Pack& pack_;
  const Memory& memory_;
  const std::string& reader_;
  Fill base_fill_{};
  std::string out_;
};

}  // namespace

std::string render(const Selection& shown, const Policy& policy, const Pack& pack, const Memory& memory,
                   const std::string& reader, const std::string& target) {
  if (policy.fixed_text) return pack.texts.at(*policy.fixed_text);
  return Renderer(policy, pack, memory, reader, target).run(shown);
}

}  // namespace kmem

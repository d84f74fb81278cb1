// The memory engine: turns a Memory into the prompt text one reader sees for
// one target problem. Three steps, each a plain value handed to the next:
//   select      the items for the target (the same for every policy),
//   apply_policy  drops items as the policy says (a dropped item is never
//               replaced),
//   render      fills the pack's texts with what is left.
// A Pack (kmem-prompt-pack/1) holds the texts, the selection limits and the
// named policies; policies are data, so adding one needs no recompiling.
// Nothing here opens a file or a database: callers hand in text and values.
// The rules are those of shared/spec/memory.md.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem {

// ---- The prompt pack ------------------------------------------------------

struct SelectionLimits {
  int max_pitfalls = 6;
  int max_recipes = 6;
  int related_kernels = 2;
};

enum class Section { kLessons, kPitfalls, kRecipes, kKernels };

// Which recipes and kernels a gated policy keeps: kSource keeps those whose
// speedup beats the reader's value on their source problem; kSourceAndTarget
// also requires beating the reader's group value of the target.
enum class Gate { kNone, kSource, kSourceAndTarget };

struct Policy {
  std::string name;
  // When set, the whole output is the pack text of this name and the other
  // fields do not apply.
  std::optional<std::string> fixed_text;
  std::vector<Section> sections;
  bool numbers = true;
  bool how_to_read = false;
  bool you_alone = false;
  bool drop_prohibitions = false;
  bool pitfalls_correctness_only = false;
  Gate gate = Gate::kNone;

  bool shows(Section section) const;
};

struct Pack {
  SelectionLimits selection;
  std::map<std::string, std::string> texts;
  std::map<std::string, Policy> policies;
};

// Parses and validates a kmem-prompt-pack/1 document: unknown keys, unknown
// sections, bad gates, unknown placeholders and texts a policy needs but the
// pack lacks are errors naming `source_name` and the entry. In a policy,
// `numbers` defaults to true, the other flags to false and `gate` to null.
Result<Pack> parse_pack_json(std::string_view text, const std::string& source_name);

// ---- Selection ------------------------------------------------------------

// Items chosen for one target, each list in display order. The pointers
// refer into the IndexedMemory they came from and live as long as it.
struct Selection {
  std::vector<const Item*> lessons;
  std::vector<const Item*> pitfalls;
  std::vector<const Item*> recipes;
  std::vector<const Item*> kernels;
};

class IndexedMemory;

// The items for `target` (a problem id of the memory) under the rules of
// memory.md "Selection": the same for every policy.
Result<Selection> select(const IndexedMemory& memory, const SelectionLimits& limits,
                         const std::string& target);

// A Memory with the lookup tables selection needs (items by kind and
// category, pre-sorted; the name tokens of every problem), built once so
// that each selection touches only the items of the target's category.
class IndexedMemory {
 public:
  // Fails when an item refers to a problem the memory lacks, a lesson or
  // pitfall has no order, or the author is not a reader.
  static Result<IndexedMemory> build(Memory memory);

  IndexedMemory(IndexedMemory&&) noexcept;
  IndexedMemory& operator=(IndexedMemory&&) noexcept;
  ~IndexedMemory();

  const Memory& memory() const { return memory_; }

  struct Tables;  // internal to the memory module (src/memory/index.h)

 private:
  IndexedMemory(Memory memory, std::unique_ptr<Tables> tables);
  friend Result<Selection> select(const IndexedMemory&, const SelectionLimits&, const std::string&);

  Memory memory_;
  std::unique_ptr<Tables> tables_;
};

// ---- Policy ---------------------------------------------------------------

// A reader's own result on a problem without memory: the problem value, else
// the group value of the problem's (level, category), else unknown (value 0).
struct ReaderValue {
  enum class Kind { kOwn, kEstimate, kUnknown };
  Kind kind = Kind::kUnknown;
  double value = 0.0;
};
ReaderValue reader_value(const Memory& memory, const std::string& reader, const std::string& problem);

// What `policy` keeps of `selection` for `reader` and `target`: sections it
// does not show are emptied, labelled items and gated recipes and kernels
// dropped. Order is kept; nothing is added.
Selection apply_policy(Selection selection, const Policy& policy, const Memory& memory,
                       const std::string& reader, const std::string& target);

// ---- Rendering ------------------------------------------------------------

// The prompt text for the items `shown` (the output of apply_policy), no
// trailing newline. `policy` must come from `pack` (so its texts exist).
std::string render(const Selection& shown, const Policy& policy, const Pack& pack,
                   const Memory& memory, const std::string& reader, const std::string& target);

// ---- Whole prompts --------------------------------------------------------

// The problems prompts are rendered for: the memory's targets, else all.
std::vector<std::string> target_problems(const Memory& memory);

// One prompt: checks the names (an unknown one gives an error listing the
// valid choices), then select, apply_policy and render.
Result<std::string> render_prompt(const IndexedMemory& memory, const Pack& pack,
                                  const std::string& policy, const std::string& reader,
                                  const std::string& problem);

// Every policy x every reader x every target problem: {policy: {reader: {problem: text}}}.
using PromptTable = std::map<std::string, std::map<std::string, std::map<std::string, std::string>>>;
Result<PromptTable> render_all(const IndexedMemory& memory, const Pack& pack);

}  // namespace kmem

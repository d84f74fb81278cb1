// The memory engine: for a target problem and a reader, select the related
// items of a Memory (identical for every policy), let a policy drop or
// annotate them, and render the prompt text from the prompt pack's templates.
// Policies and texts are data (kmem-prompt-pack/1); this module opens no files.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem {

struct SelectionLimits {
  int max_pitfalls = 6;
  int max_recipes = 6;
  int related_kernels = 2;
};

enum class Gate { kNone, kSource, kSourceAndTarget };

// One policy of the pack: either a fixed text or a filter over the selection.
struct Policy {
  std::string name;
  std::optional<std::string> fixed_text;  // the key of a text in the pack
  bool lessons = false, pitfalls = false, recipes = false, kernels = false;
  bool numbers = true;
  bool how_to_read = false;
  bool you_alone = false;
  bool drop_prohibitions = false;
  bool pitfalls_correctness_only = false;
  Gate gate = Gate::kNone;
  // At most this many learned items (not the seed's) in one text, the most
  // confident kept (more_confident); absent: no cap.
  std::optional<int> max_learned;
};

// A parsed kmem-prompt-pack/1: selection limits, templates and policies,
// and the optional `episode` section: the task, rules and feedback texts of
// an episode (docs/episodes.md), by key; empty when the pack has none.
struct Pack {
  SelectionLimits selection;
  std::map<std::string, std::string> texts;
  std::map<std::string, Policy> policies;
  std::map<std::string, std::string> episode;
  // The optional `learn` section: the texts that ask a model for recipes and
  // pitfalls (docs/learning.md); empty when the pack has none.
  std::map<std::string, std::string> learn;
};

// Parses and validates a kmem-prompt-pack/1 document; errors name
// `source_name` and the offending entry.
Result<Pack> parse_pack_json(std::string_view text, const std::string& source_name);

// The items chosen for one target, in rendering order (pointers into the Memory).
struct Selection {
  const Problem* target = nullptr;
  std::vector<const Item*> lessons;
  std::vector<const Item*> pitfalls;
  std::vector<const Item*> recipes;
  std::vector<const Item*> kernels;
};

// An index over a Memory that makes selection cheap: items grouped by kind and
// category and pre-sorted. Build it once per Memory; it must not outlive it.
class MemoryIndex {
 public:
  explicit MemoryIndex(const Memory& memory);

  const Memory& memory() const { return memory_; }

  // Selects for `target` (which must be a problem of the memory).
  Selection select(const Problem& target, const SelectionLimits& limits) const;

 private:
  struct SourceKernels {
    const std::vector<std::string>* source_tokens = nullptr;  // the source problem's name tokens
    std::vector<const Item*> kernels;                         // by speedup desc
  };
  struct Category {
    std::vector<const Item*> pitfalls;  // by order
    std::vector<const Item*> recipes;   // by speedup desc, then source id desc
    std::map<std::string, SourceKernels> kernels_by_source;
  };
  const Memory& memory_;
  std::vector<const Item*> lessons_;
  std::map<std::string, Category> categories_;
  std::map<std::string, std::vector<std::string>> name_tokens_;  // by problem id
};

// Renders the text a `reader` sees for `target` under `policy`. Fails when the
// pack lacks a template the policy needs.
Result<std::string> render(const MemoryIndex& index, const Pack& pack, const Policy& policy, const std::string& reader,
                           const Problem& target);

// The ids of the items the text render() gives shows, in rendering order
// (none for a fixed-text policy).
std::vector<std::string> shown_item_ids(const MemoryIndex& index, const Pack& pack, const Policy& policy,
                                        const std::string& reader, const Problem& target);

// ---- Confidence and devices (docs/learning.md, "Confidence") -----------------

// Two measurements of a speedup reproduce each other when the larger is at
// most this factor of the smaller.
inline constexpr double kReproductionSpread = 1.5;

// What the store knows of how far to trust an item.
struct ItemConfidence {
  int measurements = 0;       // verified speedups on record (kernels)
  int reproductions = 0;      // those on the latest's device class within kReproductionSpread of it (itself included)
  bool reproduced = false;    // at least two reproductions, one with the reference re-timed in its run
  int readers_measured = 0;   // readers an experiment measured the item's value for
  int readers_helped = 0;     // of those, readers it helped (score difference > 0)
  std::string last_verified;  // the date of the latest measurement (else the provenance's)
  std::string device;         // its GPU model or "cpu" ("": the seed's)
};

ItemConfidence item_confidence(const Item& item);

// Whether `a` ranks before `b`: reproduced first, then more reproductions,
// more readers helped, the newer verification.
bool more_confident(const Item& a, const Item& b);

// The device class of a measurement: "cpu" for "cpu", else "cuda" (a GPU
// model; "" is the seed's, measured on GPUs).
std::string device_class(const std::string& gpu);

// `memory` without the recipes and kernels whose speedup was measured on
// another device class than `device` ("cpu" or "cuda"): a speedup is never
// shown as another device's (docs/memory.md, "Devices").
Memory memory_for_device(const Memory& memory, const std::string& device);

// The problems to render for: the memory's targets, or all its problems.
std::vector<std::string> target_ids(const Memory& memory);

}  // namespace kmem

// The value types of the memory (kmem-memory-store/1): readers, problems,
// verified items and each reader's baseline without memory. Plain data,
// handed from the store to selection and rendering; no behaviour here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kmem {

struct Reader {
  std::string id;
  std::string display;
};

struct Problem {
  std::string id;  // L<level>_<number:03d>
  int level = 0;
  int number = 0;
  std::string name;      // KernelBench file stem without the number
  std::string category;  // matmul, conv, norm, ...
};

enum class ItemKind { kLesson, kPitfall, kRecipe, kKernel };

// Where a verified value came from (docs/learning.md, "Provenance"). The
// seed's items and baselines have origin "seed" and nothing else.
struct Provenance {
  // "seed"; "episode:<experiment>/<reader>/<policy>/<problem>/<sample>";
  // "eval:<results file>#<job id>"; "experiment:<name>" (a baseline);
  // "user" (kmem items add).
  std::string origin = "seed";
  std::string reader;     // the reader whose attempt it was; "" when none
  std::string evaluator;  // the evaluator version (worker code and torch/Triton/CUDA versions)
  std::string gpu;        // the GPU model, or "cpu"
  std::string date;       // when it was verified, UTC, ISO 8601

  bool is_seed() const {
    return origin == "seed" && reader.empty() && evaluator.empty() && gpu.empty() && date.empty();
  }
  bool operator==(const Provenance&) const = default;
};

// Only active items are rendered; learning adds candidates, a user promotes
// or retires them (docs/learning.md, "States").
enum class ItemState { kCandidate, kActive, kRetired };

// One change of an item: a promotion, a retirement, a re-verification.
struct HistoryEntry {
  std::string date;    // UTC, ISO 8601
  std::string action;  // "promote", "retire", "reverify", "ingest", "label"
  std::string reason;
  ItemState from = ItemState::kCandidate, to = ItemState::kCandidate;
  std::optional<double> speedup_before, speedup_after;  // kernels and recipes whose speedup changed

  bool operator==(const HistoryEntry&) const = default;
};

// One verified speedup of a kernel (docs/learning.md, "Confidence"): when,
// on which device and evaluator, and whether the reference was timed afresh
// in the same run (not taken from the cache of reference times).
struct Measurement {
  std::string date;  // UTC, ISO 8601
  double speedup = 0.0;
  std::string gpu;        // the GPU model, or "cpu"
  std::string evaluator;  // the evaluator version
  bool reference_retimed = false;

  bool operator==(const Measurement&) const = default;
};

// What an experiment measured of an item for one reader: over `problems`
// paired problems, the mean score difference shown - not shown.
struct MeasuredValue {
  std::string experiment;
  int problems = 0;
  double difference = 0.0;

  bool operator==(const MeasuredValue&) const = default;
};

struct Item {
  std::string id;
  ItemKind kind = ItemKind::kLesson;
  std::vector<std::string> labels;  // prohibition, correctness, environment
  std::string category;             // empty for lessons
  std::optional<int> order;         // lessons, pitfalls (and recipes, where given)
  std::string source;               // recipes and kernels: the problem id
  double speedup = 0.0;             // recipes and kernels
  std::string text;                 // lessons, pitfalls, recipes
  std::optional<std::string> text_no_numbers;
  std::string code;  // kernels
  ItemState state = ItemState::kActive;
  Provenance provenance;
  std::vector<HistoryEntry> history;            // oldest first
  std::vector<Measurement> measurements;        // kernels: every verified speedup, oldest first
  std::map<std::string, MeasuredValue> values;  // by reader: the item's measured value (kmem ingest EXPERIMENT)

  bool has_label(const std::string& label) const {
    for (const auto& l : labels)
      if (l == label) return true;
    return false;
  }
};

// A reader's mean protected score without memory, per problem and per
// "L<level>|<category>" group.
struct Baseline {
  std::map<std::string, double> problems;
  std::map<std::string, double> groups;
  // Where each problem value came from; a problem without an entry is the seed's.
  std::map<std::string, Provenance> provenance;
};

// One whole memory: what a store file or database holds.
struct Memory {
  std::string author;  // reader id whose verified attempts produced the items
  double score_cap = 10.0;
  std::map<std::string, Reader> readers;
  std::map<std::string, Problem> problems;
  std::optional<std::vector<std::string>> targets;  // all problems when absent
  std::vector<Item> items;                          // in store order
  std::map<std::string, Baseline> baselines;        // by reader id
};

}  // namespace kmem

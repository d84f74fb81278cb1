// Learning: verified outcomes (episodes of experiments, `kmem eval` batches)
// become items, baselines and readers of the memory, each with its
// provenance; items enter as candidates, a user promotes or retires them, and
// re-verification retires what the current evaluator no longer passes. Values
// in, values out: every function here takes a Memory and returns the changed
// one with a report, and never opens a file or a database (the CLI does, in
// one Database::update). The rules are in docs/learning.md. The one rule that
// defines kmem holds throughout: only what the protected evaluator verified
// enters, and every number an item carries comes from the evaluator.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kmem/episode.h"
#include "kmem/eval.h"
#include "kmem/memory.h"
#include "kmem/result.h"
#include "kmem/store.h"
#include "kmem/types.h"

namespace kmem {

// One evaluated candidate, wherever it was evaluated.
struct VerifiedCandidate {
  std::string problem;  // problem id (a problem of the memory)
  std::string code;     // the candidate source
  std::string verdict;  // "pass" or a verdict code
  double speedup = 0.0;
  std::vector<std::string> flags;
  Provenance provenance;
  // Where the measurement came from: the problem file (to measure it again)
  // and whether the reference time was the cache's (unknown counts as cached).
  std::string problem_path;
  bool reference_cached = true;
  // Every measurement of this candidate, oldest first; empty: the one above
  // (speedup, provenance, reference_cached).
  std::vector<Measurement> measurements;
};

// What a learning step did, for the user: item ids added or changed, and why
// anything was left out ("what: why").
struct LearnReport {
  std::vector<std::string> added;
  std::vector<std::string> updated;
  std::vector<std::string> skipped;
  std::vector<std::string> readers;  // readers whose baselines were written
};

struct LearnOptions {
  // Flagged outcomes (implausible_speedup, unsteady_timing, host_bound_timing,
  // negligible_own_work, unsandboxed, ...) enter only when this is set.
  bool promote_flagged = false;
  // A verdict seen in at least this many episodes becomes a lesson.
  int lesson_min_episodes = 2;
  std::string date;  // UTC ISO 8601 of this step (history entries)
};

// ---- Where verified outcomes come from ------------------------------------------

// The source a candidate file holds as the evaluator evaluates it: a `.py`
// file as it is, a reply (any other name) its ```python block (parse_reply).
// A reply without a complete block is an error naming `path`.
Result<std::string> candidate_source(const std::string& path, const std::string& text);

// The candidates of `kmem eval` results (one JSON object per line,
// outcome_json's format). Problem files are matched to the memory's problems
// by level folder and number; a candidate path is absolute (as kmem eval
// writes it), else relative to the working directory or, when no such file
// is there, to `base_dir` (the results file's folder). A reply's candidate is
// its extracted source. Any bad line is an error naming the file and line.
Result<std::vector<VerifiedCandidate>> results_candidates(const std::string& text, const std::string& source_name,
                                                          const std::string& base_dir, const Memory& memory,
                                                          const EvaluatorIdentity& identity, const std::string& date);

// The evaluated candidates of an experiment's episodes (every turn that has
// a candidate), with each episode as its origin.
std::vector<VerifiedCandidate> episode_candidates(const std::vector<LearnedEpisode>& episodes,
                                                  const EvaluatorIdentity& identity, const std::string& date);

// A candidate's speedup is implausible at or above this (or when the
// evaluator flagged it implausible_speedup): with a cached reference time it
// is measured again with the reference re-timed before it may enter.
inline constexpr double kImplausibleSpeedup = 10.0;

// Measures again, through `retiming` (an evaluator that re-times the
// reference: EvalOptions::retime_reference), every passing candidate whose
// speedup is implausible and whose reference time came from the cache; the
// fresh outcome replaces the verdict, speedup and flags, both measurements are
// kept, and the report says what changed. Candidate files go to `work_dir`.
// An evaluator failure is an error.
Result<std::vector<VerifiedCandidate>> recheck_implausible(std::vector<VerifiedCandidate> candidates,
                                                           CandidateEvaluator& retiming, const std::string& work_dir,
                                                           const std::string& date, LearnReport& report);

// ---- Learning steps ----------------------------------------------------------

// Passing candidates become `kernel` items (state candidate) of their
// problem's category: one per source problem, the best verified speedup wins
// (a faster one replaces the stored code and speedup, with a history entry),
// a duplicate by normalised source is left out; failing, slower than eager
// (speedup below 1: a slower attempt, never a kernel to adapt) and (unless
// promote_flagged) flagged candidates never enter. Each item keeps the
// candidate's measurements (confidence).
Result<Memory> learn_kernels(const Memory& memory, const std::vector<VerifiedCandidate>& candidates,
                             const LearnOptions& options, LearnReport& report);

// Each reader's baseline from its `none` episodes: per problem the mean
// score capped at the store's score cap; per (level, category) group the
// mean of its problem values. A reader the store does not know is added.
Result<Memory> learn_baselines(const Memory& memory, const std::vector<LearnedEpisode>& episodes,
                               const EvaluatorIdentity& identity, const std::string& date, LearnReport& report);

// Verdicts that recur in the episodes (options.lesson_min_episodes) become
// lessons with the checker's or evaluator's own message, one per rule;
// a lesson with the same text already stored is not repeated.
Result<Memory> learn_lessons(const Memory& memory, const std::vector<LearnedEpisode>& episodes,
                             const LearnOptions& options, const EvaluatorIdentity& identity, LearnReport& report);

// ---- Recipes and pitfalls, written by a model -------------------------------------

// The number filter: the numbers in `text` (a figure standing alone, such as
// "3", "1.85", "1.85x", "40%"; not digits inside words like fp32 or conv2d)
// that are not among `verified` as printed with %.2f. Empty: the text may
// enter.
std::vector<std::string> unverified_numbers(const std::string& text, const std::vector<double>& verified);

// Asks the model (through `chat`, with the pack's `learn` texts) for a recipe
// for each verified kernel item of `kernel_ids` and a pitfall for each
// category with failed or slower-than-eager attempts in `episodes`. The
// speedup, source and category come from the evaluator's figures; a text
// carrying any other number is refused (reported, not added). Labels follow
// the rule of docs/learning.md ("Labels").
Result<Memory> learn_texts(const Memory& memory, const std::vector<LearnedEpisode>& episodes,
                           const std::vector<std::string>& kernel_ids, const Pack& pack, ChatClient& chat,
                           const LearnOptions& options, LearnReport& report);

// ---- Review ------------------------------------------------------------------

// Moves item `id` to `state` with a reason kept in its history. A kernel
// becomes active only once its speedup is reproduced (item_confidence): a
// one-off measurement, flagged or not, never does.
Result<Memory> set_item_state(const Memory& memory, const std::string& id, ItemState state, const std::string& reason,
                              const std::string& date);

// Replaces the labels of item `id` (prohibition, correctness, environment),
// kept in its history.
Result<Memory> set_item_labels(const Memory& memory, const std::string& id, const std::vector<std::string>& labels,
                               const std::string& reason, const std::string& date);

// ---- Re-verification ----------------------------------------------------------

// Where the problem file of a problem id lies (a KernelBench checkout).
using ProblemPaths = std::map<std::string, std::string>;

// Runs every kernel item that is not retired again through `evaluator`
// (candidate files go to `work_dir`): one that fails, or now runs slower than
// eager, is retired with the verdict; one that passes unflagged gets the new
// speedup as a measurement (a history entry) and the evaluator's identity as
// its provenance; a flagged pass is noted in the history and changes nothing.
// Up to `parallel` candidates are evaluated at once (`evaluator` is then
// called from as many threads).
Result<Memory> reverify_kernels(const Memory& memory, const ProblemPaths& problems, CandidateEvaluator& evaluator,
                                int parallel, const std::string& work_dir, const EvaluatorIdentity& identity,
                                const std::string& date, LearnReport& report);

// ---- Value of items ------------------------------------------------------------

// One item's effect on one reader: over the problems where the reader had
// episodes both showing and not showing it, the mean of (mean score shown -
// mean score not shown).
struct ItemValue {
  std::string item, reader;
  int problems = 0;              // paired problems
  int shown = 0, not_shown = 0;  // episodes
  double difference = 0.0;
};

std::vector<ItemValue> item_values(const std::vector<LearnedEpisode>& episodes);

// Keeps each value on its item (Item::values, by reader, from `experiment`):
// the "readers helped" of item_confidence. Values of items the memory lacks
// and of readers it does not know are left out.
Memory record_item_values(const Memory& memory, const std::vector<ItemValue>& values, const std::string& experiment);

// ---- Confidence -------------------------------------------------------------

// One item's confidence as the experiment report and `kmem items` show it.
struct ItemConfidenceRow {
  std::string item;
  ItemKind kind = ItemKind::kLesson;
  ItemState state = ItemState::kActive;
  double speedup = 0.0;
  ItemConfidence confidence;
};

// Every item of `memory` with its confidence, the most confident first
// (more_confident), ties in store order (the seed's items, which have no
// measurements, last). `values`, when given (an experiment's item_values,
// from `experiment`), count as measured values too.
std::vector<ItemConfidenceRow> items_confidence(const Memory& memory, const std::vector<ItemValue>& values = {},
                                                const std::string& experiment = "");

}  // namespace kmem

// Experiments: the matrix readers x policies x problems x samples of
// episodes (episode.h), run concurrently and written to a kmem database one
// episode per transaction, so a killed run resumes without losing or repeating
// one; and the report that says which memory helps (KernelBench's metrics,
// the paired memory effect with a bootstrap interval). The spec format, the
// tables and the metrics are in docs/experiments.md.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/catalog.h"
#include "kmem/episode.h"
#include "kmem/memory.h"
#include "kmem/result.h"
#include "kmem/store.h"
#include "kmem/types.h"

namespace kmem {

// ---- The spec ------------------------------------------------------------------

struct ReaderSpec {
  std::string id;
  EndpointConfig endpoint;
};

struct ExperimentSpec {
  std::string name;                   // the experiment's id in the database
  std::string kernelbench;            // a KernelBench checkout (made absolute from base_dir)
  std::vector<std::string> problems;  // entries as written: ids, "level<N>", files or folders
  std::vector<ReaderSpec> readers;
  std::vector<std::string> policies;
  int samples = 1;  // episodes per (reader, policy, problem)
  std::string device = "cpu";
  int max_turns = 5;
  int concurrency = 8;    // episodes in flight
  int eval_parallel = 2;  // candidates evaluated at once
  std::string base_dir;   // relative paths of the spec start here
  // The spec as stored: the fields that decide the results (not the
  // endpoint URLs, paths, concurrency, timeouts or record/replay folders),
  // so a rerun against a moved endpoint still resumes the same experiment.
  std::string canonical_json;
};

// Parses a kmem-experiment/1 spec. `format` is "json" or "toml"; relative
// paths are taken from `base_dir`. Errors name `source_name` and the field.
Result<ExperimentSpec> parse_experiment_spec(std::string_view text, const std::string& format,
                                             const std::string& source_name, const std::string& base_dir);
// Reads a spec file; .toml files are TOML, everything else JSON.
Result<ExperimentSpec> load_experiment_spec(const std::string& path);

// A problem of the experiment and the file it is read from.
struct ExperimentProblem {
  Problem problem;
  std::string path;
};

// Resolves the spec's problem entries (docs/experiments.md): sorted by id,
// each once; an entry that names no problem is an error naming it.
Result<std::vector<ExperimentProblem>> resolve_problems(const ExperimentSpec& spec, const CategoryRules& rules);

// ---- Where the episodes to run come from -----------------------------------------

// Hands out the keys of the episodes still to run. Thread-safe. A local
// source walks the matrix; a shared queue on a database server is the next
// implementation, so runners on several machines split one experiment.
class JobSource {
 public:
  virtual ~JobSource() = default;
  // The next episode to run, or nothing when none is left.
  virtual std::optional<EpisodeKey> next() = 0;
  // Episodes this source hands out in all (for progress).
  virtual size_t total() const = 0;
};

// Every key of the matrix (samples x readers x policies x problems, problems
// innermost) not in `done`.
std::unique_ptr<JobSource> make_matrix_source(const ExperimentSpec& spec,
                                              const std::vector<ExperimentProblem>& problems,
                                              const std::set<EpisodeKey>& done);

// ---- The evaluator the episodes share ---------------------------------------------

// A CandidateEvaluator that runs at most `slots` evaluations at once
// across all episodes (the rest wait their turn, first come first served),
// over `inner`, which must be thread-safe.
std::unique_ptr<CandidateEvaluator> make_shared_evaluator(CandidateEvaluator& inner, int slots);

// How long a streaming evaluation waits for more candidates before it starts
// with those handed in (make_streaming_evaluator's default).
inline constexpr double kStreamingGatherS = 0.05;

// A CandidateEvaluator that hands the candidates of concurrent episodes to
// one running evaluation (evaluate_stream, `parallel` candidates at once):
// one reference per problem, timing serialised through one lock, and a
// candidate handed in while others run starts when there is room. The
// evaluation starts with the candidates handed in within `gather_s` of the
// first and ends when none came for `idle_s` (its workers are let go while
// every episode waits for its model; the next candidate starts another).
// Each caller gets its own outcome.
std::unique_ptr<CandidateEvaluator> make_streaming_evaluator(const EvalOptions& options, int parallel,
                                                             double gather_s = kStreamingGatherS, double idle_s = 30);

// ---- Running --------------------------------------------------------------------

struct ExperimentProgress {
  size_t done = 0;     // episodes finished in this run
  size_t total = 0;    // episodes this run has to finish
  size_t correct = 0;  // of those finished in this run
  size_t errors = 0;   // ended by an endpoint or evaluator error
  double elapsed_s = 0;
  // Seconds left at the pace so far; negative until an episode finished.
  double eta_s = -1;
};

struct ExperimentContext {
  const MemoryIndex* memory = nullptr;
  const Pack* pack = nullptr;
  std::map<std::string, ChatClient*> chat;  // by reader id
  CandidateEvaluator* evaluator = nullptr;
  std::string work_dir;  // candidate files go under it
  // Called after each stored episode, from one thread at a time.
  std::function<void(const ExperimentProgress&)> on_progress;
  // Set from another thread (a signal handler's flag) to stop handing out
  // episodes; those in flight finish and are stored.
  const std::atomic<bool>* stop = nullptr;
  // When set, held around storing each episode. Whatever ends the process at
  // once (the CLI's interrupt guard) takes it first and never gives it back,
  // so no episode cut short by that end is stored: it runs again on resume.
  std::mutex* writes = nullptr;
};

// Runs every episode `source` hands out with spec.concurrency in flight and
// stores each (Database::record_episode) as it ends. An episode that fails
// with bad input stops the run with that error; episodes stored so far stay.
Result<ExperimentProgress> run_experiment(const ExperimentSpec& spec, const std::vector<ExperimentProblem>& problems,
                                          JobSource& source, Database& db, const ExperimentContext& context);

// Probes `GET {base_url}/models` within `timeout_s`: an error naming the URL
// when the endpoint does not answer 200.
Status probe_endpoint(const EndpointConfig& endpoint, double timeout_s = 10);

// ---- The report -------------------------------------------------------------------

struct Interval {
  double mean = 0, low = 0, high = 0;
};

struct CellMetrics {
  std::string reader, policy;
  int episodes = 0;
  int problems = 0;
  double correct = 0;  // share of episodes whose SUBMIT passed
  double fast_0 = 0, fast_1 = 0, fast_p = 0;
  // The same against the faster of eager and torch.compile (the eager time
  // alone where the SUBMIT had no compile baseline); `compiled`: the
  // correct episodes that had one.
  double fast_1_best = 0, fast_p_best = 0;
  int compiled = 0;
  double mean_score = 0;
  std::optional<double> geomean_speedup;  // over correct episodes; none when there is none
  Interval score;                         // mean score with a bootstrap interval over problems
  // The paired difference to `none` (same reader): per problem, mean score
  // here minus mean score under none, over problems both have; none when
  // this cell is `none` or no problem is shared.
  std::optional<Interval> effect;
  int paired_problems = 0;
  int errors = 0;      // episodes ended by an endpoint or evaluator error
  double model_s = 0;  // endpoint latency summed over episodes
  double eval_s = 0;   // evaluation time summed over episodes
};

struct CategoryMetrics {
  std::string reader, policy, category;
  int episodes = 0;
  double correct = 0;
  double mean_score = 0;
  std::optional<double> effect;  // mean paired difference to none over the category's problems
};

struct ReportOptions {
  double p = 2.0;          // the threshold of fast_p
  int resamples = 10000;   // bootstrap resamples
  unsigned long seed = 1;  // of the bootstrap
};

struct Report {
  std::string experiment;
  ReportOptions options;
  std::vector<CellMetrics> cells;           // by reader, then policy
  std::vector<CategoryMetrics> categories;  // by reader, policy, category
  // Mean score per (reader, policy, problem): the heatmap's cells.
  std::map<std::string, std::map<std::string, std::map<std::string, double>>> problem_scores;
  std::vector<std::string> problems;  // every problem attempted, sorted
};

// Computes the report over stored episodes.
Report build_report(const std::string& experiment, const std::vector<StoredEpisode>& episodes,
                    const ReportOptions& options);

// A percentile bootstrap 95% interval of the mean of `values`: `resamples`
// resamples with replacement drawn from std::mt19937_64(seed).
Interval bootstrap_mean(const std::vector<double>& values, int resamples, unsigned long seed);

std::string report_text(const Report& report);  // the terminal tables
std::string report_json(const Report& report);  // one JSON object
// One self-contained HTML page: the numbers, three charts drawn by Chart.js,
// whose source (`chart_js`) is inlined, so it opens offline, and, when
// `episodes` are given, the episode viewer (each turn's reply, verdict and
// feedback).
std::string report_html(const Report& report, const std::string& chart_js,
                        const std::vector<EpisodeView>& episodes = {});

}  // namespace kmem

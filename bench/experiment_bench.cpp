// The experiment benchmark (docs/experiments.md, "Numbers"): an experiment
// of many episodes against the scripted endpoint with a fixed latency per
// reply and several episodes in flight; each episode CHECKs a candidate and
// then SUBMITs it. Prints the wall time against the serial sum of model time
// and evaluation time. The evaluator is either a fake with a fixed cost per
// candidate (--eval-cost S) or the real CPU evaluator (--real) on a C++
// load_inline candidate whose build is cached after its first evaluation.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "kmem/experiment.h"
#include "kmem/scripted_endpoint.h"

namespace fs = std::filesystem;
using namespace kmem;

namespace {

const std::string kSource = KMEM_SOURCE_DIR;

// Passes every candidate after a fixed cost, `slots` at a time (the shared evaluator limits them).
class FixedCostEvaluator : public CandidateEvaluator {
 public:
  explicit FixedCostEvaluator(double cost_s) : cost_s_(cost_s) {}
  EvalOutcome evaluate(const EvalJob& job) override {
    std::this_thread::sleep_for(std::chrono::duration<double>(cost_s_));
    EvalOutcome o;
    o.job = job;
    o.verdict = "pass";
    o.reference_ms = 1.0;
    o.candidate_ms = 0.5;
    o.speedup = 2.0;
    o.score = 2.0;
    return o;
  }

 private:
  double cost_s_;
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Experiment benchmark: wall time against the serial sum of model and evaluation time"};
  int episodes = 100, in_flight = 8, slots = 2;
  double latency = 2.0, eval_cost = 0.5;
  bool real = false;
  app.add_option("--episodes", episodes, "episodes (problems x 1 reader x 1 policy)")->capture_default_str();
  app.add_option("--latency", latency, "seconds per endpoint reply")->capture_default_str();
  app.add_option("--in-flight", in_flight, "episodes in flight")->capture_default_str();
  app.add_option("--slots", slots, "evaluations at once")->capture_default_str();
  app.add_option("--eval-cost", eval_cost, "seconds per evaluation of the fake evaluator")->capture_default_str();
  app.add_flag("--real", real, "the real CPU evaluator (streaming) on a cached C++ load_inline candidate");
  CLI11_PARSE(app, argc, argv);

  fs::path dir = fs::temp_directory_path() / ("kmem-experiment-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string problem_path = kSource + "/tests/hacks/problems/add_relu.py";
  const std::string code = read(kSource + "/tests/hacks/cpu/honest_add_relu.py");
  Script script;
  script.mode = "turns";
  script.latency_s = latency;
  for (const char* action : {"CHECK", "SUBMIT"}) {
    ScriptedReply r;
    r.content = "```python\n" + code + "```\nACTION: " + action + "\n";
    script.replies.push_back(r);
  }
  auto endpoint = ScriptedEndpoint::start(std::move(script));
  if (!endpoint) return std::cerr << endpoint.error().message() << "\n", 2;

  ExperimentSpec spec;
  spec.name = "bench";
  spec.policies = {"none"};
  spec.max_turns = 2;
  spec.concurrency = in_flight;
  ReaderSpec reader;
  reader.id = "scripted";
  reader.endpoint.base_url = (*endpoint)->base_url();
  reader.endpoint.model = "scripted";
  reader.endpoint.timeout_s = latency + 30;
  spec.readers = {reader};
  std::vector<ExperimentProblem> problems;
  for (int n = 1; n <= episodes; ++n)
    problems.push_back({Problem{fmt::format("L1_{:03}", n), 1, n, "add_relu", "elementwise"}, problem_path});

  auto memory = load_memory(kSource + "/data/seed/memory-store.json");
  auto pack = parse_pack_json(read(kSource + "/data/seed/prompt-pack.json"), "prompt-pack.json");
  if (!memory || !pack) return std::cerr << "cannot load the seed memory or pack\n", 2;
  MemoryIndex index(*memory);
  auto db = Database::open((dir / "bench.db").string());
  if (!db || !db->begin_experiment(spec.name, "{}")) return std::cerr << "cannot open the database\n", 2;

  EvalOptions options;
  options.device = "cpu";
  options.python = default_python();
  options.python_dir = kSource + "/python";
  options.cache_dir = default_cache_dir();
  FixedCostEvaluator fake(eval_cost);
  std::unique_ptr<CandidateEvaluator> shared =
      real ? make_streaming_evaluator(options, slots) : make_shared_evaluator(fake, slots);
  auto chat = make_chat_client(spec.readers[0].endpoint);
  if (!chat) return std::cerr << chat.error().message() << "\n", 2;

  ExperimentContext context;
  context.memory = &index;
  context.pack = &*pack;
  context.chat["scripted"] = chat->get();
  context.evaluator = shared.get();
  context.work_dir = (dir / "work").string();
  context.on_progress = [](const ExperimentProgress& p) {
    std::cerr << fmt::format("\r{}/{} episodes, {:.0f} s", p.done, p.total, p.elapsed_s) << std::flush;
  };
  auto source = make_matrix_source(spec, problems, {});
  auto started = std::chrono::steady_clock::now();
  auto result = run_experiment(spec, problems, *source, *db, context);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "\n";
  if (!result) return std::cerr << result.error().message() << "\n", 2;
  auto stored = db->experiment_episodes(spec.name);
  double model_s = 0, eval_s = 0;
  int correct = 0, turns = 0;
  for (const auto& e : *stored) {
    model_s += e.model_s;
    eval_s += e.eval_s;
    correct += e.correct ? 1 : 0;
    turns += e.turns;
  }
  std::cout << fmt::format(
      "episodes {} ({} correct, {} turns), {} in flight, {} s per reply, evaluator: {} with {} slots\n"
      "wall {:.1f} s; serial sum {:.1f} s = model {:.1f} s + evaluation {:.1f} s; overlap {:.1f}x\n",
      stored->size(), correct, turns, in_flight, latency,
      real ? "real CPU (streaming)" : fmt::format("fake, {} s each", eval_cost), slots, wall, model_s + eval_s, model_s,
      eval_s, (model_s + eval_s) / wall);
  fs::remove_all(dir);
  return 0;
}

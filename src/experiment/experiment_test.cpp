// Tests of experiments: the spec (JSON and TOML, refusals naming the field),
// problem entries, and runs against the scripted endpoint with a fake
// evaluator: concurrent episodes keep their own turns, endpoint faults end
// an episode and never the run, a stopped run resumes without losing or
// repeating an episode, and the store refuses a changed spec.
#include "kmem/experiment.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include "kmem/scripted_endpoint.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kData = KMEM_TEST_DATA_DIR;
const std::string kKernelBench = std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench";

const char* kSpec = R"({
  "format": "kmem-experiment/1", "name": "t1", "kernelbench": "kb",
  "problems": ["L1_019", "level2"],
  "readers": [{"id": "a", "endpoint": "http://127.0.0.1:1/v1", "model": "m", "temperature": 0.5, "seed": 3}],
  "policies": ["none", "show_all"], "samples": 2, "max_turns": 3, "concurrency": 4
})";

const char* kToml = R"(format = "kmem-experiment/1"
name = "t1"
kernelbench = "kb"
problems = ["L1_019", "level2"]
policies = ["none", "show_all"]
samples = 2
max_turns = 3
concurrency = 16

[[readers]]
id = "a"
endpoint = "http://127.0.0.1:9/v1"
model = "m"
temperature = 0.5
seed = 3
)";

TEST(Spec, JsonAndTomlGiveTheSameExperiment) {
  auto json = parse_experiment_spec(kSpec, "json", "s.json", "/base");
  ASSERT_TRUE(json) << json.error().message();
  EXPECT_EQ(json->kernelbench, "/base/kb");
  EXPECT_EQ(json->readers[0].endpoint.seed, 3);
  EXPECT_DOUBLE_EQ(json->readers[0].endpoint.temperature, 0.5);
  EXPECT_EQ(json->samples, 2);
  auto toml = parse_experiment_spec(kToml, "toml", "s.toml", "/base");
  ASSERT_TRUE(toml) << toml.error().message();
  // Endpoint URL and concurrency differ; neither decides the results.
  EXPECT_EQ(json->canonical_json, toml->canonical_json);
  EXPECT_EQ(toml->concurrency, 16);
}

TEST(Spec, BadInputIsAnErrorNamingTheField) {
  auto with = [](const std::string& from, const std::string& to) {
    std::string text = kSpec;
    text.replace(text.find(from), from.size(), to);
    auto spec = parse_experiment_spec(text, "json", "s.json", "/base");
    return spec ? std::string("ok") : spec.error().message();
  };
  EXPECT_EQ(with("\"samples\": 2", "\"samples\": 0"), "s.json: field 'samples' must be an integer from 1 to 100000");
  EXPECT_EQ(with("\"samples\": 2", "\"sample\": 2").rfind("s.json: unknown field 'sample' (expected ", 0), 0u);
  EXPECT_EQ(with("\"model\": \"m\",", ""), "s.json: readers[0]: missing field 'model'");
  EXPECT_EQ(with("\"max_turns\": 3", "\"device\": \"tpu\""), "s.json: field 'device' must be \"cpu\" or \"cuda\"");
  EXPECT_EQ(with("[\"none\", \"show_all\"]", "[\"none\", \"none\"]"), "s.json: field 'policies' names 'none' twice");
  auto toml = parse_experiment_spec("name = = 1", "toml", "s.toml", "/");
  ASSERT_FALSE(toml);
  EXPECT_EQ(toml.error().message().rfind("s.toml:1:", 0), 0u) << toml.error().message();
}

CategoryRules rules() {
  auto r = CategoryRules::load(kData + "/categories.json");
  EXPECT_TRUE(r) << r.error().message();
  return *r;
}

TEST(Spec, ProblemEntries) {
  ExperimentSpec spec;
  spec.kernelbench = kKernelBench;
  spec.base_dir = kKernelBench;
  spec.problems = {"L1_019", "level2", "level1/8_Matmul_with_irregular_shapes_.py", "L1_019"};
  auto problems = resolve_problems(spec, rules());
  ASSERT_TRUE(problems) << problems.error().message();
  std::vector<std::string> ids;
  for (const auto& p : *problems) ids.push_back(p.problem.id);
  EXPECT_EQ(ids.front(), "L1_008");
  EXPECT_EQ(ids[1], "L1_019");
  EXPECT_EQ(std::count_if(ids.begin(), ids.end(), [](auto& id) { return id.starts_with("L2_"); }),
            static_cast<long>(ids.size()) - 2);
  spec.problems = {"L1_999"};
  auto missing = resolve_problems(spec, rules());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message().rfind("problem 'L1_999': ", 0), 0u) << missing.error().message();
  spec.problems = {"nothing-here"};
  EXPECT_EQ(resolve_problems(spec, rules()).error().message().rfind("problem 'nothing-here': not a problem id", 0), 0u);
}

// Passes every candidate with the speedup its marker "# speedup: X" names,
// after `cost`; remembers which problem file each candidate came with.
class FakeEvaluator : public CandidateEvaluator {
 public:
  explicit FakeEvaluator(double cost_s = 0) : cost_s_(cost_s) {}
  EvalOutcome evaluate(const EvalJob& job) override {
    std::ifstream in(job.candidate);
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    std::string source = text.str();
    EvalOutcome o;
    o.job = job;
    o.verdict = "pass";
    double speedup = 1.0;
    static const std::regex marker(R"(# speedup: ([\d.]+) tag: (\w+))");
    if (std::regex_search(source, m, marker)) speedup = std::stod(m[1].str());
    o.reference_ms = 2.0;
    o.candidate_ms = 2.0 / speedup;
    o.speedup = speedup;
    o.score = std::min(speedup, kScoreCap);
    if (cost_s_ > 0) std::this_thread::sleep_for(std::chrono::duration<double>(cost_s_));
    std::lock_guard lock(mutex_);
    seen.emplace_back(job.problem, m.size() > 2 ? m[2].str() : "");
    return o;
  }
  std::mutex mutex_;
  std::vector<std::pair<std::string, std::string>> seen;  // (problem file, candidate's tag)

 private:
  double cost_s_;
};

std::string candidate(double speedup, const std::string& tag, const std::string& action) {
  return "Here it is.\n```python\nimport torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
         "    def __init__(self):\n        super().__init__()\n\n"
         "    def forward(self, x):\n        return torch.relu(x)  # speedup: " +
         std::to_string(speedup) + " tag: " + tag + "\n```\nACTION: " + action + "\n";
}

ScriptedReply reply(std::string content, std::string when, std::string fault = "") {
  ScriptedReply r;
  r.content = std::move(content);
  r.when = std::move(when);
  r.fault = std::move(fault);
  return r;
}

class RunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kmem-experiment-test-" + std::to_string(::getpid()));
    fs::create_directories(dir / "kb" / "level1");
    auto loaded = load_memory(kData + "/seed/memory-store.json");
    ASSERT_TRUE(loaded) << loaded.error().message();
    memory = std::make_unique<Memory>(std::move(*loaded));
    index = std::make_unique<MemoryIndex>(*memory);
    std::ifstream in(kData + "/seed/prompt-pack.json");
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = parse_pack_json(text.str(), "prompt-pack.json");
    ASSERT_TRUE(parsed) << parsed.error().message();
    pack = *parsed;
    // Problems whose sources carry a tag the scripted replies are chosen by.
    for (int n = 1; n <= kProblems; ++n) {
      std::ofstream(dir / "kb" / "level1" / (std::to_string(n) + "_Relu_" + tag(n) + ".py"))
          << "import torch\nimport torch.nn as nn\n# problem tag: " << tag(n)
          << "\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n\n\n"
             "def get_inputs():\n    return [torch.randn(4)]\n\n\ndef get_init_inputs():\n    return []\n";
    }
    spec.name = "run";
    spec.kernelbench = (dir / "kb").string();
    spec.base_dir = dir.string();
    spec.problems = {"level1"};
    spec.policies = {"none", "show_all"};
    spec.samples = 2;
    spec.max_turns = 3;
    spec.concurrency = 8;
    ReaderSpec reader;
    reader.id = "reader-a";
    reader.endpoint.model = "scripted";
    reader.endpoint.retries = 0;
    reader.endpoint.timeout_s = 10;
    spec.readers = {reader};
    spec.canonical_json = R"({"name":"run"})";
    auto resolved = resolve_problems(spec, rules());
    ASSERT_TRUE(resolved) << resolved.error().message();
    problems = *resolved;
    ASSERT_EQ(problems.size(), static_cast<size_t>(kProblems));
    auto opened = Database::open((dir / "kmem.db").string());
    ASSERT_TRUE(opened) << opened.error().message();
    db = std::make_unique<Database>(std::move(*opened));
    ASSERT_TRUE(db->begin_experiment(spec.name, spec.canonical_json));
  }
  void TearDown() override { fs::remove_all(dir); }

  static std::string tag(int n) { return "P" + std::to_string(n); }

  // Each problem: a CHECK, then a SUBMIT at speedup 1 + n/10, tagged with the problem.
  Script tagged_script(double latency_s) {
    Script script;
    script.mode = "turns";
    script.latency_s = latency_s;
    for (int n = 1; n <= kProblems; ++n) {
      std::string when = "problem tag: " + tag(n);
      script.replies.push_back(reply(candidate(1.0, tag(n), "CHECK"), when));
      script.replies.push_back(reply(candidate(1.0 + n / 10.0, tag(n), "SUBMIT"), when));
    }
    return script;
  }

  Result<ExperimentProgress> run(ScriptedEndpoint& endpoint, CandidateEvaluator& evaluator,
                                 const std::atomic<bool>* stop = nullptr,
                                 std::function<void(const ExperimentProgress&)> on_progress = nullptr) {
    spec.readers[0].endpoint.base_url = endpoint.base_url();
    auto chat = make_chat_client(spec.readers[0].endpoint);
    EXPECT_TRUE(chat);
    auto done = db->recorded_episodes(spec.name);
    EXPECT_TRUE(done);
    auto source = make_matrix_source(spec, problems, *done);
    ExperimentContext context;
    context.memory = index.get();
    context.pack = &pack;
    context.chat["reader-a"] = chat->get();
    context.evaluator = &evaluator;
    context.work_dir = (dir / "work").string();
    context.stop = stop;
    context.on_progress = std::move(on_progress);
    return run_experiment(spec, problems, *source, *db, context);
  }

  static constexpr int kProblems = 6;
  fs::path dir;
  std::unique_ptr<Memory> memory;
  std::unique_ptr<MemoryIndex> index;
  Pack pack;
  ExperimentSpec spec;
  std::vector<ExperimentProblem> problems;
  std::unique_ptr<Database> db;
};

TEST_F(RunTest, ConcurrentEpisodesKeepTheirOwnTurns) {
  auto endpoint = ScriptedEndpoint::start(tagged_script(0.05));
  ASSERT_TRUE(endpoint) << endpoint.error().message();
  FakeEvaluator fake(0.02);
  auto shared = make_shared_evaluator(fake, 3);
  auto progress = run(**endpoint, *shared);
  ASSERT_TRUE(progress) << progress.error().message();
  const size_t total = 2 * 2 * kProblems;
  EXPECT_EQ(progress->done, total);
  EXPECT_EQ(progress->correct, total);
  auto episodes = db->experiment_episodes(spec.name);
  ASSERT_TRUE(episodes);
  ASSERT_EQ(episodes->size(), total);
  for (const StoredEpisode& e : *episodes) {
    int n = std::stoi(e.key.problem.substr(3));
    EXPECT_EQ(e.end, "submitted") << e.key.problem << ": " << e.error;
    EXPECT_TRUE(e.correct);
    EXPECT_NEAR(e.speedup, 1.0 + n / 10.0, 1e-9) << e.key.problem;  // its own problem's SUBMIT
    EXPECT_EQ(e.turns, 2);
  }
  ASSERT_EQ(fake.seen.size(), 2 * total);
  for (const auto& [problem, candidate_tag] : fake.seen)
    EXPECT_NE(problem.find("_Relu_" + candidate_tag + ".py"), std::string::npos) << problem << " got " << candidate_tag;
}

TEST_F(RunTest, EndpointFaultsEndTheEpisodeNotTheRun) {
  Script script = tagged_script(0);
  // Problem 2's first reply is a server error, problem 3's malformed JSON, problem 4's empty choices.
  script.replies[2].fault = "http_500";
  script.replies[4].fault = "malformed_json";
  script.replies[6].fault = "empty_choices";
  auto endpoint = ScriptedEndpoint::start(std::move(script));
  ASSERT_TRUE(endpoint) << endpoint.error().message();
  FakeEvaluator fake;
  auto progress = run(**endpoint, fake);
  ASSERT_TRUE(progress) << progress.error().message();
  auto episodes = db->experiment_episodes(spec.name);
  ASSERT_TRUE(episodes);
  ASSERT_EQ(episodes->size(), 2u * 2 * kProblems);
  int errors = 0;
  for (const StoredEpisode& e : *episodes) {
    int n = std::stoi(e.key.problem.substr(3));
    if (n >= 2 && n <= 4) {
      ++errors;
      EXPECT_EQ(e.end, "endpoint_error") << e.key.problem;
      EXPECT_FALSE(e.error.empty());
      EXPECT_EQ(e.score, 0.0);
    } else {
      EXPECT_EQ(e.end, "submitted") << e.key.problem << ": " << e.error;
    }
  }
  EXPECT_EQ(errors, 3 * 2 * 2);
  EXPECT_EQ(progress->errors, static_cast<size_t>(errors));
}

TEST_F(RunTest, AStoppedRunResumesWithoutLossOrRepeat) {
  auto endpoint = ScriptedEndpoint::start(tagged_script(0.02));
  ASSERT_TRUE(endpoint);
  FakeEvaluator fake;
  std::atomic<bool> stop{false};
  auto first = run(**endpoint, fake, &stop, [&](const ExperimentProgress& p) {
    if (p.done >= 5) stop = true;
  });
  ASSERT_TRUE(first) << first.error().message();
  const size_t total = 2 * 2 * kProblems;
  EXPECT_GE(first->done, 5u);
  EXPECT_LT(first->done, total);
  auto after_first = db->recorded_episodes(spec.name);
  ASSERT_TRUE(after_first);
  EXPECT_EQ(after_first->size(), first->done);

  auto second = run(**endpoint, fake);
  ASSERT_TRUE(second) << second.error().message();
  EXPECT_EQ(second->total, total - first->done);  // only what was left
  EXPECT_EQ(second->done, total - first->done);
  auto all = db->recorded_episodes(spec.name);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), total);
  auto third = run(**endpoint, fake);
  ASSERT_TRUE(third);
  EXPECT_EQ(third->total, 0u);
}

TEST_F(RunTest, StoreKeepsTheFirstEpisodeOfAKeyAndTheSpecOfAName) {
  EpisodeOutcome o;
  o.end = "submitted";
  Problem p{"L1_001", 1, 1, "x", "relu"};
  EpisodeKey key{"reader-a", "none", "L1_001", 0};
  auto first = db->record_episode(spec.name, key, p, o);
  ASSERT_TRUE(first) << first.error().message();
  EXPECT_TRUE(*first);
  o.score = 5;
  auto again = db->record_episode(spec.name, key, p, o);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(db->experiment_episodes(spec.name)->at(0).score, 0.0);
  Status changed = db->begin_experiment(spec.name, R"({"name":"other"})");
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().message().find("experiment 'run' already exists with a different spec"), std::string::npos);
}

TEST(Probe, UnreachableEndpointIsAnErrorNamingIt) {
  EndpointConfig config;
  config.base_url = "http://127.0.0.1:1/v1";
  Status s = probe_endpoint(config, 2);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message().rfind("endpoint http://127.0.0.1:1/v1/models: unreachable", 0), 0u)
      << s.error().message();
}

}  // namespace
}  // namespace kmem

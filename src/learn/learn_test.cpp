// Tests of learning: an experiment against the scripted endpoint (with a fake
// evaluator) yields the expected kernel items, lessons and a new reader's
// baselines, which render once promoted; a rejected hack and flagged
// outcomes never enter; the number filter; recipes and pitfalls written by
// the scripted endpoint; review states; re-verification with a fake
// evaluator; item values; bad input and concurrent ingests through
// Database::update.
#include "kmem/learn.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "kmem/experiment.h"
#include "kmem/limits.h"
#include "kmem/scripted_endpoint.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kData = KMEM_TEST_DATA_DIR;
const std::string kKernelBench = std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench";
const EvaluatorIdentity kIdentity{"sha256:test", "cpu"};
const std::string kDate = "2026-12-04T09:00:00Z";

Memory seed() {
  auto m = load_memory(kData + "/seed/memory-store.json");
  EXPECT_TRUE(m) << m.error().message();
  return *m;
}

Pack seed_pack() {
  std::ifstream in(kData + "/seed/prompt-pack.json");
  std::stringstream text;
  text << in.rdbuf();
  auto pack = parse_pack_json(text.str(), "prompt-pack.json");
  EXPECT_TRUE(pack) << pack.error().message();
  return *pack;
}

const Item* find(const Memory& m, const std::string& id) {
  for (const Item& item : m.items)
    if (item.id == id) return &item;
  return nullptr;
}

// Gives each candidate the verdict, speedup and flags its marker names:
// "# verdict: V speedup: S flags: F" (F: "-" or comma-separated).
class FakeEvaluator : public CandidateEvaluator {
 public:
  EvalOutcome evaluate(const EvalJob& job) override {
    std::ifstream in(job.candidate);
    std::stringstream text;
    text << in.rdbuf();
    std::string source = text.str();
    static const std::regex marker(R"(# verdict: (\w+) speedup: ([\d.e+]+) flags: ([\w,-]+))");
    std::smatch m;
    EvalOutcome o;
    o.job = job;
    o.verdict = "pass";
    o.speedup = 1.0;
    if (std::regex_search(source, m, marker)) {
      o.verdict = m[1].str();
      o.speedup = std::stod(m[2].str());
      if (m[3].str() != "-") {
        std::stringstream flags(m[3].str());
        for (std::string f; std::getline(flags, f, ',');) o.flags.push_back(f);
      }
    }
    o.message = o.verdict == "pass" ? "" : "the reported time is impossible";
    if (o.verdict != "pass") o.speedup = 0;
    o.score = o.verdict == "pass" ? std::min(o.speedup, kScoreCap) : 0;
    std::lock_guard lock(mutex_);
    ++calls;
    return o;
  }
  std::mutex mutex_;
  int calls = 0;
};

std::string reply(const std::string& body, const std::string& action) {
  return "```python\nimport torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n" +
         body + "        return torch.relu(x)\n```\nACTION: " + action + "\n";
}

std::string marked(const std::string& verdict, const std::string& speedup, const std::string& flags) {
  return "        # verdict: " + verdict + " speedup: " + speedup + " flags: " + flags + "\n";
}

ScriptedReply scripted(std::string content, std::string when) {
  ScriptedReply r;
  r.content = std::move(content);
  r.when = std::move(when);
  return r;
}

// Runs the experiment "learn": reader "new-reader" (unknown to the seed),
// policies none and show_all, on L1_008 (passes at 2.5x), L1_019 (a hack the
// evaluator rejects) and L2_028 (a flagged, implausible speedup). Every first
// reply is CHECKed and refused by the checker.
class LearnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kmem-learn-test-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    memory = seed();
    pack = seed_pack();
    auto opened = Database::open((dir / "kmem.db").string());
    ASSERT_TRUE(opened) << opened.error().message();
    db = std::make_unique<Database>(std::move(*opened));
    ASSERT_TRUE(db->replace(memory));
  }
  void TearDown() override { fs::remove_all(dir); }

  std::vector<LearnedEpisode> run_experiment_once() {
    Script script;
    script.mode = "turns";
    auto add = [&](const std::string& id, const std::string& check_body, const std::string& submit_marker) {
      std::string when = "KernelBench problem " + id + ",";
      script.replies.push_back(scripted(reply(check_body, "CHECK"), when));
      script.replies.push_back(scripted(reply(submit_marker, "SUBMIT"), when));
    };
    add("L1_008", "        m = self\n        m.alpha = 1\n", marked("pass", "2.5", "-"));
    add("L1_019", "        m = self\n        m.beta = 1\n", marked("forged_timing", "0", "-"));
    add("L2_028", "        m = self\n        m.alpha = 1\n", marked("pass", "1e6", "implausible_speedup"));
    auto endpoint = ScriptedEndpoint::start(script);
    EXPECT_TRUE(endpoint) << endpoint.error().message();

    ExperimentSpec spec;
    spec.name = "learn";
    spec.kernelbench = kKernelBench;
    spec.base_dir = kKernelBench;
    spec.problems = {"L1_008", "L1_019", "L2_028"};
    spec.policies = {"none", "show_all"};
    spec.max_turns = 2;
    spec.concurrency = 4;
    ReaderSpec reader;
    reader.id = "new-reader";
    reader.endpoint.model = "scripted";
    reader.endpoint.retries = 0;
    reader.endpoint.base_url = (*endpoint)->base_url();
    spec.readers = {reader};
    spec.canonical_json = R"({"name":"learn"})";
    auto rules = CategoryRules::load(kData + "/categories.json");
    EXPECT_TRUE(rules);
    auto problems = resolve_problems(spec, *rules);
    EXPECT_TRUE(problems) << problems.error().message();
    // The problems the store lacks, as `kmem problems import` adds them.
    std::vector<Problem> catalogue;
    for (const auto& p : *problems) catalogue.push_back(p.problem);
    EXPECT_TRUE(db->upsert_problems(catalogue));
    EXPECT_TRUE(db->begin_experiment(spec.name, spec.canonical_json));
    auto chat = make_chat_client(reader.endpoint);
    EXPECT_TRUE(chat);
    MemoryIndex index(memory);
    ExperimentContext context;
    context.memory = &index;
    context.pack = &pack;
    context.chat["new-reader"] = chat->get();
    context.evaluator = &evaluator;
    context.work_dir = (dir / "work").string();
    auto source = make_matrix_source(spec, *problems, {});
    auto progress = run_experiment(spec, *problems, *source, *db, context);
    EXPECT_TRUE(progress) << progress.error().message();
    EXPECT_EQ(progress->done, 6u);
    auto episodes = db->learning_episodes("learn");
    EXPECT_TRUE(episodes) << episodes.error().message();
    return *episodes;
  }

  // What `kmem ingest EXPERIMENT` does, in one transaction.
  Status ingest(const std::vector<LearnedEpisode>& episodes, LearnReport& report, LearnOptions options = {}) {
    options.date = kDate;
    return db->update([&](const Memory& before) -> Result<Memory> {
      report = LearnReport{};
      auto m = learn_kernels(before, episode_candidates(episodes, kIdentity, kDate), options, report);
      if (m) m = learn_baselines(*m, episodes, kIdentity, kDate, report);
      if (m) m = learn_lessons(*m, episodes, options, kIdentity, report);
      return m;
    });
  }

  fs::path dir;
  Memory memory;
  Pack pack;
  FakeEvaluator evaluator;
  std::unique_ptr<Database> db;
};

TEST_F(LearnTest, AnExperimentYieldsKernelsLessonsAndANewReadersBaselines) {
  auto episodes = run_experiment_once();
  ASSERT_EQ(episodes.size(), 6u);
  LearnReport report;
  ASSERT_TRUE(ingest(episodes, report));
  auto stored = db->read();
  ASSERT_TRUE(stored) << stored.error().message();
  const Memory& m = *stored;

  // One kernel: L1_008's; the rejected hack and the flagged speedup stay out.
  const Item* kernel = find(m, "kernel:L1_008");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->state, ItemState::kCandidate);
  EXPECT_EQ(kernel->category, "matmul");
  EXPECT_EQ(kernel->speedup, 2.5);
  EXPECT_NE(kernel->code.find("class ModelNew"), std::string::npos);
  EXPECT_EQ(kernel->provenance.origin, "episode:learn/new-reader/none/L1_008/0");
  EXPECT_EQ(kernel->provenance.reader, "new-reader");
  EXPECT_EQ(kernel->provenance.evaluator, "sha256:test");
  EXPECT_EQ(find(m, "kernel:L1_019"), nullptr);
  EXPECT_EQ(find(m, "kernel:L2_028"), nullptr);
  int kernels = 0;
  for (const Item& item : m.items) kernels += item.kind == ItemKind::kKernel && !item.provenance.is_seed();
  EXPECT_EQ(kernels, 1);
  std::string skipped;
  for (const auto& s : report.skipped) skipped += s + "\n";
  EXPECT_NE(skipped.find("verdict forged_timing"), std::string::npos) << skipped;
  EXPECT_NE(skipped.find("flagged implausible_speedup"), std::string::npos) << skipped;

  // One lesson for the rule, naming both targets; the seed items are untouched.
  const Item* lesson = find(m, "lesson:foreign_attribute_assignment");
  ASSERT_NE(lesson, nullptr);
  EXPECT_EQ(lesson->text, "Checker rule: assignment to attribute 'm.alpha', 'm.beta' is not allowed (only self.<x>)");
  EXPECT_EQ(lesson->labels, std::vector<std::string>{"environment"});
  int lessons = 0;
  for (const Item& item : m.items) lessons += item.kind == ItemKind::kLesson;
  EXPECT_EQ(lessons, 16);  // the seed's 14, this one and the evaluator's
  ASSERT_NE(find(m, "lesson:forged_timing"), nullptr);
  EXPECT_EQ(find(m, "lesson:forged_timing")->text, "Evaluator: the reported time is impossible");

  // The new reader and its baselines from the none episodes, capped.
  ASSERT_TRUE(m.readers.contains("new-reader"));
  const Baseline& b = m.baselines.at("new-reader");
  EXPECT_EQ(b.problems.at("L1_008"), 2.5);
  EXPECT_EQ(b.problems.at("L1_019"), 0.0);
  EXPECT_EQ(b.problems.at("L2_028"), m.score_cap);
  EXPECT_EQ(b.groups.at("L1|matmul"), 2.5);
  EXPECT_EQ(b.groups.at("L2|norm"), m.score_cap);
  EXPECT_EQ(b.provenance.at("L1_008").origin, "experiment:learn");
  // Seed provenance stays "seed".
  EXPECT_TRUE(find(m, "lesson:00")->provenance.is_seed());

  // Ingesting again adds nothing: the kernel is known, the lesson too.
  LearnReport again;
  ASSERT_TRUE(ingest(episodes, again));
  EXPECT_TRUE(again.added.empty());
  auto twice = db->read();
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->items.size(), m.items.size());
}

TEST_F(LearnTest, RenderingShowsOnlyActiveItems) {
  auto episodes = run_experiment_once();
  LearnReport report;
  ASSERT_TRUE(ingest(episodes, report));
  auto shows = [&](const std::string& id) {
    auto m = db->read();
    EXPECT_TRUE(m);
    MemoryIndex index(*m);
    const Policy& policy = pack.policies.at("show_all");
    for (const auto& [pid, problem] : m->problems)
      for (const auto& shown : shown_item_ids(index, pack, policy, "new-reader", problem))
        if (shown == id) {
          auto text = render(index, pack, policy, "new-reader", problem);
          EXPECT_TRUE(text);
          return *text;
        }
    return std::string();
  };
  EXPECT_EQ(shows("kernel:L1_008"), "");
  EXPECT_EQ(shows("lesson:foreign_attribute_assignment"), "");
  // One measurement is no reproduced speedup: the kernel cannot be promoted
  // until it is measured again with the reference re-timed.
  Status once = db->update(
      [&](const Memory& m) { return set_item_state(m, "kernel:L1_008", ItemState::kActive, "reviewed", kDate); });
  ASSERT_FALSE(once);
  EXPECT_NE(once.error().message().find("not reproduced"), std::string::npos) << once.error().message();
  FakeEvaluator again;  // 2.5x again, the reference re-timed (not from the cache)
  ProblemPaths paths{{"L1_008", "/kb/L1_008.py"}};
  LearnReport reverified;
  ASSERT_TRUE(db->update([&](const Memory& m) {
    return reverify_kernels(m, paths, again, 1, (dir / "reverify").string(), kIdentity, kDate, reverified);
  }));
  for (const char* id : {"kernel:L1_008", "lesson:foreign_attribute_assignment"})
    ASSERT_TRUE(
        db->update([&](const Memory& m) { return set_item_state(m, id, ItemState::kActive, "reviewed", kDate); }));
  std::string with_lesson = shows("lesson:foreign_attribute_assignment");
  EXPECT_NE(with_lesson.find("'m.alpha', 'm.beta'"), std::string::npos);
  std::string with_kernel = shows("kernel:L1_008");
  EXPECT_NE(with_kernel.find("2.50"), std::string::npos) << with_kernel;
  EXPECT_NE(with_kernel.find("# verdict: pass speedup: 2.5"), std::string::npos);
  // Retired, it is gone again, and the history says why.
  ASSERT_TRUE(db->update([&](const Memory& m) {
    return set_item_state(m, "kernel:L1_008", ItemState::kRetired, "wrong on a new GPU", kDate);
  }));
  EXPECT_EQ(shows("kernel:L1_008"), "");
  auto m = db->read();
  ASSERT_TRUE(m);
  const Item* kernel = find(*m, "kernel:L1_008");
  ASSERT_EQ(kernel->history.size(), 4u);  // ingest, reverify, promote, retire
  EXPECT_EQ(kernel->history[3].reason, "wrong on a new GPU");
  EXPECT_EQ(kernel->history[3].from, ItemState::kActive);
}

TEST_F(LearnTest, ItemValuesArePairedDifferencesPerReader) {
  auto make = [](std::string reader, std::string problem, double score, std::vector<std::string> shown) {
    LearnedEpisode e;
    e.episode.key = EpisodeKey{reader, shown.empty() ? "none" : "show_all", problem, 0};
    e.episode.score = score;
    e.episode.end = "submitted";
    e.shown_item_ids = std::move(shown);
    return e;
  };
  std::vector<LearnedEpisode> episodes = {make("a", "P1", 1.0, {}),    make("a", "P1", 3.0, {"x"}),
                                          make("a", "P2", 2.0, {}),    make("a", "P2", 1.0, {"x"}),
                                          make("a", "P3", 5.0, {"x"}),  // no episode without x: not paired
                                          make("b", "P1", 1.0, {}),    make("b", "P1", 1.0, {"y"})};
  auto values = item_values(episodes);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0].item, "x");
  EXPECT_EQ(values[0].reader, "a");
  EXPECT_EQ(values[0].problems, 2);
  EXPECT_EQ(values[0].shown, 3);
  EXPECT_DOUBLE_EQ(values[0].difference, ((3.0 - 1.0) + (1.0 - 2.0)) / 2);
  EXPECT_EQ(values[1].item, "y");
  EXPECT_DOUBLE_EQ(values[1].difference, 0.0);
}

TEST(Kernels, TheBestVerifiedSpeedupWinsAndDuplicatesAreLeftOut) {
  Memory m = seed();
  auto candidate = [](double speedup, std::string code, std::vector<std::string> flags = {}) {
    return VerifiedCandidate{"L1_008", std::move(code), "pass", speedup, std::move(flags), Provenance{"eval:r#1"}};
  };
  std::string code = "class ModelNew:\n    pass\n";
  LearnReport report;
  LearnOptions options;
  auto first = learn_kernels(m,
                             {candidate(1.5, code), candidate(2.0, "# faster\n" + code + "x = 1\n"),
                              candidate(3.0e5, "y = 2\n", {"implausible_speedup"})},
                             options, report);
  ASSERT_TRUE(first);
  const Item* k = find(*first, "kernel:L1_008");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->speedup, 2.0);
  // The same source (comments and blank lines aside) is a duplicate.
  LearnReport dup;
  auto second = learn_kernels(*first, {candidate(5.0, "\n# another comment\n" + code + "x = 1   \n")}, options, dup);
  ASSERT_TRUE(second);
  EXPECT_TRUE(dup.added.empty() && dup.updated.empty());
  // A faster one replaces a candidate in place, with history.
  LearnReport faster;
  auto third = learn_kernels(*first, {candidate(4.0, "z = 3\n")}, options, faster);
  ASSERT_TRUE(third);
  EXPECT_EQ(faster.updated, std::vector<std::string>{"kernel:L1_008"});
  EXPECT_EQ(find(*third, "kernel:L1_008")->speedup, 4.0);
  EXPECT_EQ(find(*third, "kernel:L1_008")->history.back().speedup_before, 2.0);
  // A slower one does not enter; a flagged huge speedup enters only when promoted.
  LearnReport slower;
  ASSERT_TRUE(learn_kernels(*third, {candidate(3.0, "w = 4\n")}, options, slower));
  EXPECT_TRUE(slower.added.empty() && slower.updated.empty());
  options.promote_flagged = true;
  LearnReport promoted;
  auto fourth = learn_kernels(*third, {candidate(3.0e5, "y = 2\n", {"implausible_speedup"})}, options, promoted);
  ASSERT_TRUE(fourth);
  EXPECT_EQ(find(*fourth, "kernel:L1_008")->speedup, 3.0e5);
  // Beyond the store's limit a flagged speedup stays out even when promoted, with a reason.
  LearnReport beyond;
  ASSERT_TRUE(learn_kernels(*third, {candidate(limits::kMaxSpeedup * 1e3, "u = 6\n", {"implausible_speedup"})}, options,
                            beyond));
  EXPECT_TRUE(beyond.added.empty() && beyond.updated.empty());
  ASSERT_EQ(beyond.skipped.size(), 1u);
  EXPECT_NE(beyond.skipped[0].find("speedup"), std::string::npos) << beyond.skipped[0];
  // A non-finite speedup is no verified figure.
  LearnReport inf;
  ASSERT_TRUE(learn_kernels(m, {candidate(std::numeric_limits<double>::infinity(), "v = 5\n")}, options, inf));
  EXPECT_TRUE(inf.added.empty());
}

TEST(Numbers, OnlyVerifiedFiguresMayStand) {
  EXPECT_TRUE(unverified_numbers("Use fp32, conv2d and a 2D grid with int64 offsets; L1_019.", {}).empty());
  EXPECT_TRUE(unverified_numbers("It ran 2.50x faster.", {2.5}).empty());
  EXPECT_EQ(unverified_numbers("It ran 2.5x faster with 128 threads, 40% less.", {2.5}),
            (std::vector<std::string>{"2.5x", "128", "40%"}));
  EXPECT_EQ(unverified_numbers("3x3 stencils, 7 times", {}), std::vector<std::string>{"7"});
}

TEST_F(LearnTest, RecipesAndPitfallsAreWrittenByTheEndpointAndNumbersRefused) {
  Script script;
  script.mode = "sequence";
  script.replies = {
      scripted("Keep the GEMM in cuBLAS and fuse the epilogue.\nLABELS: prohibition", "L1_008"),
      scripted("Tile by 128 rows for a 3.1x gain.", "L2_028"),
      scripted("Never drop a term of the reference.\nLABELS:", "category matmul"),
  };
  auto endpoint = ScriptedEndpoint::start(script);
  ASSERT_TRUE(endpoint);
  EndpointConfig config;
  config.base_url = (*endpoint)->base_url();
  config.model = "writer";
  config.retries = 0;
  auto chat = make_chat_client(config);
  ASSERT_TRUE(chat);
  Memory m = memory;
  LearnReport added;
  auto with_kernels = learn_kernels(m,
                                    {VerifiedCandidate{"L1_008", "a = 1\n", "pass", 2.5, {}, Provenance{"eval:r#1"}},
                                     VerifiedCandidate{"L2_028", "b = 2\n", "pass", 1.7, {}, Provenance{"eval:r#2"}}},
                                    {}, added);
  ASSERT_TRUE(with_kernels);
  LearnedEpisode failed;
  failed.experiment = "x";
  failed.episode.key = EpisodeKey{"r", "none", "L1_008", 0};
  failed.episode.category = "matmul";
  failed.turns = {
      StoredTurn{1, "SUBMIT", "output_mismatch", "evaluator", "values beyond atol/rtol", "", "c = 3", 0, {}}};
  LearnReport report;
  auto out = learn_texts(*with_kernels, {failed}, {"kernel:L1_008", "kernel:L2_028"}, pack, **chat, {}, report);
  ASSERT_TRUE(out) << out.error().message();
  const Item* recipe = find(*out, "recipe:matmul:L1_008");
  ASSERT_NE(recipe, nullptr);
  EXPECT_EQ(recipe->text, "Keep the GEMM in cuBLAS and fuse the epilogue.");
  EXPECT_EQ(recipe->speedup, 2.5);
  EXPECT_EQ(recipe->source, "L1_008");
  EXPECT_EQ(recipe->labels, std::vector<std::string>{"prohibition"});
  EXPECT_EQ(recipe->state, ItemState::kCandidate);
  EXPECT_EQ(find(*out, "recipe:norm:L2_028"), nullptr);  // refused: 128 and 3.1x are no verified figures
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_NE(report.skipped[0].find("128, 3.1x"), std::string::npos) << report.skipped[0];
  const Item* pitfall = find(*out, "pitfall:matmul:learned");
  ASSERT_NE(pitfall, nullptr);
  EXPECT_EQ(pitfall->text, "Never drop a term of the reference.");
  EXPECT_TRUE(pitfall->labels.empty());  // the model's LABELS line, empty, decides
  // The prompts are the pack's, with the evaluator's figures.
  auto requests = (*endpoint)->requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(requests[0].body.find("KernelBench problem L1_008"), std::string::npos);
  EXPECT_NE(requests[2].body.find("L1_008: output_mismatch"), std::string::npos);
  // The labels rule without a LABELS line: correctness when every attempt failed on correctness.
  EXPECT_TRUE(set_item_labels(*out, pitfall->id, {"correctness"}, "user", kDate));
}

TEST(Reverify, FailingKernelsAreRetiredAndSpeedupsUpdatedWithHistory) {
  Memory m = seed();
  std::vector<std::string> kernels;
  for (Item& item : m.items)
    if (item.kind == ItemKind::kKernel) kernels.push_back(item.id);
  ASSERT_GE(kernels.size(), 2u);
  // The fake fails the first kernel and passes the others at 1.25x (called
  // from several threads at once below).
  class Judge : public CandidateEvaluator {
   public:
    explicit Judge(std::string failing) : failing_(std::move(failing)) {}
    EvalOutcome evaluate(const EvalJob& job) override {
      EvalOutcome o;
      o.job = job;
      o.verdict = job.id == failing_ ? "output_mismatch" : "pass";
      o.message = job.id == failing_ ? "values beyond atol/rtol" : "";
      o.speedup = job.id == failing_ ? 0 : 1.25;
      ++calls;
      return o;
    }
    std::string failing_;
    std::atomic<int> calls = 0;
  } judge(kernels[0]);
  ProblemPaths paths;
  for (const auto& [id, p] : m.problems) paths[id] = "/kb/" + id + ".py";
  fs::path work = fs::temp_directory_path() / ("kmem-reverify-" + std::to_string(::getpid()));
  LearnReport report;
  auto out = reverify_kernels(m, paths, judge, 1, work.string(), EvaluatorIdentity{"v2", "NVIDIA H200"}, kDate, report);
  ASSERT_TRUE(out) << out.error().message();
  EXPECT_EQ(judge.calls, static_cast<int>(kernels.size()));
  // Evaluated four at a time, the changes and the report are the same, in store order.
  LearnReport at_once;
  auto parallel =
      reverify_kernels(m, paths, judge, 4, work.string(), EvaluatorIdentity{"v2", "NVIDIA H200"}, kDate, at_once);
  fs::remove_all(work);
  ASSERT_TRUE(parallel) << parallel.error().message();
  EXPECT_EQ(judge.calls, 2 * static_cast<int>(kernels.size()));
  EXPECT_EQ(memory_to_json(*parallel), memory_to_json(*out));
  EXPECT_EQ(at_once.updated, report.updated);
  const Item* failed = find(*out, kernels[0]);
  EXPECT_EQ(failed->state, ItemState::kRetired);
  EXPECT_NE(failed->history.back().reason.find("output_mismatch"), std::string::npos);
  const Item* passed = find(*out, kernels[1]);
  EXPECT_EQ(passed->state, ItemState::kActive);
  EXPECT_EQ(passed->speedup, 1.25);
  EXPECT_EQ(passed->history.back().speedup_after, 1.25);
  EXPECT_EQ(passed->history.back().speedup_before, find(m, kernels[1])->speedup);
  EXPECT_EQ(passed->provenance.gpu, "NVIDIA H200");
  // A problem without a file is skipped, neither retired nor changed.
  LearnReport none;
  auto skipped = reverify_kernels(m, {}, judge, 4, work.string(), kIdentity, kDate, none);
  ASSERT_TRUE(skipped);
  EXPECT_EQ(memory_to_json(*skipped), memory_to_json(m));
  EXPECT_TRUE(none.updated.empty());
  EXPECT_EQ(none.skipped.size(), kernels.size());
}

TEST_F(LearnTest, BadResultsLeaveTheStoreUnchanged) {
  std::string before = memory_to_json(*db->read());
  fs::create_directories(dir / "kb" / "level1");
  std::ofstream(dir / "good.py") << "class ModelNew: pass\n";
  std::string good =
      R"({"id":"j1","problem":"kb/level1/8_Matmul_with_irregular_shapes_.py","candidate":"good.py","verdict":"pass","speedup":2.0,"flags":[]})";
  for (
      const std::string& bad :
      {good + "\n{not json\n", good + "\n{\"id\":\"j2\"}\n",
       good + "\n" +
           R"({"id":"j3","problem":"kb/level1/8_M.py","candidate":"missing.py","verdict":"pass","speedup":2.0,"flags":[]})"
           "\n",
       std::string(
           R"({"id":"j4","problem":"kb/level9/1_X.py","candidate":"good.py","verdict":"pass","speedup":2.0,"flags":[]})")}) {
    LearnReport report;
    Status s = db->update([&](const Memory& m) -> Result<Memory> {
      auto candidates = results_candidates(bad, "r.jsonl", dir.string(), m, kIdentity, kDate);
      if (!candidates) return candidates.error();
      return learn_kernels(m, *candidates, {}, report);
    });
    ASSERT_FALSE(s) << bad;
    EXPECT_NE(s.error().message().find("r.jsonl:"), std::string::npos) << s.error().message();
    EXPECT_EQ(memory_to_json(*db->read()), before);
  }
  // The good line alone enters.
  LearnReport report;
  ASSERT_TRUE(db->update([&](const Memory& m) -> Result<Memory> {
    auto candidates = results_candidates(good, "r.jsonl", dir.string(), m, kIdentity, kDate);
    if (!candidates) return candidates.error();
    return learn_kernels(m, *candidates, {}, report);
  }));
  EXPECT_EQ(report.added, std::vector<std::string>{"kernel:L1_008"});
  EXPECT_EQ(find(*db->read(), "kernel:L1_008")->provenance.origin, "eval:r.jsonl#j1");
}

TEST_F(LearnTest, ConcurrentIngestsBothLand) {
  // Two connections (as two processes would) add different kernels at once.
  auto ingest_one = [&](const std::string& problem, std::string code) {
    auto own = Database::open((dir / "kmem.db").string());
    ASSERT_TRUE(own) << own.error().message();
    LearnReport report;
    Status s = own->update([&](const Memory& m) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // both hold a snapshot at once if unlocked
      return learn_kernels(m, {VerifiedCandidate{problem, code, "pass", 2.0, {}, Provenance{"eval:r#" + problem}}}, {},
                           report);
    });
    EXPECT_TRUE(s) << s.error().message();
  };
  std::thread a(ingest_one, "L1_008", "a = 1\n");
  std::thread b(ingest_one, "L2_028", "b = 1\n");
  a.join();
  b.join();
  auto m = db->read();
  ASSERT_TRUE(m);
  EXPECT_NE(find(*m, "kernel:L1_008"), nullptr);
  EXPECT_NE(find(*m, "kernel:L2_028"), nullptr);
}

// ---- Issue 27: what enters the memory is true ------------------------------------

VerifiedCandidate passing(const std::string& problem, double speedup, std::string code,
                          std::vector<std::string> flags = {}) {
  return VerifiedCandidate{problem, std::move(code),  "pass",
                           speedup, std::move(flags), Provenance{"eval:r#" + problem, "", "sha256:test", "cpu", kDate}};
}

TEST(Kernels, SlowerThanEagerIsNoKernelToAdapt) {
  LearnReport report;
  auto out =
      learn_kernels(seed(), {passing("L1_008", 0.04, "a = 1\n"), passing("L2_028", 0.19, "b = 1\n")}, {}, report);
  ASSERT_TRUE(out);
  EXPECT_TRUE(report.added.empty());
  ASSERT_EQ(report.skipped.size(), 2u);
  EXPECT_NE(report.skipped[0].find("slower than eager (0.04x on cpu)"), std::string::npos) << report.skipped[0];
  // At 1x or more it enters, with the device it was measured on.
  LearnReport faster;
  auto kept = learn_kernels(seed(), {passing("L1_008", 1.3, "a = 1\n")}, {}, faster);
  ASSERT_TRUE(kept);
  const Item* k = find(*kept, "kernel:L1_008");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->provenance.gpu, "cpu");
  ASSERT_EQ(k->measurements.size(), 1u);
  EXPECT_EQ(k->measurements[0].speedup, 1.3);
  EXPECT_FALSE(k->measurements[0].reference_retimed);  // unknown counts as cached
}

TEST(Kernels, AOneOffMeasurementNeverBecomesActiveEvenWhenFlaggedAndPromoted) {
  LearnOptions options;
  options.promote_flagged = true;
  LearnReport report;
  auto out = learn_kernels(seed(), {passing("L1_008", 8.99, "a = 1\n", {"unsteady_timing"})}, options, report);
  ASSERT_TRUE(out);
  ASSERT_EQ(report.added, std::vector<std::string>{"kernel:L1_008"});
  auto promoted = set_item_state(*out, "kernel:L1_008", ItemState::kActive, "looks good", kDate);
  ASSERT_FALSE(promoted);
  EXPECT_NE(promoted.error().message().find("not reproduced (1 measurement"), std::string::npos)
      << promoted.error().message();
  // Two measurements within the spread, one with the reference re-timed: reproduced.
  Memory m = *out;
  for (Item& item : m.items)
    if (item.id == "kernel:L1_008") item.measurements.push_back(Measurement{kDate, 7.1, "cpu", "sha256:test", true});
  EXPECT_TRUE(item_confidence(*find(m, "kernel:L1_008")).reproduced);
  EXPECT_TRUE(set_item_state(m, "kernel:L1_008", ItemState::kActive, "reproduced", kDate));
  // Beyond the spread (8.99x then 0.37x): not reproduced.
  for (Item& item : m.items)
    if (item.id == "kernel:L1_008") item.measurements.back().speedup = 0.37;
  ItemConfidence c = item_confidence(*find(m, "kernel:L1_008"));
  EXPECT_FALSE(c.reproduced);
  EXPECT_EQ(c.reproductions, 1);
  EXPECT_EQ(c.measurements, 2);
}

// Answers every job at a fixed speedup with the reference re-timed.
class Retiming : public CandidateEvaluator {
 public:
  explicit Retiming(double speedup) : speedup_(speedup) {}
  EvalOutcome evaluate(const EvalJob& job) override {
    jobs.push_back(job);
    EvalOutcome o;
    o.job = job;
    o.verdict = "pass";
    o.speedup = speedup_;
    o.reference_cached = false;
    return o;
  }
  double speedup_;
  std::vector<EvalJob> jobs;
};

TEST(Recheck, AnImplausibleSpeedupOnACachedReferenceIsMeasuredAgain) {
  fs::path work = fs::temp_directory_path() / ("kmem-recheck-" + std::to_string(::getpid()));
  VerifiedCandidate wrong = passing("L1_008", 15.0, "a = 1\n");  // a wrong cached reference time
  wrong.problem_path = "/kb/level1/8_M.py";
  VerifiedCandidate plain = passing("L2_028", 2.0, "b = 1\n");  // plausible: not measured again
  Retiming fresh(0.37);
  LearnReport report;
  auto checked = recheck_implausible({wrong, plain}, fresh, work.string(), kDate, report);
  ASSERT_TRUE(checked) << checked.error().message();
  ASSERT_EQ(fresh.jobs.size(), 1u);
  EXPECT_EQ(fresh.jobs[0].problem, "/kb/level1/8_M.py");
  EXPECT_EQ((*checked)[0].speedup, 0.37);
  EXPECT_EQ((*checked)[0].measurements.size(), 2u);
  EXPECT_EQ((*checked)[1].speedup, 2.0);
  ASSERT_EQ(report.updated.size(), 1u);
  EXPECT_NE(report.updated[0].find("15.00x against the cached reference time, 0.37x with the reference re-timed"),
            std::string::npos)
      << report.updated[0];
  LearnReport learned;
  auto out = learn_kernels(seed(), *checked, {}, learned);
  ASSERT_TRUE(out);
  EXPECT_EQ(learned.added, std::vector<std::string>{"kernel:L2_028"});  // 0.37x is slower than eager
  // Confirmed by the fresh reference (12x, then 11x): it enters reproduced.
  VerifiedCandidate real = passing("L1_008", 12.0, "c = 1\n");
  real.problem_path = "/kb/level1/8_M.py";
  Retiming close(11.0);
  LearnReport again;
  auto confirmed = recheck_implausible({real}, close, work.string(), kDate, again);
  fs::remove_all(work);
  ASSERT_TRUE(confirmed);
  LearnReport entered;
  auto with = learn_kernels(seed(), *confirmed, {}, entered);
  ASSERT_TRUE(with);
  EXPECT_TRUE(item_confidence(*find(*with, "kernel:L1_008")).reproduced);
}

TEST_F(LearnTest, ResultsReadAsEvalWroteThemAndRepliesStoredAsTheirSource) {
  // kmem eval writes absolute paths; a reply's candidate is its python block.
  fs::create_directories(dir / "kb" / "level1");
  std::ofstream(dir / "reply.md")
      << "Here is my kernel.\n\n```python\nclass ModelNew:\n    pass\n```\nACTION: SUBMIT\n";
  std::string line = R"({"id":"j1","problem":")" + (dir / "kb/level1/8_Matmul_with_irregular_shapes_.py").string() +
                     R"(","candidate":")" + (dir / "reply.md").string() +
                     R"(","verdict":"pass","speedup":2.0,"flags":[],"reference_cached":false})";
  fs::create_directories(dir / "elsewhere");
  auto candidates = results_candidates(line + "\n", "r.jsonl", (dir / "elsewhere").string(), memory, kIdentity, kDate);
  ASSERT_TRUE(candidates) << candidates.error().message();
  ASSERT_EQ(candidates->size(), 1u);
  EXPECT_EQ((*candidates)[0].code, "class ModelNew:\n    pass\n");
  EXPECT_FALSE((*candidates)[0].reference_cached);
  // An older file's relative path is the working directory's.
  fs::path cwd = fs::current_path();
  fs::current_path(dir);
  std::string old =
      R"({"id":"j1","problem":"kb/level1/8_Matmul_with_irregular_shapes_.py","candidate":"reply.md","verdict":"pass","speedup":2.0,"flags":[]})";
  auto relative = results_candidates(old + "\n", "r.jsonl", (dir / "elsewhere").string(), memory, kIdentity, kDate);
  fs::current_path(cwd);
  ASSERT_TRUE(relative) << relative.error().message();
  EXPECT_EQ((*relative)[0].code, "class ModelNew:\n    pass\n");
  // A reply without a python block is an error naming the line.
  std::ofstream(dir / "prose.md") << "no code here\n";
  std::string prose = R"({"id":"j2","problem":"kb/level1/8_M.py","candidate":")" + (dir / "prose.md").string() +
                      R"(","verdict":"pass","speedup":2.0,"flags":[]})";
  auto refused = results_candidates(prose + "\n", "r.jsonl", dir.string(), memory, kIdentity, kDate);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("r.jsonl:1: candidate"), std::string::npos) << refused.error().message();
}

TEST(Confidence, RenderShowsTheMostConfidentLearnedItemsAndNeverAnotherDevicesSpeedup) {
  Memory m = seed();
  Pack pack = seed_pack();
  auto add = [&](const std::string& id, const std::string& source, double speedup, std::vector<Measurement> ms,
                 const std::string& gpu) {
    Item k;
    k.id = id;
    k.kind = ItemKind::kKernel;
    k.category = m.problems.at(source).category;
    k.source = source;
    k.speedup = speedup;
    k.code = "# " + id + "\n";
    k.provenance = Provenance{"user:" + id, "", "sha256:test", gpu, kDate};
    k.measurements = std::move(ms);
    m.items.push_back(std::move(k));
  };
  // Two learned GPU kernels of L1_012's category (matmul), one reproduced;
  // and a CPU kernel.
  add("kernel:L1_008", "L1_008", 3.0, {{"2026-12-01T00:00:00Z", 3.0, "NVIDIA H200", "v", false}}, "NVIDIA H200");
  add("kernel:L1_008:2", "L1_008", 2.0,
      {{"2026-12-01T00:00:00Z", 2.1, "NVIDIA H200", "v", false},
       {"2026-12-02T00:00:00Z", 2.0, "NVIDIA H200", "v", true}},
      "NVIDIA H200");
  add("kernel:L1_008:3", "L1_008", 9.0, {{"2026-12-03T00:00:00Z", 9.0, "cpu", "v", true}}, "cpu");
  ASSERT_TRUE(validate_memory(m, "test"));
  auto rows = items_confidence(m);
  EXPECT_EQ(rows[0].item, "kernel:L1_008:2");
  EXPECT_TRUE(rows[0].confidence.reproduced);
  EXPECT_EQ(rows[0].confidence.device, "NVIDIA H200");
  EXPECT_EQ(rows[0].confidence.last_verified, "2026-12-02T00:00:00Z");

  Policy capped = pack.policies.at("show_all");
  capped.max_learned = 1;
  const Memory gpu = memory_for_device(m, "cuda");
  MemoryIndex index(gpu);
  std::vector<std::string> shown = shown_item_ids(index, pack, capped, "claude-opus-4-8", m.problems.at("L1_012"));
  EXPECT_NE(std::find(shown.begin(), shown.end(), "kernel:L1_008:2"), shown.end());
  EXPECT_EQ(std::find(shown.begin(), shown.end(), "kernel:L1_008"), shown.end());    // capped: less confident
  EXPECT_EQ(std::find(shown.begin(), shown.end(), "kernel:L1_008:3"), shown.end());  // the CPU's speedup
  const Memory cpu = memory_for_device(m, "cpu");
  MemoryIndex cpu_index(cpu);
  std::vector<std::string> on_cpu =
      shown_item_ids(cpu_index, pack, pack.policies.at("show_all"), "claude-opus-4-8", m.problems.at("L1_012"));
  EXPECT_NE(std::find(on_cpu.begin(), on_cpu.end(), "kernel:L1_008:3"), on_cpu.end());
  for (const std::string& id : on_cpu) {  // no seed recipe or kernel: they were measured on GPUs
    const Item* item = find(m, id);
    if (item->kind == ItemKind::kKernel || item->kind == ItemKind::kRecipe)
      EXPECT_EQ(item->provenance.gpu, "cpu") << id;
  }
  // The seed's own texts are unchanged by a cap: it applies to learned items only.
  Memory plain = seed();
  MemoryIndex seed_index(plain);
  const Problem& target = plain.problems.at("L2_006");
  EXPECT_EQ(*render(seed_index, pack, capped, "claude-opus-4-8", target),
            *render(seed_index, pack, pack.policies.at("show_all"), "claude-opus-4-8", target));
}

TEST_F(LearnTest, AnExperimentsItemValuesAreKeptOnItsItems) {
  auto episodes = run_experiment_once();
  std::vector<ItemValue> values = item_values(episodes);
  ASSERT_FALSE(values.empty());
  Memory known = memory;
  for (const ItemValue& v : values) known.readers[v.reader] = Reader{v.reader, v.reader};
  Memory kept = record_item_values(known, values, "learn");
  const Item* item = find(kept, values[0].item);
  ASSERT_NE(item, nullptr);
  ASSERT_TRUE(item->values.contains(values[0].reader));
  EXPECT_EQ(item->values.at(values[0].reader).experiment, "learn");
  EXPECT_EQ(item->values.at(values[0].reader).difference, values[0].difference);
  // The report's table: every item with its confidence, values included.
  auto rows = items_confidence(memory, values, "learn");
  EXPECT_EQ(rows.size(), memory.items.size());
  int measured = 0;
  for (const auto& row : rows) measured += row.confidence.readers_measured;
  EXPECT_EQ(measured, static_cast<int>(values.size()));
  // Kept through the database.
  ASSERT_TRUE(db->replace(kept));
  auto back = db->read();
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), memory_to_json(kept));
}

}  // namespace
}  // namespace kmem

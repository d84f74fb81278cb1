// Tests of the episode loop against the scripted endpoint with a fake
// evaluator (milliseconds): the CHECK/SUBMIT protocol, feedback from the
// seed pack's texts, the rules for a reply without action, a checker
// rejection, an endpoint fault and an exhausted budget, scoring, the memory
// text and its item ids, and record then replay giving the same episode.
#include "kmem/episode.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "episode/feedback.h"
#include "kmem/scripted_endpoint.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kData = KMEM_TEST_DATA_DIR;
const std::string kProblemFile = std::string(KMEM_EVAL_TESTS_DIR) + "/problems/scale_add.py";

// Decides by a marker in the candidate, "# fake: <verdict> [speedup]".
class FakeEvaluator : public CandidateEvaluator {
 public:
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
    static const std::regex marker(R"(# fake: (\w+)(?: ([\d.]+))?)");
    if (std::regex_search(source, m, marker)) {
      o.verdict = m[1].str();
      if (m[2].matched) speedup = std::stod(m[2].str());
    }
    o.message = o.verdict == "pass" ? "" : "message of " + o.verdict;
    if (o.verdict == "pass") {
      o.reference_ms = 2.0;
      o.candidate_ms = 2.0 / speedup;
      o.speedup = speedup;
      o.score = std::min(speedup, kScoreCap);
    }
    if (o.verdict == "output_mismatch") {
      o.correctness.max_abs_error = 0.01;
      o.correctness.max_rel_error = 0.5;
    }
    if (o.verdict == "build_error") o.log = "line 1\nerror: kmem_missing_header.h: No such file\n";
    std::lock_guard lock(mutex_);
    jobs.push_back(job);
    return o;
  }
  std::mutex mutex_;
  std::vector<EvalJob> jobs;
};

std::string candidate(const std::string& marker, const std::string& action) {
  return "Here it is.\n```python\nimport torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
         "    def __init__(self, scale):\n        super().__init__()\n        self.scale = scale\n\n"
         "    def forward(self, x, y):\n        return self.scale * x + y  # fake: " +
         marker + "\n```\nACTION: " + action + "\n";
}

ScriptedReply say(std::string content, std::string fault = "") {
  ScriptedReply r;
  r.content = std::move(content);
  r.fault = std::move(fault);
  r.prompt_tokens = 1000;
  r.completion_tokens = 200;
  return r;
}

class EpisodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
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
    work = fs::temp_directory_path() / ("kmem-episode-test-" + std::to_string(::getpid()));
    fs::remove_all(work);
    spec.problem = memory->problems.at("L1_008");
    spec.problem_path = kProblemFile;
    spec.reader = "claude-opus-5-5";
    spec.policy = "show_all";
    spec.max_turns = 3;
    spec.model = "scripted";
    config.model = "scripted";
    config.retries = 0;
    config.backoff_s = 0.01;
    config.timeout_s = 5;
  }
  void TearDown() override { fs::remove_all(work); }

  // Runs the episode against a scripted endpoint answering by turn.
  EpisodeOutcome play(std::vector<ScriptedReply> replies) {
    Script script;
    script.mode = "turns";
    script.replies = std::move(replies);
    auto endpoint = ScriptedEndpoint::start(std::move(script));
    EXPECT_TRUE(endpoint);
    config.base_url = (*endpoint)->base_url();
    auto outcome = play_with(config);
    requests = (*endpoint)->requests();
    return outcome;
  }
  EpisodeOutcome play_with(const EndpointConfig& endpoint_config) {
    auto chat = make_chat_client(endpoint_config);
    EXPECT_TRUE(chat) << chat.error().message();
    EpisodeContext context{index.get(), &pack, chat->get(), &evaluator, (work / "candidates").string()};
    auto outcome = run_episode(spec, context);
    EXPECT_TRUE(outcome) << outcome.error().message();
    return outcome ? *outcome : EpisodeOutcome();
  }

  std::unique_ptr<Memory> memory;
  std::unique_ptr<MemoryIndex> index;
  Pack pack;
  FakeEvaluator evaluator;
  fs::path work;
  EpisodeSpec spec;
  EndpointConfig config;
  std::vector<ReceivedRequest> requests;
};

TEST_F(EpisodeTest, ChecksAFailingCandidateFixesItAndSubmits) {
  EpisodeOutcome o = play({say(candidate("output_mismatch", "CHECK")), say(candidate("pass 2.5", "SUBMIT"))});
  EXPECT_EQ(o.end, "submitted");
  EXPECT_TRUE(o.submitted);
  EXPECT_TRUE(o.correct);
  EXPECT_DOUBLE_EQ(o.score, 2.5);
  ASSERT_EQ(o.turns.size(), 2u);
  const Turn& check = o.turns[0];
  EXPECT_EQ(check.action, "CHECK");
  EXPECT_EQ(check.verdict, "output_mismatch");
  EXPECT_EQ(check.stage, "evaluator");
  EXPECT_EQ(check.feedback,
            "CHECK result: output_mismatch: message of output_mismatch\nWorst absolute error 0.01, worst relative "
            "error 0.5.\n\nYou have 2 replies left.");
  EXPECT_EQ(check.prompt_tokens, 1000);
  EXPECT_EQ(o.prompt_tokens, 2000);
  EXPECT_EQ(o.completion_tokens, 400);
  EXPECT_EQ(o.turns[1].action, "SUBMIT");
  EXPECT_EQ(o.turns[1].verdict, "pass");
  EXPECT_EQ(o.turns[1].feedback, "");
  ASSERT_TRUE(o.best_turn);
  EXPECT_EQ(*o.best_turn, 2);
  EXPECT_EQ(evaluator.jobs.size(), 2u);
  EXPECT_EQ(evaluator.jobs[0].problem, kProblemFile);

  // The second request carries the conversation: system, task, reply, feedback.
  ASSERT_EQ(requests.size(), 2u);
  auto second = nlohmann::json::parse(requests[1].body)["messages"];
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second[0]["role"], "system");
  EXPECT_EQ(second[2]["role"], "assistant");
  EXPECT_EQ(second[2]["content"], candidate("output_mismatch", "CHECK"));
  EXPECT_EQ(second[3]["content"], check.feedback);
  // The task holds the problem source, the budget and the rendered memory.
  std::string task = second[1]["content"];
  EXPECT_NE(task.find("return self.scale * x + y"), std::string::npos);
  EXPECT_NE(task.find("You have 3 replies in all"), std::string::npos);
  EXPECT_FALSE(o.memory_text.empty());
  EXPECT_NE(task.find(o.memory_text), std::string::npos);
  EXPECT_FALSE(o.shown_item_ids.empty());
  for (const std::string& id : o.shown_item_ids) {
    bool found = false;
    for (const Item& item : memory->items) found = found || item.id == id;
    EXPECT_TRUE(found) << id;
  }

  auto json = nlohmann::json::parse(episode_json(o));
  EXPECT_EQ(json["score"], 2.5);
  EXPECT_EQ(json["submitted"], true);
  EXPECT_EQ(json["turns"][0]["action"], "CHECK");
  EXPECT_EQ(json["turns"][0]["verdict"], "output_mismatch");
  EXPECT_EQ(json["best_passing"]["turn"], 2);
  EXPECT_EQ(json["turns"][1]["exchange"]["http_status"], 200);
}

TEST_F(EpisodeTest, PassFeedbackNamesTimesAndABuildFailureTheCompilerTail) {
  spec.max_turns = 2;
  EpisodeOutcome o = play({say(candidate("build_error", "CHECK")), say(candidate("pass 4", "CHECK"))});
  ASSERT_EQ(o.turns.size(), 2u);
  EXPECT_EQ(o.turns[0].log_tail, "line 1\nerror: kmem_missing_header.h: No such file");
  EXPECT_NE(
      o.turns[0].feedback.find("The compiler's first error:\n```\nerror: kmem_missing_header.h: No such file\n```"),
      std::string::npos)
      << o.turns[0].feedback;
  EXPECT_NE(o.turns[0].feedback.find("make it your SUBMIT"), std::string::npos) << o.turns[0].feedback;
  // A CHECK on the last reply: the budget is spent, the best CHECK is kept apart.
  EXPECT_EQ(o.end, "budget_exhausted");
  EXPECT_FALSE(o.submitted);
  EXPECT_EQ(o.score, 0.0);
  ASSERT_TRUE(o.best_turn);
  EXPECT_EQ(o.best_speedup, 4.0);
  EXPECT_NE(o.best_candidate.find("class ModelNew"), std::string::npos);
}

TEST_F(EpisodeTest, PassFeedbackNamesTimesAndSpeedup) {
  EpisodeOutcome o = play({say(candidate("pass 4", "CHECK")), say(candidate("pass 4", "SUBMIT"))});
  EXPECT_EQ(o.turns[0].feedback,
            "CHECK result: pass. Reference 2.0000 ms, your candidate 0.5000 ms: speedup 4.000x (flags: none).\n"
            "You have 2 replies left.");
  EXPECT_DOUBLE_EQ(o.score, 4.0);
}

TEST_F(EpisodeTest, AReplyWithoutActionCostsATurnAndEvaluatesNothing) {
  std::string no_action = candidate("pass", "CHECK");
  no_action.erase(no_action.find("ACTION: CHECK"));
  EpisodeOutcome o = play({say(no_action), say(candidate("pass 2", "SUBMIT"))});
  ASSERT_EQ(o.turns.size(), 2u);
  EXPECT_EQ(o.turns[0].action, "none");
  EXPECT_EQ(o.turns[0].verdict, "no_action");
  EXPECT_EQ(o.turns[0].feedback.rfind("Your reply has no action line, so nothing was evaluated.", 0), 0u);
  EXPECT_EQ(evaluator.jobs.size(), 1u);
  EXPECT_DOUBLE_EQ(o.score, 2.0);
}

TEST_F(EpisodeTest, ACheckerRejectionIsFeedbackAndARejectedSubmitScoresZero) {
  std::string no_model_new = candidate("pass", "CHECK");
  no_model_new.replace(no_model_new.find("class ModelNew"), 14, "class Other");
  std::string no_code = "I would rather not write code.\nACTION: SUBMIT\n";
  EpisodeOutcome o = play({say(no_model_new), say(no_code)});
  ASSERT_EQ(o.turns.size(), 2u);
  EXPECT_EQ(o.turns[0].stage, "checker");
  EXPECT_EQ(o.turns[0].verdict, "no_model_new");
  EXPECT_EQ(o.turns[0].feedback.rfind("The checker rejected the candidate before running it: no_model_new: the "
                                      "candidate defines no class named ModelNew\n",
                                      0),
            0u)
      << o.turns[0].feedback;
  EXPECT_EQ(o.turns[1].verdict, "no_code_block");
  EXPECT_TRUE(evaluator.jobs.empty());
  EXPECT_EQ(o.end, "submitted");
  EXPECT_TRUE(o.submitted);
  EXPECT_FALSE(o.correct);
  EXPECT_EQ(o.score, 0.0);
}

TEST_F(EpisodeTest, EveryEndpointFaultEndsTheEpisodeWithARecordedError) {
  for (const char* fault :
       {"http_500", "http_429", "http_401", "malformed_json", "empty_choices", "no_content", "timeout"}) {
    config.timeout_s = 0.3;
    ScriptedReply bad = say("x", fault);
    if (std::string(fault) == "timeout") bad.latency_s = 3;
    EpisodeOutcome o = play({say(candidate("output_mismatch", "CHECK")), bad});
    EXPECT_EQ(o.end, "endpoint_error") << fault;
    ASSERT_EQ(o.turns.size(), 2u) << fault;
    EXPECT_EQ(o.turns[1].verdict, "endpoint_error");
    EXPECT_FALSE(o.turns[1].error.empty());
    EXPECT_EQ(o.error, o.turns[1].error);
    EXPECT_FALSE(o.submitted);
    EXPECT_EQ(o.score, 0.0);
  }
}

TEST_F(EpisodeTest, AnEvaluatorFailureEndsTheEpisode) {
  EpisodeOutcome o = play({say(candidate("evaluator_error", "CHECK"))});
  EXPECT_EQ(o.end, "evaluator_error");
  EXPECT_EQ(o.turns.size(), 1u);
  EXPECT_EQ(o.error, "turn 1: message of evaluator_error");
}

TEST_F(EpisodeTest, RecordThenReplayGivesTheSameEpisode) {
  config.record_dir = (work / "record").string();
  EpisodeOutcome recorded =
      play({say(candidate("output_mismatch", "CHECK")), say("no action here"), say(candidate("pass 3", "SUBMIT"))});
  EndpointConfig replay = config;
  replay.record_dir.clear();
  replay.replay_dir = (work / "record").string();
  replay.base_url = "http://127.0.0.1:9/v1";
  EpisodeOutcome replayed = play_with(replay);
  auto comparable = [](EpisodeOutcome o) {
    o.wall_s = 0;
    for (Turn& t : o.turns) t.eval_s = 0;
    return episode_json(o);
  };
  EXPECT_EQ(recorded.turns.size(), 3u);
  EXPECT_EQ(comparable(replayed), comparable(recorded));
}

TEST_F(EpisodeTest, AnyReaderIdRendersUnknownValuesNeverAnError) {
  spec.reader = "some-new-model";
  spec.policy = "reader_relative";
  EpisodeOutcome o = play({say(candidate("pass", "SUBMIT"))});
  EXPECT_EQ(o.end, "submitted");
  EXPECT_NE(o.memory_text.find("you alone: n/a"), std::string::npos) << o.memory_text;
}

TEST_F(EpisodeTest, BadInputIsAnErrorNamingIt) {
  config.base_url = "http://127.0.0.1:9/v1";
  auto chat = make_chat_client(config);
  EpisodeContext context{index.get(), &pack, chat->get(), &evaluator, work.string()};
  spec.policy = "nope";
  EXPECT_EQ(run_episode(spec, context).error().message().rfind("unknown policy 'nope' (choose from: ", 0), 0u);
  spec.policy = "none";
  spec.problem_path = "/nonexistent/1_X.py";
  EXPECT_EQ(run_episode(spec, context).error().message(),
            "/nonexistent/1_X.py: cannot open: No such file or directory");
  Pack without = pack;
  without.episode.clear();
  context.pack = &without;
  EXPECT_EQ(run_episode(spec, context).error().message(),
            "episode: the prompt pack has no 'episode' texts (docs/episodes.md)");
}

TEST_F(EpisodeTest, ConcurrentEpisodesShareOneClientWithoutMixingTurnsAndReplayAlike) {
  // Each problem's script: a CHECK with a problem-specific speedup, then a SUBMIT.
  std::vector<std::string> problems;
  for (const auto& [id, unused] : memory->problems)
    if (problems.size() < 6) problems.push_back(id);
  Script script;
  script.mode = "turns";
  script.latency_s = 0.05;
  for (size_t i = 0; i < problems.size(); ++i)
    for (const char* action : {"CHECK", "SUBMIT"}) {
      ScriptedReply r = say(candidate("pass " + std::to_string(i + 2), action));
      r.when = "KernelBench problem " + problems[i] + ",";
      script.replies.push_back(r);
    }
  auto endpoint = ScriptedEndpoint::start(script);
  ASSERT_TRUE(endpoint);
  config.base_url = (*endpoint)->base_url();
  config.record_dir = (work / "record").string();

  auto run_all = [&](const EndpointConfig& endpoint_config) {
    auto chat = make_chat_client(endpoint_config);
    EXPECT_TRUE(chat) << chat.error().message();
    std::vector<EpisodeOutcome> outcomes(problems.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < problems.size(); ++i)
      threads.emplace_back([&, i] {
        EpisodeSpec mine = spec;
        mine.problem = memory->problems.at(problems[i]);
        mine.id = "concurrent-" + problems[i];
        EpisodeContext context{index.get(), &pack, chat->get(), &evaluator, (work / "candidates").string()};
        auto outcome = run_episode(mine, context);
        if (outcome) outcomes[i] = std::move(*outcome);
      });
    for (std::thread& t : threads) t.join();
    return outcomes;
  };
  std::vector<EpisodeOutcome> live = run_all(config);
  EndpointConfig replay = config;
  replay.record_dir.clear();
  replay.replay_dir = (work / "record").string();
  std::vector<EpisodeOutcome> replayed = run_all(replay);
  for (size_t i = 0; i < problems.size(); ++i) {
    for (const auto* outcomes : {&live, &replayed}) {
      const EpisodeOutcome& o = (*outcomes)[i];
      EXPECT_EQ(o.problem, problems[i]);
      ASSERT_EQ(o.turns.size(), 2u) << problems[i] << " " << o.error;
      EXPECT_EQ(o.turns[0].action, "CHECK");
      EXPECT_DOUBLE_EQ(o.turns[0].speedup, static_cast<double>(i + 2));
      EXPECT_DOUBLE_EQ(o.score, static_cast<double>(i + 2));
    }
    EXPECT_EQ(replayed[i].turns[1].reply, live[i].turns[1].reply);
  }
}

TEST(LogTail, KeepsTheLastThirtyLinesAndAtMostFourThousandBytes) {
  std::string log;
  for (int i = 1; i <= 40; ++i) log += "line " + std::to_string(i) + "\n";
  std::string tail = episode::log_tail(log);
  EXPECT_EQ(tail.rfind("line 11\n", 0), 0u) << tail;
  EXPECT_EQ(tail.substr(tail.size() - 7), "line 40");
  std::string wide(100, 'x');
  std::string long_lines;
  for (int i = 0; i < 20; ++i) long_lines += wide + std::to_string(i) + "\n" + wide + "\n" + wide + "\n";
  tail = episode::log_tail(long_lines);
  EXPECT_LE(tail.size(), 4000u);
  EXPECT_NE(tail.front(), '\n');
  EXPECT_EQ(episode::log_tail("short"), "short");
}

}  // namespace
}  // namespace kmem

// One episode (docs/episodes.md): the opening messages, then one turn per
// reply until a SUBMIT, the turn budget, or an endpoint or evaluator failure
// ends it. The episode calls the stages; it renders, checks and evaluates
// nothing itself.
#include "kmem/episode.h"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "episode/feedback.h"
#include "kmem/check.h"
#include "util/file.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// `text` with every character but letters, digits, '.', '_' and '-' made '_'
// (ids name files).
std::string file_safe(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return text;
}

constexpr const char* kNoActionMessage = "the reply has no 'ACTION: CHECK' or 'ACTION: SUBMIT' line";

class Episode {
 public:
  Episode(const EpisodeSpec& spec, const EpisodeContext& context) : spec_(spec), context_(context) {
    out_.id = spec.id.empty() ? fmt::format("{}-{}-{}", spec.problem.id, spec.reader, spec.policy) : spec.id;
  }

  EpisodeOutcome run(std::vector<ChatMessage> messages) {
    out_.prompt = messages;
    const auto started = Clock::now();
    for (int t = 1; t <= spec_.max_turns; ++t) {
      Turn turn;
      turn.index = t;
      bool go_on = play(turn, messages);
      out_.prompt_tokens += turn.prompt_tokens;
      out_.completion_tokens += turn.completion_tokens;
      out_.turns.push_back(std::move(turn));
      if (!go_on) break;
    }
    if (out_.end.empty()) out_.end = "budget_exhausted";
    out_.wall_s = seconds_since(started);
    return std::move(out_);
  }

  EpisodeOutcome& outcome() { return out_; }

 private:
  // Plays one turn; false when the episode ends with it.
  bool play(Turn& turn, std::vector<ChatMessage>& messages) {
    turn.exchange = context_.chat->complete(messages);
    const ChatExchange& ex = turn.exchange;
    turn.latency_s = ex.latency_s;
    turn.prompt_tokens = ex.prompt_tokens;
    turn.completion_tokens = ex.completion_tokens;
    if (!ex.reply_ok) {
      turn.verdict = "endpoint_error";
      turn.stage = "endpoint";
      turn.error = ex.error;
      return finish("endpoint_error", ex.error);
    }
    turn.reply = ex.content;
    Reply reply = parse_reply(turn.reply);
    turn.action = std::string(action_name(reply.action));
    if (reply.action == Action::kNone) {
      turn.verdict = "no_action";
      turn.stage = "episode";
      turn.message = kNoActionMessage;
    } else {
      judge(turn, reply);
    }
    if (turn.verdict == "pass" && (!out_.best_turn || turn.speedup > out_.best_speedup)) {
      out_.best_turn = turn.index;
      out_.best_speedup = turn.speedup;
      out_.best_candidate = turn.candidate;
    }
    if (turn.verdict == "evaluator_error") {
      turn.error = turn.message + (turn.detail.empty() ? "" : ": " + turn.detail);
      return finish("evaluator_error", fmt::format("turn {}: {}", turn.index, turn.error));
    }
    if (reply.action == Action::kSubmit) {
      out_.submitted = true;
      out_.correct = turn.verdict == "pass";
      out_.score = turn.score;
      out_.speedup = out_.correct ? turn.speedup : 0.0;
      return finish("submitted", "");
    }
    int turns_left = spec_.max_turns - turn.index;
    if (turns_left <= 0) return finish("budget_exhausted", "");
    turn.feedback = episode::feedback_text(context_.pack->episode, turn, turns_left);
    messages.push_back({"assistant", turn.reply});
    messages.push_back({"user", turn.feedback});
    return true;
  }

  bool finish(const std::string& end, const std::string& error) {
    out_.end = end;
    out_.error = error;
    return false;
  }

  // The checker's verdict on the reply, then the evaluator's on a clean candidate.
  void judge(Turn& turn, const Reply& reply) {
    const auto started = Clock::now();
    turn.candidate = reply.source;
    std::vector<Offence> offences = checker_.check_reply(turn.reply);
    if (!offences.empty()) {
      turn.stage = "checker";
      turn.verdict = offences.front().code;
      turn.message = offences.front().message;
      for (const Offence& v : offences)
        turn.detail += v.line > 0 ? fmt::format("line {}:{}: {}: {}\n", v.line, v.column, v.code, v.message)
                                  : fmt::format("{}: {}\n", v.code, v.message);
      turn.eval_s = seconds_since(started);
      return;
    }
    turn.stage = "evaluator";
    const std::string job_id = fmt::format("{}-t{}", out_.id, turn.index);
    fs::path path = fs::path(context_.work_dir) / (file_safe(job_id) + ".py");
    std::ofstream file(path, std::ios::binary);
    file << reply.source;
    file.close();
    turn.candidate_path = path.string();
    EvalJob job{job_id, spec_.problem_path, path.string()};
    EvalOutcome o = file ? context_.evaluator->evaluate(job)
                         : rejected_outcome(job, "evaluator_error", path.string() + ": cannot write the candidate");
    turn.verdict = o.verdict;
    turn.message = o.message;
    turn.detail = o.detail;
    if (o.verdict == "build_error" || o.verdict == "build_timeout") {
      turn.log_tail = episode::log_tail(o.log);
      turn.compiler_error = episode::first_compiler_error(o.detail + "\n" + o.log);
    }
    turn.reference_ms = o.reference_ms;
    turn.candidate_ms = o.candidate_ms;
    turn.compile_ms = o.compile_ms;
    turn.speedup_vs_compile = o.speedup_vs_compile;
    turn.mismatch = o.mismatch;
    turn.profile = o.profile;
    turn.speedup = o.speedup;
    turn.score = o.score;
    turn.max_abs_error = o.correctness.max_abs_error;
    turn.max_rel_error = o.correctness.max_rel_error;
    turn.flags = o.flags;
    turn.eval_s = seconds_since(started);
  }

  const EpisodeSpec& spec_;
  const EpisodeContext& context_;
  Checker checker_;
  EpisodeOutcome out_;
};

}  // namespace

Result<EpisodeOutcome> run_episode(const EpisodeSpec& spec, const EpisodeContext& context) {
  if (!context.memory || !context.pack || !context.chat || !context.evaluator)
    return Error("episode: the context lacks a memory, pack, chat client or evaluator");
  if (context.pack->episode.empty()) return Error("episode: the prompt pack has no 'episode' texts (docs/episodes.md)");
  if (spec.max_turns < 1) return Error(fmt::format("episode: max_turns must be at least 1 (got {})", spec.max_turns));
  auto policy = context.pack->policies.find(spec.policy);
  if (policy == context.pack->policies.end()) {
    std::string names;
    for (const auto& [name, unused] : context.pack->policies) names += (names.empty() ? "" : ", ") + name;
    return Error(fmt::format("unknown policy '{}' (choose from: {})", spec.policy, names));
  }
  auto source = util::read_file(spec.problem_path);
  if (!source) return source.error();
  std::error_code ec;
  fs::create_directories(context.work_dir, ec);
  if (context.work_dir.empty() || !fs::is_directory(context.work_dir, ec))
    return Error(fmt::format("{}: cannot create the episode's work folder", context.work_dir));
  auto memory_text = render(*context.memory, *context.pack, policy->second, spec.reader, spec.problem);
  if (!memory_text) return memory_text.error();

  Episode episode(spec, context);
  EpisodeOutcome& out = episode.outcome();
  out.problem = spec.problem.id;
  out.reader = spec.reader;
  out.policy = spec.policy;
  out.model = spec.model;
  out.device = spec.device;
  out.max_turns = spec.max_turns;
  out.memory_text = *memory_text;
  out.shown_item_ids = shown_item_ids(*context.memory, *context.pack, policy->second, spec.reader, spec.problem);
  const auto& texts = context.pack->episode;
  return episode.run(
      {{"system", texts.at("system")}, {"user", episode::task_text(texts, spec, *source, *memory_text)}});
}

}  // namespace kmem

// Fills the episode texts of the pack: which template answers which turn,
// and the values each may use (docs/episodes.md lists them).
#include "episode/feedback.h"

#include <fmt/format.h>

#include "kmem/template.h"

namespace kmem {
namespace {

std::string ms(const std::optional<double>& v) { return v ? fmt::format("{:.4f}", *v) : "n/a"; }

// The template answering a turn, by who gave the verdict and which it is.
std::string template_key(const Turn& turn) {
  if (turn.verdict == "no_action") return "feedback_no_action";
  if (turn.stage == "checker") return "feedback_rejected";
  if (turn.verdict == "pass") return "feedback_pass";
  if (turn.verdict == "build_error" || turn.verdict == "build_timeout") return "feedback_build";
  if (turn.verdict == "output_mismatch" || turn.verdict == "timed_output_mismatch") return "feedback_mismatch";
  return "feedback_failed";
}

}  // namespace

std::string log_tail(const std::string& log) {
  constexpr size_t kMaxLines = 30, kMaxBytes = 4000;
  std::string text = log;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.size() > kMaxBytes) {
    text = text.substr(text.size() - kMaxBytes);
    if (size_t newline = text.find('\n'); newline != std::string::npos) text = text.substr(newline + 1);
  }
  size_t start = text.size();
  for (size_t lines = 0; lines < kMaxLines; ++lines) {
    size_t newline = start == 0 ? std::string::npos : text.rfind('\n', start - 1);
    if (newline == std::string::npos) return text;
    start = newline;
  }
  return text.substr(start + 1);
}

std::string task_text(const EpisodeTexts& texts, const EpisodeSpec& spec, const std::string& problem_source,
                      const std::string& memory_text) {
  std::string memory_block = memory_text.empty() ? "" : fill(texts.at("memory_block"), {{"memory", memory_text}});
  std::string turns = std::to_string(spec.max_turns), level = std::to_string(spec.problem.level);
  return fill(texts.at("task"), {{"problem_id", spec.problem.id},
                                 {"problem_name", spec.problem.name},
                                 {"category", spec.problem.category},
                                 {"level", level},
                                 {"problem_source", problem_source},
                                 {"max_turns", turns},
                                 {"device", spec.device},
                                 {"memory_block", memory_block}});
}

std::string feedback_text(const EpisodeTexts& texts, const Turn& turn, int turns_left) {
  std::string left = std::to_string(turns_left);
  std::string budget = turns_left > 1 ? fill(texts.at("turns_left"), {{"turns_left", left}}) : texts.at("last_turn");
  std::string flags;
  for (const std::string& flag : turn.flags) flags += (flags.empty() ? "" : ", ") + flag;
  std::string turn_index = std::to_string(turn.index), speedup = fmt::format("{:.3f}", turn.speedup),
              abs_error = fmt::format("{:.3g}", turn.max_abs_error), rel_error = fmt::format("{:.3g}", turn.max_rel_error),
              reference = ms(turn.reference_ms), candidate = ms(turn.candidate_ms);
  return fill(texts.at(template_key(turn)), {{"turn", turn_index},
                                             {"action", turn.action},
                                             {"verdict", turn.verdict},
                                             {"message", turn.message},
                                             {"detail", turn.detail},
                                             {"log_tail", turn.log_tail},
                                             {"max_abs_error", abs_error},
                                             {"max_rel_error", rel_error},
                                             {"reference_ms", reference},
                                             {"candidate_ms", candidate},
                                             {"speedup", speedup},
                                             {"flags", flags.empty() ? "none" : flags},
                                             {"turns_left", left},
                                             {"budget", budget}});
}

}  // namespace kmem

// Fills the episode texts of the pack: which template answers which turn,
// the values each may use (docs/episodes.md lists them), and the cut that
// keeps every feedback within its token budget.
#include "episode/feedback.h"

#include <fmt/format.h>

#include <sstream>
#include <vector>

#include "kmem/template.h"

namespace kmem::episode {
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

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < lines.size(); ++i) out += (out.empty() ? "" : "\n") + lines[i];
  return out;
}

bool has(const std::string& line, const char* what) { return line.find(what) != std::string::npos; }

// A line that starts a compiler diagnostic or ends one's context.
bool diagnostic(const std::string& line) {
  return has(line, "error:") || has(line, "warning:") || has(line, "FAILED:") || has(line, "ninja:") ||
         has(line, "Traceback (most recent call last)") || line.rfind("[", 0) == 0;
}

// `lines` without Python tracebacks: their header and every frame line
// (indented) go, the exception line that ends one stays.
std::vector<std::string> without_tracebacks(const std::vector<std::string>& lines) {
  std::vector<std::string> kept;
  bool in_traceback = false;
  for (const std::string& line : lines) {
    if (has(line, "Traceback (most recent call last)") || has(line, "During handling of the above exception") ||
        has(line, "The above exception was the direct cause")) {
      in_traceback = true;
      continue;
    }
    if (in_traceback && (line.empty() || line.front() == ' ' || line.front() == '\t')) continue;
    in_traceback = false;
    kept.push_back(line);
  }
  return kept;
}

// "(3, 0)": a shape or index as Python writes a tuple.
std::string tuple(const std::vector<long>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + (values.size() == 1 ? ",)" : ")");
}

std::string mismatch_text(const EpisodeTexts& texts, const Turn& turn) {
  if (!turn.mismatch) return "";
  const MismatchFacts& m = *turn.mismatch;
  std::string samples;
  for (const auto& s : m.samples) {
    std::string index = tuple(s.index);
    samples += fill(texts.at("mismatch_sample"), {{"index", index}, {"expected", s.expected}, {"got", s.got}});
  }
  auto where = texts.find("mismatch_" + m.where);
  std::string trial = std::to_string(m.trial), output = std::to_string(m.output), shape = tuple(m.shape),
              first = tuple(m.first_index), bad = std::to_string(m.bad), elements = std::to_string(m.elements),
              nan = std::to_string(m.nan), inf = std::to_string(m.inf);
  return fill(texts.at("mismatch_facts"), {{"trial", trial},
                                           {"output", output},
                                           {"shape", shape},
                                           {"first_index", first},
                                           {"bad", bad},
                                           {"elements", elements},
                                           {"where", where != texts.end() ? where->second : m.where},
                                           {"nan", nan},
                                           {"inf", inf},
                                           {"samples", samples}});
}

// Kernel names as the candidate's worker reported them: at most five, each
// at most 60 bytes (they come from the candidate's process).
std::string kernel_names(const std::vector<std::string>& names) {
  constexpr size_t kMaxNames = 5, kMaxName = 60;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kMaxNames; ++i) {
    std::string name = names[i].substr(0, kMaxName);
    out += (out.empty() ? "" : ", ") + name;
  }
  if (names.size() > kMaxNames) out += fmt::format(", +{}", names.size() - kMaxNames);
  return out;
}

// The pass feedback's lines on the compile baseline and where the time goes.
std::string pass_details(const EpisodeTexts& texts, const Turn& turn) {
  std::string out;
  if (turn.compile_ms && turn.speedup_vs_compile) {
    std::string compile = ms(turn.compile_ms), speedup = fmt::format("{:.3f}", *turn.speedup_vs_compile);
    out += fill(texts.at("pass_compile"), {{"compile_ms", compile}, {"speedup_vs_compile", speedup}});
  }
  if (turn.profile.roofline_ms && turn.candidate_ms && *turn.candidate_ms > 0) {
    std::string floor = ms(turn.profile.roofline_ms),
                percent = fmt::format("{:.1f}", 100.0 * *turn.profile.roofline_ms / *turn.candidate_ms);
    out += fill(texts.at("pass_roofline"), {{"roofline_ms", floor}, {"roofline_percent", percent}});
  }
  if (turn.profile.own_work_share) {
    std::string names = kernel_names(turn.profile.own_kernels), own = ms(turn.profile.own_work_ms),
                percent = fmt::format("{:.0f}", 100.0 * *turn.profile.own_work_share);
    out +=
        fill(texts.at("pass_own_work"),
             {{"own_kernels", names.empty() ? "unnamed" : names}, {"own_work_ms", own}, {"own_work_percent", percent}});
  }
  return out;
}

// The end of a UTF-8 text cut to at most `bytes`, on a character boundary.
size_t utf8_cut(const std::string& text, size_t bytes) {
  if (bytes >= text.size()) return text.size();
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return bytes;
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

std::string first_compiler_error(const std::string& text) {
  constexpr size_t kContextLines = 4, kFallbackLines = 12;
  std::vector<std::string> lines = without_tracebacks(lines_of(text));
  size_t first = lines.size(), errors = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!has(lines[i], "error:")) continue;
    if (first == lines.size()) first = i;
    ++errors;
  }
  if (first == lines.size()) {
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return joined(lines, lines.size() > kFallbackLines ? lines.size() - kFallbackLines : 0);
  }
  std::vector<std::string> shown{lines[first]};
  for (size_t i = first + 1; i < lines.size() && shown.size() <= kContextLines && !diagnostic(lines[i]); ++i)
    shown.push_back(lines[i]);
  std::string out = joined(shown);
  if (errors > 1) out += fmt::format("\n({} more lines with errors follow)", errors - 1);
  return out;
}

std::string fit_feedback(const std::string& text, const std::string& marker, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::string body = text;
  while (!body.empty() && body.back() == '\n') body.pop_back();
  size_t last_newline = body.rfind('\n');
  std::string last = last_newline == std::string::npos ? "" : body.substr(last_newline + 1);
  body = last_newline == std::string::npos ? body : body.substr(0, last_newline);
  size_t reserved = marker.size() + last.size() + 2;
  if (reserved >= max_bytes) return text.substr(0, utf8_cut(text, max_bytes));
  return body.substr(0, utf8_cut(body, max_bytes - reserved)) + "\n" + marker + "\n" + last;
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
              abs_error = fmt::format("{:.3g}", turn.max_abs_error),
              rel_error = fmt::format("{:.3g}", turn.max_rel_error), reference = ms(turn.reference_ms),
              candidate = ms(turn.candidate_ms), mismatch = mismatch_text(texts, turn),
              pass = turn.verdict == "pass" ? pass_details(texts, turn) : "";
  std::string text = fill(texts.at(template_key(turn)), {{"turn", turn_index},
                                                         {"action", turn.action},
                                                         {"verdict", turn.verdict},
                                                         {"message", turn.message},
                                                         {"detail", turn.detail},
                                                         {"log_tail", turn.log_tail},
                                                         {"compiler_error", turn.compiler_error},
                                                         {"mismatch", mismatch},
                                                         {"pass_details", pass},
                                                         {"max_abs_error", abs_error},
                                                         {"max_rel_error", rel_error},
                                                         {"reference_ms", reference},
                                                         {"candidate_ms", candidate},
                                                         {"speedup", speedup},
                                                         {"flags", flags.empty() ? "none" : flags},
                                                         {"turns_left", left},
                                                         {"budget", budget}});
  return fit_feedback(text, texts.at("feedback_cut"), kFeedbackMaxBytes);
}

}  // namespace kmem::episode

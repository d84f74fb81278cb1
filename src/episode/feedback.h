// The texts an episode sends, filled from the prompt pack's episode section:
// the opening task and the feedback answering each turn (docs/episodes.md,
// "Feedback").
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "kmem/episode.h"

namespace kmem::episode {

using EpisodeTexts = std::map<std::string, std::string>;

// Every feedback fits this many tokens (docs/episodes.md, "Feedback"),
// counted conservatively as one token per kFeedbackBytesPerToken bytes: a
// longer one is cut, its last line (the turns left) kept.
inline constexpr size_t kFeedbackTokenBudget = 1000;
inline constexpr size_t kFeedbackBytesPerToken = 3;
inline constexpr size_t kFeedbackMaxBytes = kFeedbackTokenBudget * kFeedbackBytesPerToken;

// The task text: the problem's source, the rules and the turn budget, and the
// memory text in its block (left out when the policy renders nothing).
std::string task_text(const EpisodeTexts& texts, const EpisodeSpec& spec, const std::string& problem_source,
                      const std::string& memory_text);

// The feedback for `turn` when `turns_left` replies remain (at least one),
// at most kFeedbackMaxBytes long.
std::string feedback_text(const EpisodeTexts& texts, const Turn& turn, int turns_left);

// The last lines of a compiler log, at most 30 lines and 4000 bytes.
std::string log_tail(const std::string& log);

// The compiler's first error in a failed build's exception message and log
// (`text`): the first line holding "error:" (g++, nvcc, ptxas) with the
// lines that follow it up to the next diagnostic, and how many more errors
// there are; without such a line, the text's last lines without Python
// tracebacks. Empty for an empty text.
std::string first_compiler_error(const std::string& text);

// `text` cut to at most `max_bytes` (on a UTF-8 character boundary), its last
// line kept whole and `marker` on a line of its own before it when cut.
std::string fit_feedback(const std::string& text, const std::string& marker, size_t max_bytes);

}  // namespace kmem::episode

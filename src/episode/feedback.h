// The texts an episode sends, filled from the prompt pack's episode section:
// the opening task and the feedback answering each turn (docs/episodes.md,
// "Feedback").
#pragma once

#include <map>
#include <string>

#include "kmem/episode.h"

namespace kmem {

using EpisodeTexts = std::map<std::string, std::string>;

// The task text: the problem's source, the rules and the turn budget, and the
// memory text in its block (left out when the policy renders nothing).
std::string task_text(const EpisodeTexts& texts, const EpisodeSpec& spec, const std::string& problem_source,
                      const std::string& memory_text);

// The feedback for `turn` when `turns_left` replies remain (at least one).
std::string feedback_text(const EpisodeTexts& texts, const Turn& turn, int turns_left);

// The last lines of a compiler log, at most 30 lines and 4000 bytes.
std::string log_tail(const std::string& log);

}  // namespace kmem

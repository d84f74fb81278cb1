// The JSON form of an episode's outcome (docs/episodes.md, "Output"): one
// object, every turn with its exchange kept whole.
#include <nlohmann/json.hpp>

#include "kmem/episode.h"

namespace kmem {
namespace {

using Json = nlohmann::ordered_json;

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json turn_json(const Turn& t) {
  const ChatExchange& ex = t.exchange;
  return Json{{"index", t.index},
              {"action", t.action},
              {"verdict", t.verdict},
              {"stage", t.stage},
              {"message", t.message},
              {"detail", t.detail},
              {"log_tail", t.log_tail},
              {"reference_ms", optional_number(t.reference_ms)},
              {"compiler_error", t.compiler_error},
              {"candidate_ms", optional_number(t.candidate_ms)},
              {"compile_ms", optional_number(t.compile_ms)},
              {"roofline_ms", optional_number(t.profile.roofline_ms)},
              {"speedup", t.speedup},
              {"speedup_vs_compile", optional_number(t.speedup_vs_compile)},
              {"score", t.score},
              {"max_abs_error", t.max_abs_error},
              {"max_rel_error", t.max_rel_error},
              {"flags", t.flags},
              {"prompt_tokens", t.prompt_tokens},
              {"completion_tokens", t.completion_tokens},
              {"latency_s", t.latency_s},
              {"eval_s", t.eval_s},
              {"error", t.error},
              {"reply", t.reply},
              {"candidate", t.candidate},
              {"candidate_path", t.candidate_path},
              {"feedback", t.feedback},
              {"exchange",
               {{"request", ex.request},
                {"http_status", ex.http_status},
                {"response", ex.response},
                {"attempts", ex.attempts},
                {"latency_s", ex.latency_s},
                {"finish_reason", ex.finish_reason},
                {"error", ex.error}}}};
}

}  // namespace

std::string episode_json(const EpisodeOutcome& o) {
  Json turns = Json::array();
  for (const Turn& t : o.turns) turns.push_back(turn_json(t));
  Json prompt = Json::array();
  for (const ChatMessage& m : o.prompt) prompt.push_back({{"role", m.role}, {"content", m.content}});
  Json best = o.best_turn ? Json{{"turn", *o.best_turn}, {"speedup", o.best_speedup}, {"candidate", o.best_candidate}}
                          : Json(nullptr);
  Json doc = {{"format", "kmem-episode/1"},
              {"id", o.id},
              {"problem", o.problem},
              {"reader", o.reader},
              {"policy", o.policy},
              {"model", o.model},
              {"device", o.device},
              {"max_turns", o.max_turns},
              {"end", o.end},
              {"submitted", o.submitted},
              {"correct", o.correct},
              {"score", o.score},
              {"speedup", o.speedup},
              {"best_passing", best},
              {"error", o.error},
              {"wall_s", o.wall_s},
              {"prompt_tokens", o.prompt_tokens},
              {"completion_tokens", o.completion_tokens},
              {"shown_item_ids", o.shown_item_ids},
              {"memory_text", o.memory_text},
              {"prompt", prompt},
              {"turns", turns}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace kmem

// Recipes and pitfalls written by a model (docs/learning.md, "Recipes and
// pitfalls"): the pack's `learn` texts ask through the endpoint client; the
// speedup, source and category come from the evaluator; a text carrying a
// number that is not a verified figure is refused.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "kmem/learn.h"
#include "kmem/template.h"
#include "learn/items.h"

namespace kmem {
namespace {

// Verdicts that say a candidate computed the wrong thing.
bool correctness_verdict(const std::string& verdict) {
  return verdict == "output_mismatch" || verdict == "timed_output_mismatch" || verdict == "shape_mismatch" ||
         verdict == "dtype_mismatch" || verdict == "input_mutation";
}

struct Written {
  std::string text;
  std::vector<std::string> labels;  // from the LABELS line
  bool has_labels_line = false;
};

// The reply without its LABELS line, trimmed; the labels it names.
Written read_reply(const std::string& content) {
  Written w;
  std::istringstream lines(content);
  std::string line, text;
  while (std::getline(lines, line)) {
    if (line.rfind("LABELS:", 0) == 0) {
      w.has_labels_line = true;
      for (const char* label : {"prohibition", "correctness"})
        if (line.find(label) != std::string::npos) w.labels.push_back(label);
      continue;
    }
    text += line + "\n";
  }
  size_t first = text.find_first_not_of(" \t\r\n"), last = text.find_last_not_of(" \t\r\n");
  w.text = first == std::string::npos ? "" : text.substr(first, last - first + 1);
  return w;
}

// Asks the model; an empty text or an unverified number is a refusal (the
// reason), else "" and `written` holds the text.
std::string ask(ChatClient& chat, const Pack& pack, const std::string& prompt, const std::vector<double>& verified,
                Written& written) {
  ChatExchange exchange = chat.complete({{"system", pack.learn.at("system")}, {"user", prompt}});
  if (!exchange.reply_ok) return "the endpoint failed: " + exchange.error;
  written = read_reply(exchange.content);
  if (written.text.empty()) return "the model wrote no text";
  auto numbers = unverified_numbers(written.text, verified);
  if (!numbers.empty()) {
    std::string listed;
    for (const auto& n : numbers) listed += (listed.empty() ? "" : ", ") + n;
    return "the text carries numbers that are no verified figure: " + listed;
  }
  return "";
}

// The text with every verified figure (and its unit) taken out.
std::optional<std::string> without_figures(const std::string& text, double speedup) {
  std::string figure = fmt::format("{:.2f}", speedup);
  if (text.find(figure) == std::string::npos) return std::nullopt;
  std::string out = text;
  for (const std::string& f : {figure + "x", figure + "%", figure}) {
    for (size_t at = out.find(f); at != std::string::npos; at = out.find(f)) out.erase(at, f.size());
  }
  for (size_t at = out.find("  "); at != std::string::npos; at = out.find("  ")) out.erase(at, 1);
  return out;
}

}  // namespace

Result<Memory> learn_texts(const Memory& memory, const std::vector<LearnedEpisode>& episodes,
                           const std::vector<std::string>& kernel_ids, const Pack& pack, ChatClient& chat,
                           const LearnOptions& options, LearnReport& report) {
  if (pack.learn.empty()) return Error("the prompt pack has no 'learn' texts (docs/learning.md)");
  Memory out = memory;
  for (const std::string& id : kernel_ids) {
    const Item* kernel = learn::find_item(out, id);
    if (!kernel || kernel->kind != ItemKind::kKernel) return Error(fmt::format("no kernel item '{}'", id));
    if (kernel->speedup <= 1.0) continue;  // a recipe says what made a kernel faster than eager
    const Problem& problem = out.problems.at(kernel->source);
    std::string sp = fmt::format("{:.2f}", kernel->speedup);
    std::string prompt = fill(pack.learn.at("recipe"), {{"problem_id", problem.id},
                                                        {"problem_name", problem.name},
                                                        {"category", problem.category},
                                                        {"speedup", sp},
                                                        {"code", kernel->code}});
    Written w;
    if (std::string why = ask(chat, pack, prompt, {kernel->speedup}, w); !why.empty()) {
      report.skipped.push_back(fmt::format("recipe for {}: {}", id, why));
      continue;
    }
    Item recipe;
    recipe.id = learn::free_item_id(out, "recipe:" + problem.category + ":" + problem.id);
    recipe.kind = ItemKind::kRecipe;
    recipe.labels = w.labels;
    recipe.category = problem.category;
    recipe.source = problem.id;
    recipe.speedup = kernel->speedup;
    recipe.text = w.text;
    recipe.text_no_numbers = without_figures(w.text, kernel->speedup);
    recipe.state = ItemState::kCandidate;
    recipe.provenance = kernel->provenance;
    recipe.history.push_back(HistoryEntry{options.date, "ingest", "written for kernel " + id, ItemState::kCandidate,
                                          ItemState::kCandidate, std::nullopt, std::nullopt});
    report.added.push_back(recipe.id);
    out.items.push_back(std::move(recipe));
  }

  // Pitfalls: per category, the failed and slower-than-eager attempts.
  struct Attempts {
    std::vector<std::string> lines;
    bool all_correctness = true;
    std::string origin, reader;
  };
  std::map<std::string, Attempts> by_category;
  for (const LearnedEpisode& e : episodes)
    for (const StoredTurn& t : e.turns) {
      if (t.stage != "evaluator" || t.verdict == "evaluator_error") continue;
      bool slower = t.verdict == "pass" && t.speedup < 1.0;
      if (t.verdict == "pass" && !slower) continue;
      Attempts& a = by_category[e.episode.category];
      a.lines.push_back(slower ? fmt::format("- {}: correct, but slower than eager PyTorch", e.episode.key.problem)
                               : fmt::format("- {}: {}: {}", e.episode.key.problem, t.verdict, t.message));
      a.all_correctness = a.all_correctness && !slower && correctness_verdict(t.verdict);
      const EpisodeKey& k = e.episode.key;
      a.origin = fmt::format("episode:{}/{}/{}/{}/{}", e.experiment, k.reader, k.policy, k.problem, k.sample);
      a.reader = k.reader;
    }
  for (auto& [category, a] : by_category) {
    std::sort(a.lines.begin(), a.lines.end());
    a.lines.erase(std::unique(a.lines.begin(), a.lines.end()), a.lines.end());
    std::string attempts;
    for (const auto& l : a.lines) attempts += l + "\n";
    std::string prompt = fill(pack.learn.at("pitfall"), {{"category", category}, {"attempts", attempts}});
    Written w;
    if (std::string why = ask(chat, pack, prompt, {}, w); !why.empty()) {
      report.skipped.push_back(fmt::format("pitfall for {}: {}", category, why));
      continue;
    }
    int order = 0;
    for (const Item& item : out.items)
      if (item.kind == ItemKind::kPitfall && item.category == category && item.order)
        order = std::max(order, *item.order + 1);
    Item pitfall;
    pitfall.id = learn::free_item_id(out, "pitfall:" + category + ":learned");
    pitfall.kind = ItemKind::kPitfall;
    pitfall.labels = w.has_labels_line
                         ? w.labels
                         : (a.all_correctness ? std::vector<std::string>{"correctness"} : std::vector<std::string>{});
    pitfall.category = category;
    pitfall.order = order;
    pitfall.text = w.text;
    pitfall.state = ItemState::kCandidate;
    pitfall.provenance = Provenance{a.origin, a.reader, "", "", options.date};
    pitfall.history.push_back(HistoryEntry{options.date, "ingest", fmt::format("from {} attempts", a.lines.size()),
                                           ItemState::kCandidate, ItemState::kCandidate, std::nullopt, std::nullopt});
    report.added.push_back(pitfall.id);
    out.items.push_back(std::move(pitfall));
  }
  return out;
}

}  // namespace kmem

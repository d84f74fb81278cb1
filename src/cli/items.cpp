// `kmem items list|show|promote|retire|label|add|value`: review the items of
// a store (docs/learning.md, "States"). Every change is one transaction and
// is kept in the item's history with its reason.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "interrupt.h"
#include "kmem/catalog.h"
#include "kmem/episode.h"
#include "kmem/experiment.h"
#include "kmem/item_kind.h"
#include "kmem/learn.h"
#include "kmem/store.h"
#include "learn_args.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

namespace fs = std::filesystem;

struct ItemsArgs {
  std::string db, id, reason, state, kind, problem, kernelbench, code, experiment, results;
  std::vector<std::string> labels;
  bool json = false, promote_flagged = false;
  EvaluatorArgs evaluator;
};

// "2/3 reproduced" and the rest of an item's confidence, for one line.
std::string confidence_text(const ItemConfidence& c) {
  if (c.measurements == 0 && c.readers_measured == 0) return "-";
  std::string out = c.measurements == 0
                        ? ""
                        : fmt::format("{}/{}{}", c.reproductions, c.measurements, c.reproduced ? " reproduced" : "");
  if (c.readers_measured > 0)
    out += fmt::format("{}helped {}/{}", out.empty() ? "" : ", ", c.readers_helped, c.readers_measured);
  return out;
}

std::string one_line(const Item& item) {
  std::string what = item.kind == ItemKind::kKernel ? "(code)" : item.text;
  if (what.size() > 60) {
    size_t cut = 57;
    while (cut > 0 && (static_cast<unsigned char>(what[cut]) & 0xC0) == 0x80) --cut;  // a whole UTF-8 character
    what = what.substr(0, cut) + "...";
  }
  std::string speed = item.kind == ItemKind::kKernel || item.kind == ItemKind::kRecipe
                          ? fmt::format("{:.2f}x {}", item.speedup, item.source)
                          : "";
  ItemConfidence c = item_confidence(item);
  std::string device = c.device.empty() ? "" : c.device;
  return fmt::format("{:<34} {:<8} {:<9} {:<14} {:<18} {:<22} {:<20} {:<20} {}\n", item.id, item_kind_name(item.kind),
                     item_state_name(item.state), item.category, speed, confidence_text(c), c.last_verified, device,
                     what);
}

nlohmann::ordered_json confidence_json(const ItemConfidence& c) {
  return {{"measurements", c.measurements},
          {"reproductions", c.reproductions},
          {"reproduced", c.reproduced},
          {"readers_measured", c.readers_measured},
          {"readers_helped", c.readers_helped},
          {"last_verified", c.last_verified},
          {"device", c.device}};
}

int list_items(const ItemsArgs& args) {
  auto memory = load_memory(store_or_seed(args.db));
  if (!memory) return report_error("items list", memory.error());
  std::string out = args.json
                        ? ""
                        : fmt::format("{:<34} {:<8} {:<9} {:<14} {:<18} {:<22} {:<20} {:<20} {}\n", "id", "kind",
                                      "state", "category", "speedup", "confidence", "last verified", "device", "text");
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Item& item : memory->items) {
    if (!args.state.empty() && args.state != item_state_name(item.state)) continue;
    if (!args.kind.empty() && args.kind != item_kind_name(item.kind)) continue;
    out += one_line(item);
    nlohmann::ordered_json j = {{"id", item.id},
                                {"kind", item_kind_name(item.kind)},
                                {"state", item_state_name(item.state)},
                                {"category", item.category}};
    if (item.kind == ItemKind::kKernel || item.kind == ItemKind::kRecipe) {
      j["source"] = item.source;
      j["speedup"] = item.speedup;
    }
    j["confidence"] = confidence_json(item_confidence(item));
    list.push_back(std::move(j));
  }
  if (args.json) out = list.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (Status s = write_stdout(out); !s) return report_error("items list", s.error());
  return kExitOk;
}

int show_item(const ItemsArgs& args) {
  std::string path = store_or_seed(args.db);
  auto memory = load_memory(path);
  if (!memory) return report_error("items show", memory.error());
  for (const Item& item : memory->items) {
    if (item.id != args.id) continue;
    Memory one = *memory;  // the item as the store format writes it
    one.items = {item};
    auto doc = nlohmann::ordered_json::parse(memory_to_json(one));
    nlohmann::ordered_json shown = doc["items"][0];
    shown["confidence"] = confidence_json(item_confidence(item));
    if (Status s = write_stdout(shown.dump(1) + "\n"); !s) return report_error("items show", s.error());
    return kExitOk;
  }
  return report_error("items show", Error(fmt::format("{}: no item '{}'", path, args.id)));
}

int change(const char* command, const ItemsArgs& args,
           const std::function<Result<Memory>(const Memory&, const std::string& date)>& step) {
  auto db = open_store_database(args.db, false);
  if (!db) return report_error(command, db.error());
  std::string date = utc_date();
  Status s = db->update([&](const Memory& m) { return step(m, date); });
  if (!s) return report_error(command, s.error());
  if (Status w = write_stdout(fmt::format("{}: {} {}\n", args.db, command + 6, args.id)); !w)
    return report_error(command, w.error());
  return kExitOk;
}

// The measurements of a passing kernel: the first as evaluated, then again
// with the reference re-timed, and a third time when those two disagree by
// more than kReproductionSpread (docs/learning.md, "Confidence").
std::vector<EvalOutcome> measured(const EvalOutcome& first, const EvalJob& job, const EvalOptions& options) {
  EvalOptions retiming = options;
  retiming.retime_reference = true;
  auto evaluator = make_streaming_evaluator(retiming, 1);  // one evaluation for the runs again
  std::vector<EvalOutcome> runs = {first};
  for (int run = 0; run < 2; ++run) {
    EvalOutcome again = evaluator->evaluate(job);
    runs.push_back(again);
    if (!again.passed()) break;
    double low = std::min(runs.front().speedup, again.speedup), high = std::max(runs.front().speedup, again.speedup);
    if (run == 0 && low > 0 && high / low <= kReproductionSpread) break;
  }
  return runs;
}

int add_item(ItemsArgs& args) {
  const char* cmd = "items add";
  InterruptGuard guard([](int) {});  // Ctrl-C ends every worker this command started
  if (Status resolved = resolve_evaluator(args.evaluator, /*runs_candidates=*/true); !resolved)
    return report_error("items add", resolved.error());
  auto rules = CategoryRules::load(data_dir() + "/categories.json");
  if (!rules) return report_error(cmd, rules.error());
  auto problem = resolve_problem(args.problem, args.kernelbench, *rules);
  if (!problem) return report_error(cmd, problem.error());
  auto text = util::read_file(args.code);
  if (!text) return report_error(cmd, text.error());
  auto code = candidate_source(args.code, *text);  // a reply's ```python block, as the evaluator takes it
  if (!code) return report_error(cmd, code.error());
  auto db = open_store_database(args.db, false);
  if (!db) return report_error(cmd, db.error());
  auto before = db->read();
  if (!before) return report_error(cmd, before.error());
  if (!before->problems.contains(problem->problem.id))
    return report_error(
        cmd, Error(fmt::format("{}: problem {} is not in the store (kmem problems import KERNELBENCH --store {})",
                               args.db, problem->problem.id, args.db)));
  auto identity = evaluator_identity(args.evaluator);
  if (!identity) return report_error(cmd, identity.error());
  EvalJob job{"items-add", problem->path, fs::absolute(args.code).string()};
  auto evaluator = make_process_evaluator(args.evaluator.eval);
  EvalOutcome outcome = evaluator->evaluate(job);
  if (outcome.evaluator_failed()) return report_error(cmd, Error("the evaluator failed: " + outcome.detail));
  if (outcome.verdict == "missing_candidate") return report_error(cmd, Error(outcome.detail));
  if (!outcome.passed()) {
    std::fprintf(stderr, "kmem items add: %s: %s: %s\n", args.code.c_str(), outcome.verdict.c_str(),
                 outcome.message.c_str());
    return kExitRejected;
  }
  std::string date = utc_date();
  VerifiedCandidate candidate{
      problem->problem.id,
      *code,
      outcome.verdict,
      outcome.speedup,
      outcome.flags,
      Provenance{"user:" + fs::path(args.code).filename().string(), "", identity->version, identity->gpu, date}};
  candidate.problem_path = problem->path;
  // Measured again only when it could enter: passing, not slower than eager
  // and (unless admitted) unflagged.
  if (outcome.speedup >= 1.0 && (outcome.flags.empty() || args.promote_flagged)) {
    for (const EvalOutcome& run : measured(outcome, job, args.evaluator.eval)) {
      if (run.evaluator_failed()) return report_error(cmd, Error("the evaluator failed: " + run.detail));
      if (!run.passed()) {
        std::fprintf(stderr, "kmem items add: %s: passed once, then %s: %s\n", args.code.c_str(), run.verdict.c_str(),
                     run.message.c_str());
        return kExitRejected;
      }
      candidate.measurements.push_back(
          Measurement{date, run.speedup, identity->gpu, identity->version, !run.reference_cached});
      for (const auto& flag : run.flags)
        if (std::find(candidate.flags.begin(), candidate.flags.end(), flag) == candidate.flags.end())
          candidate.flags.push_back(flag);
    }
    candidate.speedup = candidate.measurements.back().speedup;
  }
  LearnReport report;
  LearnOptions options;
  options.date = date;
  options.promote_flagged = args.promote_flagged;
  Status s = db->update([&](const Memory& m) {
    report = LearnReport{};
    return learn_kernels(m, {candidate}, options, report);
  });
  if (!s) return report_error(cmd, s.error());
  if (report.added.empty() && report.updated.empty()) {
    std::fprintf(stderr, "kmem items add: %s\n", report.skipped.empty() ? "not added" : report.skipped.front().c_str());
    return kExitRejected;
  }
  std::string id = report.added.empty() ? report.updated.front() : report.added.front();
  auto after = db->read();
  if (!after) return report_error(cmd, after.error());
  ItemConfidence c;
  for (const Item& item : after->items)
    if (item.id == id) c = item_confidence(item);
  std::string speedups;
  for (const Measurement& m : candidate.measurements)
    speedups += fmt::format("{}{:.2f}x", speedups.empty() ? "" : ", ", m.speedup);
  std::string out = fmt::format("{}: added {} ({:.2f}x on {}, candidate; measured {}: {})\n", args.db, id,
                                candidate.speedup, identity->gpu, speedups,
                                c.reproduced ? "reproduced, kmem items promote makes it active"
                                             : "not reproduced, kmem reverify measures it again");
  if (Status w = write_stdout(out); !w) return report_error(cmd, w.error());
  return kExitOk;
}

int item_value(const ItemsArgs& args) {
  if (args.results.empty() && args.db.empty())
    return report_error("items value", Error("items value needs --results DB (the database holding the experiment)"));
  auto db = Database::open_existing(args.results.empty() ? args.db : args.results);
  if (!db) return report_error("items value", db.error());
  auto episodes = db->learning_episodes(args.experiment);
  if (!episodes) return report_error("items value", episodes.error());
  std::vector<ItemValue> values = item_values(*episodes);
  std::string out;
  if (args.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const ItemValue& v : values)
      j.push_back({{"item", v.item},
                   {"reader", v.reader},
                   {"problems", v.problems},
                   {"shown", v.shown},
                   {"not_shown", v.not_shown},
                   {"difference", v.difference}});
    out = j.dump(1) + "\n";
  } else {
    out = fmt::format("{:<34} {:<24} {:>8} {:>6} {:>9} {:>10}\n", "item", "reader", "problems", "shown", "not shown",
                      "difference");
    for (const ItemValue& v : values)
      out += fmt::format("{:<34} {:<24} {:>8} {:>6} {:>9} {:>+10.3f}\n", v.item, v.reader, v.problems, v.shown,
                         v.not_shown, v.difference);
  }
  if (Status s = write_stdout(out); !s) return report_error("items value", s.error());
  return kExitOk;
}

}  // namespace

void add_items_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<ItemsArgs>();
  CLI::App* items =
      app.add_subcommand("items", "Review a store's items: list, show, promote, retire, label, add, value");
  items->require_subcommand(1);
  auto db_option = [&](CLI::App* cmd) { add_store_option(*cmd, args->db, false); };

  CLI::App* list = items->add_subcommand(
      "list", "List items (id, kind, state, category, speedup, confidence, last verified, device, text)");
  add_store_option(*list, args->db, true);
  list->add_flag("--json", args->json, "print a JSON list");
  list->add_option("--state", args->state, "only items in this state")
      ->check(CLI::IsMember({"candidate", "active", "retired"}));
  list->add_option("--kind", args->kind, "only items of this kind")
      ->check(CLI::IsMember({"lesson", "pitfall", "recipe", "kernel"}));
  list->callback([args, &commands] { commands.set_exit_code(list_items(*args)); });

  CLI::App* show = items->add_subcommand("show", "Show one item whole, with its provenance, history and confidence");
  show->add_option("id", args->id, "item id")->required();
  add_store_option(*show, args->db, true);
  show->callback([args, &commands] { commands.set_exit_code(show_item(*args)); });

  for (auto [name, state] : {std::pair{"promote", ItemState::kActive}, std::pair{"retire", ItemState::kRetired}}) {
    CLI::App* cmd =
        items->add_subcommand(name, std::string(name == std::string("promote") ? "Make an item active (shown)"
                                                                               : "Retire an item (never shown again)"));
    cmd->add_option("id", args->id, "item id")->required();
    cmd->add_option("--reason", args->reason, "why (kept in the item's history)")->required();
    db_option(cmd);
    std::string command = std::string("items ") + name;
    cmd->callback([args, &commands, command, state] {
      commands.set_exit_code(change(command.c_str(), *args, [&](const Memory& m, const std::string& date) {
        return set_item_state(m, args->id, state, args->reason, date);
      }));
    });
  }

  CLI::App* label = items->add_subcommand("label", "Replace an item's labels (prohibition, correctness, environment)");
  label->add_option("id", args->id, "item id")->required();
  label->add_option("--set", args->labels, "the labels (none: no labels)");
  label->add_option("--reason", args->reason, "why (kept in the item's history)");
  db_option(label);
  label->callback([args, &commands] {
    commands.set_exit_code(change("items label", *args, [&](const Memory& m, const std::string& date) {
      return set_item_labels(m, args->id, args->labels, args->reason, date);
    }));
  });

  CLI::App* add = items->add_subcommand("add", "Evaluate a kernel and add it as a candidate item when it passes");
  add->add_option("--problem", args->problem, "problem file or id (with --kernelbench)")->required();
  add->add_option("--kernelbench", args->kernelbench, "KernelBench checkout (for a problem id)");
  add->add_option("--code", args->code, "the kernel's source (a ModelNew candidate)")->required();
  add->add_flag("--promote-flagged", args->promote_flagged,
                "admit a pass the evaluator flagged (implausible_speedup, unsteady_timing, host_bound_timing, ...)");
  db_option(add);
  add_evaluator_options(*add, args->evaluator);
  add->callback([args, &commands] { commands.set_exit_code(add_item(*args)); });

  CLI::App* value =
      items->add_subcommand("value", "Per item and reader: the paired score difference shown vs not shown");
  value->add_option("experiment", args->experiment, "experiment name")->required();
  add_results_option(*value, args->results, false);
  value->add_option("--store,--db", args->db, "a database holding the experiment too (when --results is not given)");
  value->add_flag("--json", args->json, "one JSON list");
  value->callback([args, &commands] { commands.set_exit_code(item_value(*args)); });
}

}  // namespace kmem::cli

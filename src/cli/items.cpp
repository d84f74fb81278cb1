// `kmem items list|show|promote|retire|label|add|value`: review the items of
// a store (docs/learning.md, "States"). Every change is one transaction and
// is kept in the item's history with its reason.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "interrupt.h"
#include "kmem/catalog.h"
#include "kmem/episode.h"
#include "kmem/learn.h"
#include "kmem/store.h"
#include "learn_args.h"
#include "kmem/item_kind.h"

namespace kmem::cli {

namespace {

namespace fs = std::filesystem;

struct ItemsArgs {
  std::string db, id, reason, state, kind, problem, kernelbench, code, experiment, episodes_db;
  std::vector<std::string> labels;
  bool json = false, promote_flagged = false;
  EvaluatorArgs evaluator;
};

std::string one_line(const Item& item) {
  std::string what = item.kind == ItemKind::kKernel ? "(code)" : item.text;
  if (what.size() > 70) what = what.substr(0, 67) + "...";
  std::string speed = item.kind == ItemKind::kKernel || item.kind == ItemKind::kRecipe
                          ? fmt::format("{:.2f}x {}", item.speedup, item.source) : "";
  return fmt::format("{:<34} {:<8} {:<9} {:<14} {:<18} {}\n", item.id, item_kind_name(item.kind),
                     item_state_name(item.state), item.category, speed, what);
}

int list_items(const ItemsArgs& args) {
  auto memory = load_memory(args.db);
  if (!memory) return report_error("items list", memory.error());
  std::string out;
  for (const Item& item : memory->items) {
    if (!args.state.empty() && args.state != item_state_name(item.state)) continue;
    if (!args.kind.empty() && args.kind != item_kind_name(item.kind)) continue;
    out += one_line(item);
  }
  if (Status s = write_stdout(out); !s) return report_error("items list", s.error());
  return kExitOk;
}

int show_item(const ItemsArgs& args) {
  auto memory = load_memory(args.db);
  if (!memory) return report_error("items show", memory.error());
  for (const Item& item : memory->items) {
    if (item.id != args.id) continue;
    Memory one = *memory;  // the item as the store format writes it
    one.items = {item};
    auto doc = nlohmann::ordered_json::parse(memory_to_json(one));
    if (Status s = write_stdout(doc["items"][0].dump(1) + "\n"); !s) return report_error("items show", s.error());
    return kExitOk;
  }
  return report_error("items show", Error(fmt::format("{}: no item '{}'", args.db, args.id)));
}

int change(const char* command, const ItemsArgs& args,
           const std::function<Result<Memory>(const Memory&, const std::string& date)>& step) {
  if (!fs::exists(args.db)) return report_error(command, Error(args.db + ": no such database"));
  auto db = Database::open(args.db);
  if (!db) return report_error(command, db.error());
  std::string date = utc_date();
  Status s = db->update([&](const Memory& m) { return step(m, date); });
  if (!s) return report_error(command, s.error());
  if (Status w = write_stdout(fmt::format("{}: {} {}\n", args.db, command + 6, args.id)); !w) return report_error(command, w.error());
  return kExitOk;
}

int add_item(ItemsArgs& args) {
  InterruptGuard guard([](int) {});  // Ctrl-C ends every worker this command started
  resolve_evaluator(args.evaluator);
  auto rules = CategoryRules::load(data_dir() + "/categories.json");
  if (!rules) return report_error("items add", rules.error());
  auto problem = resolve_problem(args.problem, args.kernelbench, *rules);
  if (!problem) return report_error("items add", problem.error());
  auto code = read_file(args.code);
  if (!code) return report_error("items add", code.error());
  auto identity = evaluator_identity(args.evaluator);
  if (!identity) return report_error("items add", identity.error());
  auto evaluator = make_process_evaluator(args.evaluator.eval);
  EvalOutcome outcome = evaluator->evaluate(EvalJob{"items-add", problem->path, fs::absolute(args.code).string()});
  if (outcome.evaluator_failed()) return report_error("items add", Error("the evaluator failed: " + outcome.detail));
  std::string date = utc_date();
  VerifiedCandidate candidate{problem->problem.id, *code, outcome.verdict, outcome.speedup, outcome.flags,
                              Provenance{"user:" + fs::path(args.code).filename().string(), "", identity->version,
                                         identity->gpu, date}};
  if (!outcome.passed()) {
    std::fprintf(stderr, "kmem items add: %s: %s: %s\n", args.code.c_str(), outcome.verdict.c_str(), outcome.message.c_str());
    return kExitRejected;
  }
  auto db = Database::open(args.db);
  if (!db) return report_error("items add", db.error());
  LearnReport report;
  LearnOptions options;
  options.date = date;
  options.promote_flagged = args.promote_flagged;
  Status s = db->update([&](const Memory& m) {
    report = LearnReport{};
    return learn_kernels(m, {candidate}, options, report);
  });
  if (!s) return report_error("items add", s.error());
  if (report.added.empty() && report.updated.empty()) {
    std::fprintf(stderr, "kmem items add: %s\n", report.skipped.empty() ? "not added" : report.skipped.front().c_str());
    return kExitRejected;
  }
  std::string id = report.added.empty() ? report.updated.front() : report.added.front();
  if (Status w = write_stdout(fmt::format("{}: added {} ({:.2f}x, candidate)\n", args.db, id, outcome.speedup)); !w)
    return report_error("items add", w.error());
  return kExitOk;
}

int item_value(const ItemsArgs& args) {
  auto db = Database::open_existing(args.episodes_db.empty() ? args.db : args.episodes_db);
  if (!db) return report_error("items value", db.error());
  auto episodes = db->learning_episodes(args.experiment);
  if (!episodes) return report_error("items value", episodes.error());
  std::vector<ItemValue> values = item_values(*episodes);
  std::string out;
  if (args.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const ItemValue& v : values)
      j.push_back({{"item", v.item}, {"reader", v.reader}, {"problems", v.problems}, {"shown", v.shown},
                   {"not_shown", v.not_shown}, {"difference", v.difference}});
    out = j.dump(1) + "\n";
  } else {
    out = fmt::format("{:<34} {:<24} {:>8} {:>6} {:>9} {:>10}\n", "item", "reader", "problems", "shown", "not shown", "difference");
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
  CLI::App* items = app.add_subcommand("items", "Review a store's items: list, show, promote, retire, label, add, value");
  items->require_subcommand(1);
  auto db_option = [&](CLI::App* cmd) { cmd->add_option("--db", args->db, "kmem database")->required(); };

  CLI::App* list = items->add_subcommand("list", "List items (id, kind, state, category, speedup, text)");
  db_option(list);
  list->add_option("--state", args->state, "only items in this state")->check(CLI::IsMember({"candidate", "active", "retired"}));
  list->add_option("--kind", args->kind, "only items of this kind")->check(CLI::IsMember({"lesson", "pitfall", "recipe", "kernel"}));
  list->callback([args, &commands] { commands.set_exit_code(list_items(*args)); });

  CLI::App* show = items->add_subcommand("show", "Show one item whole, with its provenance and history");
  show->add_option("id", args->id, "item id")->required();
  db_option(show);
  show->callback([args, &commands] { commands.set_exit_code(show_item(*args)); });

  for (auto [name, state] : {std::pair{"promote", ItemState::kActive}, std::pair{"retire", ItemState::kRetired}}) {
    CLI::App* cmd = items->add_subcommand(name, std::string(name == std::string("promote") ? "Make an item active (shown)" : "Retire an item (never shown again)"));
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

  CLI::App* value = items->add_subcommand("value", "Per item and reader: the paired score difference shown vs not shown");
  value->add_option("experiment", args->experiment, "experiment name")->required();
  db_option(value);
  value->add_option("--episodes-db", args->episodes_db, "database holding the experiment (default: --db)");
  value->add_flag("--json", args->json, "one JSON list");
  value->callback([args, &commands] { commands.set_exit_code(item_value(*args)); });
}

}  // namespace kmem::cli

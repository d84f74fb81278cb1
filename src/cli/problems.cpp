// `kmem problems import KERNELBENCH_DIR --store DB` reads a KernelBench
// checkout into the database's problem table (items and baselines kept);
// `kmem problems list [--store S] [--json]` shows id, level, name and
// category (of a store JSON or a database, by default the bundled seed).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "kmem/catalog.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

struct ProblemsOptions {
  std::string kernelbench;
  std::string db;
  std::string rules;
  bool json = false;
};

int run_import(const ProblemsOptions& options) {
  std::string rules_path = options.rules.empty() ? data_dir() + "/categories.json" : options.rules;
  auto rules = CategoryRules::load(rules_path);
  if (!rules) return report_error("problems", rules.error());
  auto files = scan_kernelbench(options.kernelbench, *rules);
  if (!files) return report_error("problems", files.error());
  std::vector<Problem> problems;
  for (const ProblemFile& file : *files) problems.push_back(file.problem);
  auto db = Database::open(options.db);
  if (!db) return report_error("problems", db.error());
  if (Status s = db->upsert_problems(problems); !s) return report_error("problems", s.error());
  if (Status s = write_stdout(
          fmt::format("{}: stored {} problems from {}\n", options.db, problems.size(), options.kernelbench));
      !s)
    return report_error("problems", s.error());
  return kExitOk;
}

int run_list(const ProblemsOptions& options) {
  std::string path = store_or_seed(options.db);
  if (!std::filesystem::exists(path)) return report_error("problems", Error(path + ": no such store"));
  std::map<std::string, Problem> by_id;
  auto start = util::read_file_start(path, 16);
  if (!start) return report_error("problems", start.error());
  if (start->rfind("SQLite format 3", 0) == 0) {  // a database may hold a catalogue and no memory yet
    auto db = Database::open_existing(path);
    if (!db) return report_error("problems", db.error());
    auto found = db->problems();
    if (!found) return report_error("problems", found.error());
    by_id = std::move(*found);
  } else {
    auto memory = load_memory(path);
    if (!memory) return report_error("problems", memory.error());
    by_id = memory->problems;
  }
  std::vector<Problem> problems;
  for (const auto& [id, p] : by_id) problems.push_back(p);
  std::sort(problems.begin(), problems.end(), [](const Problem& a, const Problem& b) {
    return std::pair(a.level, a.number) < std::pair(b.level, b.number);
  });
  std::string text;
  if (options.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Problem& p : problems)
      out.push_back(
          {{"id", p.id}, {"level", p.level}, {"number", p.number}, {"name", p.name}, {"category", p.category}});
    text = out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  } else {
    for (const Problem& p : problems) text += fmt::format("{:<7} {} {:<15} {}\n", p.id, p.level, p.category, p.name);
  }
  if (Status s = write_stdout(text); !s) return report_error("problems", s.error());
  return kExitOk;
}

}  // namespace

void add_problems_command(CLI::App& app, CommandSet& commands) {
  auto options = std::make_shared<ProblemsOptions>();
  CLI::App* problems = app.add_subcommand("problems", "The problem catalogue");
  problems->require_subcommand(1);

  CLI::App* import = problems->add_subcommand("import", "Store the problems of a KernelBench checkout");
  import->add_option("kernelbench", options->kernelbench, "KernelBench folder (with level<N>/ or KernelBench/)")
      ->required();
  add_store_option(*import, options->db, false)->description("the kmem database (created if missing; --db: the same)");
  import->add_option("--rules", options->rules, "category rules (default: <data>/categories.json)");
  import->callback([options, &commands] { commands.set_exit_code(run_import(*options));
});

CLI::App* list = problems->add_subcommand("list", "Show id, level, category and name of each problem");
add_store_option(*list, options->db, true);
list->add_flag("--json", options->json, "print a JSON list");
list->callback([options, &commands] { commands.set_exit_code(run_list(*options)); });
}  // namespace kmem::cli

}  // namespace kmem::cli

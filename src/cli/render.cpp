// `kmem render`: prints the memory prompt of one policy, reader and problem,
// or (--all) a JSON object {policy: {reader: {problem: text}}} of every
// policy, reader and target problem. Defaults to the bundled seed store and
// prompt pack.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "kmem/memory.h"
#include "kmem/store.h"

namespace kmem::cli {
namespace {

struct RenderOptions {
  std::string store;
  std::string pack;
  std::string policy;
  std::string reader;
  std::string problem;
  bool all = false;
};

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error(path + ": cannot read");
  return text.str();
}

// Prints the prompt(s); returns the exit code.
int run_render(const RenderOptions& options) {
  if (!options.all && (options.policy.empty() || options.reader.empty() || options.problem.empty())) {
    return report_error("render", Error("give --policy, --reader and --problem, or --all"));
  }
  std::string store_path = options.store.empty() ? data_dir() + "/seed/memory-store.json" : options.store;
  std::string pack_path = options.pack.empty() ? data_dir() + "/seed/prompt-pack.json" : options.pack;
  auto memory = load_memory(store_path);
  if (!memory) return report_error("render", memory.error());
  auto indexed = IndexedMemory::build(std::move(*memory));
  if (!indexed) return report_error("render", indexed.error().wrap(store_path));
  auto pack_text = read_text(pack_path);
  if (!pack_text) return report_error("render", pack_text.error());
  auto pack = parse_pack_json(*pack_text, pack_path);
  if (!pack) return report_error("render", pack.error());

  if (options.all) {
    auto table = render_all(*indexed, *pack);
    if (!table) return report_error("render", table.error());
    try {
      std::cout << nlohmann::json(*table).dump(1) << "\n";
    } catch (const nlohmann::json::type_error& e) {  // text that is not UTF-8
      return report_error("render", Error(e.what()));
    }
    return kExitOk;
  }
  auto text = render_prompt(*indexed, *pack, options.policy, options.reader, options.problem);
  if (!text) return report_error("render", text.error());
  std::cout << *text;
  return kExitOk;
}

}  // namespace

void add_render_command(CLI::App& app, CommandSet& commands) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* render = app.add_subcommand("render", "Print the memory prompt a reader sees for a problem");
  render->add_option("--store", options->store, "Store JSON file or kmem database (default: bundled seed)");
  render->add_option("--pack", options->pack, "Prompt pack JSON file (default: bundled seed pack)");
  auto* policy = render->add_option("--policy", options->policy, "Policy name from the pack");
  auto* reader = render->add_option("--reader", options->reader, "Reader id from the store");
  auto* problem = render->add_option("--problem", options->problem, "Problem id, e.g. L1_008");
  render->add_flag("--all", options->all, "Render every policy x reader x target problem as JSON")
      ->excludes(policy, reader, problem);
  render->callback([options, &commands] { commands.set_exit_code(run_render(*options)); });
}

}  // namespace kmem::cli

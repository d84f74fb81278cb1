// `kmem readers [--store S] [--json]`: the readers a store knows and how many
// problems and groups each has a baseline for.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

struct ReadersArgs {
  std::string store;
  bool json = false;
};

int run_readers(const ReadersArgs& args) {
  auto memory = load_memory(store_or_seed(args.store));
  if (!memory) return report_error("readers", memory.error());
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string out = fmt::format("{:<28} {:>8} {:>7}  {}\n", "reader", "problems", "groups", "display");
  for (const auto& [id, reader] : memory->readers) {
    auto b = memory->baselines.find(id);
    size_t problems = b == memory->baselines.end() ? 0 : b->second.problems.size();
    size_t groups = b == memory->baselines.end() ? 0 : b->second.groups.size();
    out += fmt::format("{:<28} {:>8} {:>7}  {}{}\n", id, problems, groups, reader.display,
                       id == memory->author ? " (author)" : "");
    list.push_back({{"id", id},
                    {"display", reader.display},
                    {"author", id == memory->author},
                    {"problems", problems},
                    {"groups", groups}});
  }
  if (args.json) out = list.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (Status s = write_stdout(out); !s) return report_error("readers", s.error());
  return kExitOk;
}

}  // namespace

void add_readers_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<ReadersArgs>();
  CLI::App* cmd = app.add_subcommand("readers", "List the readers of a store with their baseline counts");
  add_store_option(*cmd, args->store, true);
  cmd->add_flag("--json", args->json, "print a JSON list");
  cmd->callback([args, &commands] { commands.set_exit_code(run_readers(*args)); });
}

}  // namespace kmem::cli

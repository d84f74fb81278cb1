// `kmem readers --db DB`: the readers a store knows and how many problems
// and groups each has a baseline for.
#include <fmt/format.h>

#include "commands.h"
#include "files.h"
#include "kmem/store.h"

namespace kmem::cli {

void add_readers_command(CLI::App& app, CommandSet& commands) {
  auto db = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("readers", "List the readers of a store with their baseline counts");
  cmd->add_option("--db", *db, "kmem database or store file")->required();
  cmd->callback([db, &commands] {
    auto memory = load_memory(*db);
    if (!memory) return commands.set_exit_code(report_error("readers", memory.error()));
    std::string out = fmt::format("{:<28} {:>8} {:>7}  {}\n", "reader", "problems", "groups", "display");
    for (const auto& [id, reader] : memory->readers) {
      auto b = memory->baselines.find(id);
      size_t problems = b == memory->baselines.end() ? 0 : b->second.problems.size();
      size_t groups = b == memory->baselines.end() ? 0 : b->second.groups.size();
      out += fmt::format("{:<28} {:>8} {:>7}  {}{}\n", id, problems, groups, reader.display,
                         id == memory->author ? " (author)" : "");
    }
    if (Status s = write_stdout(out); !s) return commands.set_exit_code(report_error("readers", s.error()));
    commands.set_exit_code(kExitOk);
  });
}

}  // namespace kmem::cli

// `kmem import SOURCE --store DB`: replaces the content of a kmem database by a
// store (a kmem-memory-store/1 JSON file or another kmem database).
#include <fmt/format.h>

#include "commands.h"
#include "files.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

struct ImportOptions {
  std::string store;
  std::string db;
};

int run_import(const ImportOptions& options) {
  auto memory = load_memory(options.store);
  if (!memory) return report_error("import", memory.error());
  auto db = Database::open(options.db);
  if (!db) return report_error("import", db.error());
  if (Status s = db->replace(*memory); !s) return report_error("import", s.error());
  std::string report =
      fmt::format("{}: imported {} readers, {} problems, {} items from {}\n", options.db, memory->readers.size(),
                  memory->problems.size(), memory->items.size(), options.store);
  if (Status s = write_stdout(report); !s) return report_error("import", s.error());
  return kExitOk;
}

}  // namespace

void add_import_command(CLI::App& app, CommandSet& commands) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App* cmd = app.add_subcommand("import", "Replace a database's memory by a store file, in one transaction");
  cmd->add_option("store", options->store, "kmem-memory-store/1 JSON file (or a kmem database)")->required();
  add_store_option(*cmd, options->db, false)
      ->description("the kmem database to write (created if missing; --db: the same)");
  cmd->callback([options, &commands] { commands.set_exit_code(run_import(*options)); });
}

}  // namespace kmem::cli

// --store and --results, shared by every command.
#include "store_option.h"

#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "files.h"

namespace kmem::cli {

CLI::Option* add_store_option(CLI::App& cmd, std::string& path, bool reads_seed) {
  auto* option = cmd.add_option("--store,--db", path,
                                reads_seed ? "the memory: a store JSON or a kmem database (default: the bundled seed)"
                                           : "the memory: a kmem database (--db: the same)");
  if (!reads_seed) option->required();
  return option;
}

std::string store_or_seed(const std::string& path) {
  return path.empty() ? data_dir() + "/seed/memory-store.json" : path;
}

Result<Database> open_store_database(const std::string& path, bool create) {
  if (path.rfind("postgresql://", 0) == 0 || path.rfind("postgres://", 0) == 0) return Database::open(path);
  if (!std::filesystem::exists(path)) {
    if (!create) return Error(path + ": no such database");
    return Database::open(path);
  }
  if (Status s = util::check_regular_file(path); !s) return s.error();
  auto start = util::read_file_start(path, 16);
  if (!start) return start.error();
  if (start->rfind("SQLite format 3", 0) != 0)
    return Error(fmt::format(
        "{}: a store file, not a database: changes go to a database (kmem import {} --store kmem.db)", path, path));
  return Database::open(path);
}

CLI::Option* add_results_option(CLI::App& cmd, std::string& path, bool db_alias) {
  return cmd.add_option(db_alias ? "--results,--db" : "--results,--episodes-db", path,
                        "the kmem database experiments are kept in");
}

}  // namespace kmem::cli

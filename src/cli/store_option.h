// The options that name a memory and an experiments database, the same on
// every command (docs/cli.md, "Memory and results"): --store PATH is the
// memory, a kmem-memory-store/1 JSON file or a kmem database (--db is its
// older name); --results DB is the database experiments are kept in.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "kmem/result.h"
#include "kmem/store.h"

namespace kmem::cli {

// Adds --store (alias --db). `reads_seed`: the bundled seed when it is not
// given (a command that only reads); else it is required.
CLI::Option* add_store_option(CLI::App& cmd, std::string& path, bool reads_seed);

// `path`, or the bundled seed store when empty.
std::string store_or_seed(const std::string& path);

// The kmem database a change goes to (created when missing and `create`). A
// store JSON file is refused with the command that makes a database of it.
Result<Database> open_store_database(const std::string& path, bool create);

// Adds --results: the database holding experiments. `db_alias`: --db is its
// older name too (the experiment commands); otherwise --episodes-db is.
CLI::Option* add_results_option(CLI::App& cmd, std::string& path, bool db_alias);

}  // namespace kmem::cli

// The subcommands of the kmem program. Each add_*_command registers one
// subcommand on the app; its callback stores the exit code in the CommandSet.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "kmem/result.h"

namespace kmem::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitUsage = 2;

// Collects the exit code of whichever subcommand ran.
class CommandSet {
 public:
  void set_exit_code(int code) { exit_code_ = code; }
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_ = kExitOk;
};

// Prints `kmem <command>: <error>` on stderr, one line; returns kExitUsage.
inline int report_error(const char* command, const Error& error) {
  std::fprintf(stderr, "kmem %s: %s\n", command, error.message().c_str());
  return kExitUsage;
}

void add_import_command(CLI::App& app, CommandSet& commands);
void add_export_command(CLI::App& app, CommandSet& commands);
void add_problems_command(CLI::App& app, CommandSet& commands);

void add_render_command(CLI::App& app, CommandSet& commands);
// `kmem check`: the static checker (src/cli/check.cpp).
void add_check_command(CLI::App& app, CommandSet& commands);
void add_eval_command(CLI::App& app, CommandSet& commands);
// `kmem episode`: one agent episode against an endpoint (src/cli/episode.cpp).
void add_episode_command(CLI::App& app, CommandSet& commands);
// `kmem experiment run|report` (src/cli/experiment.cpp).
void add_experiment_command(CLI::App& app, CommandSet& commands);
// Learning (docs/learning.md): `kmem ingest`, `kmem readers`, `kmem items ...`,
// `kmem reverify` (src/cli/ingest.cpp, readers.cpp, items.cpp, reverify.cpp).
void add_ingest_command(CLI::App& app, CommandSet& commands);
void add_readers_command(CLI::App& app, CommandSet& commands);
void add_items_command(CLI::App& app, CommandSet& commands);
void add_reverify_command(CLI::App& app, CommandSet& commands);

// Where the bundled data (seed memory, prompt pack, rule tables) and the Python
// worker live: $KMEM_DATA_DIR / $KMEM_PYTHON_DIR, else found from the binary's
// own location (src/cli/paths.cpp).
std::string data_dir();
std::string python_dir();

}  // namespace kmem::cli

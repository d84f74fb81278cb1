// Entry point of the kmem program: builds the command tree from the
// subcommands in this folder and maps their outcome to the exit code
// (0 success, 1 a negative verdict, 2 usage or I/O error).
#include <CLI/CLI.hpp>
#include <string>

#include "commands.h"
#include "kmem_git_commit.h"
#include "worker_command.h"

int main(int argc, char** argv) {
  CLI::App app{"kmem: a verified-experience memory for GPU-kernel agents"};
  // KMEM_VERSION comes from CMake, KMEM_GIT_COMMIT (empty outside a git checkout) from git_commit.cmake.
  app.set_version_flag("--version", std::string("kmem ") + KMEM_VERSION +
                                        (*KMEM_GIT_COMMIT ? std::string(" (") + KMEM_GIT_COMMIT + ")" : ""));
  app.require_subcommand(1);
  kmem::cli::CommandSet commands;
  kmem::cli::add_import_command(app, commands);
  kmem::cli::add_export_command(app, commands);
  kmem::cli::add_problems_command(app, commands);
  kmem::cli::add_render_command(app, commands);
  kmem::cli::add_policies_command(app, commands);
  kmem::cli::add_check_command(app, commands);
  kmem::cli::add_eval_command(app, commands);
  kmem::cli::add_episode_command(app, commands);
  kmem::cli::add_experiment_command(app, commands);
  kmem::cli::add_ingest_command(app, commands);
  kmem::cli::add_readers_command(app, commands);
  kmem::cli::add_items_command(app, commands);
  kmem::cli::add_reverify_command(app, commands);
  kmem::cli::add_serve_command(app, commands);
  kmem::cli::add_worker_command(app, commands);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kmem::cli::kExitUsage;
  }
  return commands.exit_code();
}

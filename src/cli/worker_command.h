// `kmem worker`: drains a database's job queue (src/cli/worker.cpp,
// docs/scale-out.md).
#pragma once

#include <CLI/CLI.hpp>

#include "commands.h"

namespace kmem::cli {

void add_worker_command(CLI::App& app, CommandSet& commands);

}  // namespace kmem::cli

// `kmem export [--store S] [--out F]`: writes a memory (a database, by
// default the bundled seed) as canonical
// kmem-memory-store/1 JSON, to stdout by default.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "commands.h"
#include "files.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

struct ExportOptions {
  std::string db;
  std::string out;
};

int run_export(const ExportOptions& options) {
  std::string path = store_or_seed(options.db);
  if (!std::filesystem::exists(path)) return report_error("export", Error(path + ": no such store"));
  auto memory = load_memory(path);
  if (!memory) return report_error("export", memory.error());
  std::string text = memory_to_json(*memory);
  if (options.out.empty()) {
    if (Status s = write_stdout(text); !s) return report_error("export", s.error());
    return kExitOk;
  }
  std::ofstream out(options.out, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return report_error("export", Error(options.out + ": cannot write the store"));
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, CommandSet& commands) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand("export", "Write a database's memory as kmem-memory-store/1 JSON");
  add_store_option(*cmd, options->db, true);
  cmd->add_option("--out", options->out, "file to write (default: stdout)");
  cmd->callback([options, &commands] { commands.set_exit_code(run_export(*options)); });
}

}  // namespace kmem::cli

// `kmem check FILE` / `kmem check --dir DIR`: runs the static checker on a
// reply (any file) or a bare candidate (*.py) and prints the verdicts as
// `FILE:LINE:COL: code: message` lines or, with --json, as JSON.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "files.h"
#include "kmem/check.h"

namespace kmem::cli {
namespace {

namespace fs = std::filesystem;

struct CheckOptions {
  std::string file;
  std::string dir;
  bool json = false;
};

std::vector<Verdict> check_text(Checker& checker, const fs::path& path, std::string_view text) {
  return path.extension() == ".py" ? checker.check_source(text) : checker.check_reply(text);
}

nlohmann::json to_json(const std::vector<Verdict>& verdicts) {
  nlohmann::json list = nlohmann::json::array();
  for (const Verdict& v : verdicts)
    list.push_back({{"code", v.code}, {"message", v.message}, {"line", v.line}, {"column", v.column}});
  return list;
}

// JSON text; bytes that are not UTF-8 (a reply in another encoding, quoted
// in a message) become U+FFFD instead of aborting the dump.
std::string dump(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

void print_text(const std::string& name, const std::vector<Verdict>& verdicts) {
  for (const Verdict& v : verdicts) {
    std::cout << name << ':';
    if (v.line > 0) std::cout << v.line << ':' << v.column << ':';
    std::cout << ' ' << v.code << ": " << v.message << '\n';
  }
}

int run_check(const CheckOptions& options) {
  // name -> verdicts, in file-name order
  std::map<std::string, std::vector<Verdict>> results;
  std::vector<fs::path> files;
  if (!options.dir.empty()) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(options.dir, error))
      if (entry.is_regular_file()) files.push_back(entry.path());
    if (error) {
      std::cerr << "kmem check: " << options.dir << ": " << error.message() << '\n';
      return kExitUsage;
    }
  } else {
    files.push_back(options.file);
  }
  Checker checker;
  for (const fs::path& path : files) {
    auto text = read_file(path.string());
    if (!text) return report_error("check", text.error());
    std::string name = options.dir.empty() ? path.string() : path.filename().string();
    results[name] = check_text(checker, path, *text);
  }
  bool rejected = false;
  nlohmann::json by_file = nlohmann::json::object();
  for (const auto& [name, verdicts] : results) {
    rejected = rejected || !verdicts.empty();
    if (!options.json)
      print_text(name, verdicts);
    else if (options.dir.empty())
      std::cout << dump(to_json(verdicts)) << '\n';
    else
      by_file[name] = to_json(verdicts);
  }
  if (options.json && !options.dir.empty()) std::cout << dump(by_file) << '\n';
  return rejected ? kExitRejected : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, CommandSet& commands) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* check = app.add_subcommand(
      "check", "Run the static checker on a reply or a candidate .py (exit 1 when rejected)");
  auto* file = check->add_option("file", options->file, "A reply, or a bare candidate ending in .py");
  auto* dir = check->add_option("--dir", options->dir, "Check every file of this folder");
  file->excludes(dir);
  dir->excludes(file);
  check->add_flag("--json", options->json,
                  "JSON: a list of {code, message, line, column}; with --dir an object keyed by "
                  "file name");
  check->callback([options, &commands] {
    if (options->file.empty() && options->dir.empty())
      throw CLI::RequiredError("FILE or --dir");
    commands.set_exit_code(run_check(*options));
  });
}

}  // namespace kmem::cli

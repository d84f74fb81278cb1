// `kmem check FILE...` / `kmem check --dir DIR`: runs the static checker on
// replies (any file) and bare candidates (*.py) and prints the offences as
// `FILE:LINE:COL: code: message` lines or, with --json, as one JSON list of
// {"file", "verdicts": [{code, message, line, column}]}, one object per file
// (also for one file). Lines count in the file as given (a reply's, not its
// code block's). Exit 1 when any file is rejected.
#include "kmem/check.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"

namespace kmem::cli {
namespace {

namespace fs = std::filesystem;

struct CheckOptions {
  std::vector<std::string> files;
  std::string dir;
  bool json = false;
};

std::vector<Offence> check_text(Checker& checker, const fs::path& path, std::string_view text) {
  return path.extension() == ".py" ? checker.check_source(text) : checker.check_reply(text);
}

nlohmann::json to_json(const std::string& name, const std::vector<Offence>& offences) {
  nlohmann::json list = nlohmann::json::array();
  for (const Offence& v : offences)
    list.push_back({{"code", v.code}, {"message", v.message}, {"line", v.line}, {"column", v.column}});
  return {{"file", name}, {"verdicts", list}};
}

void print_text(const std::string& name, const std::vector<Offence>& offences) {
  for (const Offence& v : offences) {
    std::cout << name << ':';
    if (v.line > 0) std::cout << v.line << ':' << v.column << ':';
    std::cout << ' ' << v.code << ": " << v.message << '\n';
  }
}

// The files to check, each with the name its offences are shown under: the
// paths as given, or the regular files of --dir (by name, sorted).
Result<std::vector<std::pair<fs::path, std::string>>> files_to_check(const CheckOptions& options) {
  std::vector<std::pair<fs::path, std::string>> files;
  for (const auto& file : options.files) files.emplace_back(file, file);
  if (options.dir.empty()) return files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(options.dir, error))
    if (entry.is_regular_file()) files.emplace_back(entry.path(), entry.path().filename().string());
  if (error) return Error(options.dir + ": " + error.message());
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return files;
}

int run_check(const CheckOptions& options) {
  auto files = files_to_check(options);
  if (!files) return report_error("check", files.error());
  // Every file is read before any verdict is printed: an unreadable one is
  // a usage error, with no partial output.
  std::vector<std::string> texts;
  for (const auto& [path, name] : *files) {
    auto text = util::read_file(path.string());
    if (!text) return report_error("check", text.error());
    texts.push_back(std::move(*text));
  }
  Checker checker;
  bool rejected = false;
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < files->size(); ++i) {
    const auto& [path, name] = (*files)[i];
    std::vector<Offence> offences = check_text(checker, path, texts[i]);
    rejected = rejected || !offences.empty();
    if (options.json) list.push_back(to_json(name, offences));
    else print_text(name, offences);
  }
  // Bytes that are not UTF-8 (a reply in another encoding, quoted in a
  // message) become U+FFFD instead of aborting the dump.
  if (options.json) std::cout << list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  return rejected ? kExitRejected : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, CommandSet& commands) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* check = app.add_subcommand(
      "check", "Run the static checker on replies or candidate .py files (exit 1 when any is rejected)");
  auto* files = check->add_option("files", options->files, "Replies, or bare candidates ending in .py");
  auto* dir = check->add_option("--dir", options->dir, "Check every file of this folder");
  files->excludes(dir);
  dir->excludes(files);
  check->add_flag("--json", options->json,
                  "JSON: a list with one {file, verdicts: [{code, message, line, column}]} per file");
  check->callback([options, &commands] {
    if (options->files.empty() && options->dir.empty()) throw CLI::RequiredError("FILE... or --dir");
    commands.set_exit_code(run_check(*options));
  });
}

}  // namespace kmem::cli

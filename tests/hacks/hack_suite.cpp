// The hack suite runner: evaluates every case of manifest.json for one device
// with `kmem eval --jobs` and checks each verdict against the expected code
// (and, where a case names one in "flag", that the outcome carries that flag:
// a decoy kernel passes, flagged negligible_own_work). An expected code may
// list alternatives, "a|b": a wrong output caught in the trials or in the
// timed calls, as the allocator happens to hand out buffers.
// Prints a table (case, hack, expected, got) and a closing count line; exits 0
// when all match, 1 otherwise, and 77 (CTest's skip code) when the device is
// not there.
//
//   hack_suite --kmem build/kmem --suite tests/hacks --device cpu|cuda [--parallel N]
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr int kSkipped = 77;

int run(const std::string& command) {
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

bool cuda_available(const std::string& python) {
  return run(python + " -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null") == 0;
}

std::string default_python() {
  if (const char* p = std::getenv("KMEM_PYTHON")) return p;
  return run("/usr/bin/python3 -c 'import torch' 2>/dev/null") == 0 ? "/usr/bin/python3" : "python3";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run the evaluator's hack suite"};
  std::string kmem, suite, device = "cpu", work;
  int parallel = 2;
  app.add_option("--kmem", kmem, "The kmem program")->required();
  app.add_option("--suite", suite, "The suite folder (holding manifest.json)")->required();
  app.add_option("--device", device, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--parallel", parallel, "Candidates evaluated at once");
  app.add_option("--work", work, "Folder for the jobs and results files (default: a fresh temporary one)");
  CLI11_PARSE(app, argc, argv);

  if (device == "cuda" && !cuda_available(default_python())) {
    std::cout << "no CUDA GPU: the cuda cases are skipped\n";
    return kSkipped;
  }
  std::ifstream manifest_file(fs::path(suite) / "manifest.json");
  if (!manifest_file) {
    std::cerr << suite << "/manifest.json: cannot open\n";
    return 2;
  }
  Json manifest = Json::parse(manifest_file);

  if (work.empty()) work = (fs::temp_directory_path() / fmt::format("kmem-hacks-{}-{}", device, getpid())).string();
  fs::create_directories(work);
  fs::path jobs = fs::path(work) / "jobs.jsonl", results = fs::path(work) / "results.jsonl";
  fs::remove(results);
  std::map<std::string, Json> expected;
  {
    std::ofstream out(jobs);
    for (const Json& c : manifest.at("cases")) {
      if (c.at("device") != device) continue;
      std::string id = c.at("case");
      expected[id] = c;
      out << Json{{"id", id},
                  {"problem", fs::absolute(fs::path(suite) / c.at("problem").get<std::string>()).string()},
                  {"candidate", fs::absolute(fs::path(suite) / c.at("candidate").get<std::string>()).string()}}
                 .dump()
          << "\n";
    }
  }
  std::string command = fmt::format("'{}' eval --jobs '{}' --out '{}' --device {} --parallel {} >'{}/eval.log' 2>&1",
                                    kmem, jobs.string(), results.string(), device, parallel, work);
  int rc = run(command);

  std::map<std::string, Json> got;
  std::ifstream in(results);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) {
      Json r = Json::parse(line, nullptr, false);
      if (!r.is_discarded()) got[r.value("id", "")] = r;
    }

  int passed = 0, failed = 0;
  std::cout << fmt::format("{:<26} {:<24} {:<24} {}\n", "case", "expected", "got", "hack");
  for (const auto& [id, c] : expected) {
    std::string want = c.at("expected"), have = got.contains(id) ? got[id].value("verdict", "?") : "(no result)";
    std::string flag;
    if (c.contains("flag")) {
      flag = "+" + c.at("flag").get<std::string>();
      want += flag;
      const Json flags = got.contains(id) ? got[id].value("flags", Json::array()) : Json::array();
      if (std::find(flags.begin(), flags.end(), c.at("flag")) != flags.end()) have += flag;
    }
    bool ok = false;
    const std::string codes = c.at("expected");
    for (size_t start = 0; start <= codes.size() && !ok;) {
      size_t bar = std::min(codes.find('|', start), codes.size());
      ok = codes.substr(start, bar - start) + flag == have;
      start = bar + 1;
    }
    (ok ? passed : failed)++;
    std::cout << fmt::format("{:<26} {:<24} {:<24} {}{}\n", id, want, have, c.at("hack").get<std::string>(),
                             ok ? "" : "   <-- MISMATCH");
    if (!ok && got.contains(id)) std::cout << "    detail: " << got[id].value("detail", "") << "\n";
  }
  if (rc != 0 && rc != 1) std::cout << "kmem eval exited " << rc << "; its log is " << work << "/eval.log\n";
  std::cout << fmt::format("{} passed, {} failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

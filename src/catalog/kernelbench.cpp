// Reads problems from the files of a KernelBench checkout.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "kmem/catalog.h"
#include "util/file.h"

namespace kmem {

namespace fs = std::filesystem;

namespace {

const std::regex kProblemFile(R"((\d+)_(.+)\.py)");
const std::regex kLevelFolder(R"(level(\d{1,3}))");

// The folder holding level<L>/: `dir` itself or its KernelBench/ subfolder.
std::optional<fs::path> levels_root(const fs::path& dir) {
  for (const fs::path& candidate : {dir, dir / "KernelBench"}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(candidate, ec))
      if (entry.is_directory(ec) && std::regex_match(entry.path().filename().string(), kLevelFolder)) return candidate;
  }
  return std::nullopt;
}

}  // namespace

std::string problem_id(int level, int number) { return fmt::format("L{}_{:03d}", level, number); }

Result<ProblemFile> read_problem_file(const std::string& path, int level, const CategoryRules& rules) {
  std::string file = fs::path(path).filename().string();
  std::smatch match;
  if (!std::regex_match(file, match, kProblemFile))
    return Error(fmt::format("{}: a problem file is named <number>_<Name>.py", path));
  int number = 0;
  try {
    number = std::stoi(match[1].str());
  } catch (const std::exception&) {
    return Error(fmt::format("{}: problem number out of range", path));
  }
  if (number < 1 || number > 999) return Error(fmt::format("{}: problem number must be 1 to 999", path));
  auto source = util::read_file(path);
  if (!source) return source.error();

  ProblemFile out;
  out.path = path;
  out.problem.id = problem_id(level, number);
  out.problem.level = level;
  out.problem.number = number;
  out.problem.name = match[2].str();
  auto category = rules.classify(level, out.problem.name, *source);
  if (!category) return Error(fmt::format("{}: no category rule holds for {}", path, out.problem.id));
  out.problem.category = *category;
  return out;
}

Result<std::vector<ProblemFile>> scan_kernelbench(const std::string& dir, const CategoryRules& rules) {
  auto root = levels_root(dir);
  if (!root) return Error(fmt::format("{}: no level<N> folders here or in {}/KernelBench", dir, dir));
  std::map<std::string, ProblemFile> by_id;
  std::error_code ec;
  for (const auto& folder : fs::directory_iterator(*root, ec)) {
    std::string folder_name = folder.path().filename().string();
    std::smatch match;
    if (!folder.is_directory(ec) || !std::regex_match(folder_name, match, kLevelFolder)) continue;
    int level = std::stoi(match[1].str());
    for (const auto& entry : fs::directory_iterator(folder.path(), ec)) {
      if (!entry.is_regular_file(ec) || !std::regex_match(entry.path().filename().string(), kProblemFile)) continue;
      auto problem = read_problem_file(entry.path().string(), level, rules);
      if (!problem) return problem.error();
      auto [it, inserted] = by_id.emplace(problem->problem.id, *problem);
      if (!inserted)
        return Error(fmt::format("{}: {} is also {}", problem->path, problem->problem.id, it->second.path));
    }
    if (ec) return Error(fmt::format("{}: cannot list: {}", folder.path().string(), ec.message()));
  }
  if (ec) return Error(fmt::format("{}: cannot list: {}", root->string(), ec.message()));
  std::vector<ProblemFile> out;
  for (auto& [id, problem] : by_id) out.push_back(std::move(problem));
  std::sort(out.begin(), out.end(), [](const ProblemFile& a, const ProblemFile& b) {
    return std::pair(a.problem.level, a.problem.number) < std::pair(b.problem.level, b.problem.number);
  });
  return out;
}

Result<ProblemFile> resolve_problem(const std::string& path_or_id, const std::string& kernelbench_dir,
                                    const CategoryRules& rules) {
  static const std::regex kId(R"(L(\d{1,3})_(\d{3}))");
  std::smatch match;
  if (std::regex_match(path_or_id, match, kId)) {
    if (kernelbench_dir.empty())
      return Error(fmt::format("{}: a problem id needs a KernelBench folder to find its file", path_or_id));
    auto root = levels_root(kernelbench_dir);
    if (!root)
      return Error(fmt::format("{}: no level<N> folders here or in {}/KernelBench", kernelbench_dir, kernelbench_dir));
    int level = std::stoi(match[1].str()), number = std::stoi(match[2].str());
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(*root / fmt::format("level{}", level), ec)) {
      std::smatch file;
      std::string name = entry.path().filename().string();
      if (entry.is_regular_file(ec) && std::regex_match(name, file, kProblemFile) && std::stoi(file[1].str()) == number)
        return read_problem_file(entry.path().string(), level, rules);
    }
    return Error(fmt::format("{}: no such problem in {}", path_or_id, kernelbench_dir));
  }
  std::smatch level;
  std::string folder = fs::path(path_or_id).parent_path().filename().string();
  if (!std::regex_match(folder, level, kLevelFolder))
    return Error(
        fmt::format("{}: a problem file lies in a level<N> folder (its level) or is named by its id", path_or_id));
  if (!fs::exists(path_or_id)) return Error(path_or_id + ": no such problem file");
  if (Status s = util::check_regular_file(path_or_id); !s)
    return Error(s.error().message() + " (given as the problem file)");
  return read_problem_file(path_or_id, std::stoi(level[1].str()), rules);
}

}  // namespace kmem

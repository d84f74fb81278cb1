// The problem catalogue: reads a KernelBench checkout (level<L>/<N>_<Name>.py)
// into kmem::Problem values: id L<level>_<N:03d>, name (the file stem without
// the number) and category. Categories come from an ordered rule table (data,
// data/categories.json, described in docs/categories.md): the first rule of
// the problem's level whose conditions hold names the category.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem {

// One row of the category table. A rule holds when every condition it has
// holds; a condition holds when any of its keywords matches. Name keywords
// are matched against the lower-cased name, source keywords verbatim.
struct CategoryRule {
  std::vector<int> levels;  // empty: every level
  std::vector<std::string> name_contains;
  std::vector<std::string> name_starts_with;
  std::vector<std::string> source_contains;
  std::string category;
};

class CategoryRules {
 public:
  // Parses a kmem-category-rules/1 document; errors name `source_name` and the rule.
  static Result<CategoryRules> parse(std::string_view text, const std::string& source_name);
  static Result<CategoryRules> load(const std::string& path);

  // The category of a problem, or nothing when no rule holds.
  std::optional<std::string> classify(int level, std::string_view name, std::string_view source) const;

  const std::vector<CategoryRule>& rules() const { return rules_; }

 private:
  std::vector<CategoryRule> rules_;
};

// "L<level>_<number:03d>".
std::string problem_id(int level, int number);

// A problem and the file it was read from.
struct ProblemFile {
  Problem problem;
  std::string path;
};

// Reads one problem file `<N>_<Name>.py` of `level`.
Result<ProblemFile> read_problem_file(const std::string& path, int level, const CategoryRules& rules);

// A problem named by a file path (its level from the folder name level<L>)
// or by an id L<level>_<nnn>, looked up in the KernelBench checkout
// `kernelbench_dir` (an id with an empty folder is an error naming it).
Result<ProblemFile> resolve_problem(const std::string& path_or_id, const std::string& kernelbench_dir,
                                    const CategoryRules& rules);

// Reads every problem of a KernelBench checkout: `dir` holds level<L>/
// folders (or a KernelBench/ folder that does). Files not named <N>_<Name>.py
// are skipped. Sorted by level, then number.
Result<std::vector<ProblemFile>> scan_kernelbench(const std::string& dir, const CategoryRules& rules);

}  // namespace kmem

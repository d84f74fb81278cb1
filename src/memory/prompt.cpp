// Whole prompts: checks the policy, reader and problem names, then runs
// select -> apply_policy -> render.
#include <fmt/format.h>

#include "kmem/memory.h"

namespace kmem {
namespace {

template <typename Map>
std::string keys_of(const Map& map) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : map) keys.push_back(key);
  return fmt::format("{}", fmt::join(keys, ", "));
}

Result<std::string> render_checked(const IndexedMemory& indexed, const Pack& pack, const Policy& policy,
                                   const std::string& reader, const std::string& problem) {
  if (policy.fixed_text) return render({}, policy, pack, indexed.memory(), reader, problem);
  auto selection = select(indexed, pack.selection, problem);
  if (!selection) return selection.error();
  Selection shown = apply_policy(std::move(*selection), policy, indexed.memory(), reader, problem);
  return render(shown, policy, pack, indexed.memory(), reader, problem);
}

}  // namespace

std::vector<std::string> target_problems(const Memory& memory) {
  if (memory.targets) return *memory.targets;
  std::vector<std::string> all;
  for (const auto& [id, problem] : memory.problems) all.push_back(id);
  return all;
}

Result<std::string> render_prompt(const IndexedMemory& indexed, const Pack& pack, const std::string& policy,
                                  const std::string& reader, const std::string& problem) {
  const Memory& memory = indexed.memory();
  auto chosen = pack.policies.find(policy);
  if (chosen == pack.policies.end())
    return Error(fmt::format("unknown policy '{}' (choose from: {})", policy, keys_of(pack.policies)));
  if (!memory.readers.contains(reader))
    return Error(fmt::format("unknown reader '{}' (choose from: {})", reader, keys_of(memory.readers)));
  if (!memory.problems.contains(problem))
    return Error(fmt::format("unknown problem '{}' (choose from: {})", problem, keys_of(memory.problems)));
  return render_checked(indexed, pack, chosen->second, reader, problem);
}

Result<PromptTable> render_all(const IndexedMemory& indexed, const Pack& pack) {
  PromptTable table;
  std::vector<std::string> targets = target_problems(indexed.memory());
  for (const auto& [policy_name, policy] : pack.policies)
    for (const auto& [reader, display] : indexed.memory().readers)
      for (const std::string& problem : targets) {
        auto text = render_checked(indexed, pack, policy, reader, problem);
        if (!text) return text.error();
        table[policy_name][reader][problem] = std::move(*text);
      }
  return table;
}

}  // namespace kmem

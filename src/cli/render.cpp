// `kmem render`: one memory text, exactly as an episode shows it (any
// problem: the store's, a problem file, or an id in a KernelBench folder;
// any reader: one without a baseline sees unknown values), or with --all the
// JSON dump of every text {policy: {reader: {problem: text}}} for the
// store's targets. Recipes and kernels measured on another device class
// than --device are left out, as in an episode on that device.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "kmem/catalog.h"
#include "kmem/memory.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {
namespace {

struct RenderArgs {
  std::string store, pack, policy, reader, problem, kernelbench, device = "cuda";
  bool all = false;
};

template <typename Map>
std::string choices(const Map& map) {
  std::string out;
  for (const auto& [key, value] : map) out += (out.empty() ? "" : ", ") + key;
  return out;
}

// Levenshtein distance, for suggesting close ids.
size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// At most three keys of `map` closest to `key`, "a, b, c".
template <typename Map>
std::string closest(const Map& map, const std::string& key) {
  std::vector<std::pair<size_t, std::string>> ranked;
  for (const auto& [id, value] : map) ranked.emplace_back(distance(key, id), id);
  std::sort(ranked.begin(), ranked.end());
  std::string out;
  for (size_t i = 0; i < ranked.size() && i < 3; ++i) out += (i ? ", " : "") + ranked[i].second;
  return out;
}

// The target: a problem of the store by id, else a problem file or an id in
// the KernelBench folder (as kmem episode resolves it).
Result<Problem> target_problem(const RenderArgs& args, const Memory& memory, const std::string& store_path) {
  if (auto found = memory.problems.find(args.problem); found != memory.problems.end()) return found->second;
  if (args.kernelbench.empty() && args.problem.find('/') == std::string::npos)
    return Error(
        fmt::format("problem '{}' is not in {} (closest: {}); a problem outside the store needs --kernelbench DIR "
                    "or a problem file",
                    args.problem, store_path, closest(memory.problems, args.problem)));
  auto rules = CategoryRules::load(data_dir() + "/categories.json");
  if (!rules) return rules.error();
  auto file = resolve_problem(args.problem, args.kernelbench, *rules);
  if (!file) return file.error();
  return file->problem;
}

int run_render(const RenderArgs& args) {
  std::string store_path = store_or_seed(args.store);
  std::string pack_path = args.pack.empty() ? data_dir() + "/seed/prompt-pack.json" : args.pack;
  auto loaded = load_memory(store_path);
  if (!loaded) return report_error("render", loaded.error());
  auto pack_text = util::read_file(pack_path);
  if (!pack_text) return report_error("render", pack_text.error());
  auto pack = parse_pack_json(*pack_text, pack_path);
  if (!pack) return report_error("render", pack.error());
  const Memory memory = memory_for_device(*loaded, args.device);
  MemoryIndex index(memory);

  if (args.all) {
    nlohmann::ordered_json dump = nlohmann::ordered_json::object();
    std::vector<std::string> targets = target_ids(memory);
    for (const auto& [name, policy] : pack->policies) {
      for (const auto& [reader, unused] : memory.readers) {
        auto& texts = dump[name][reader] = nlohmann::ordered_json::object();
        for (const std::string& id : targets) {
          auto text = render(index, *pack, policy, reader, memory.problems.at(id));
          if (!text) return report_error("render", text.error());
          texts[id] = std::move(*text);
        }
      }
    }
    if (Status s = write_stdout(dump.dump(1, ' ', false) + "\n"); !s) return report_error("render", s.error());
    return kExitOk;
  }

  if (args.policy.empty() || args.reader.empty() || args.problem.empty())
    return report_error("render", Error("render needs --policy, --reader and --problem, or --all"));
  auto policy = pack->policies.find(args.policy);
  if (policy == pack->policies.end())
    return report_error("render", Error(fmt::format("{}: unknown policy '{}' (choose from: {})", pack_path, args.policy,
                                                    choices(pack->policies))));
  auto problem = target_problem(args, memory, store_path);
  if (!problem) return report_error("render", problem.error());
  if (!memory.baselines.contains(args.reader))
    std::fprintf(stderr,
                 "kmem render: note: reader '%s' has no baseline in %s: its values are unknown, as in an episode\n",
                 args.reader.c_str(), store_path.c_str());
  auto text = render(index, *pack, policy->second, args.reader, *problem);
  if (!text) return report_error("render", text.error());
  if (Status s = write_stdout(*text); !s) return report_error("render", s.error());
  return kExitOk;
}

}  // namespace

void add_render_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<RenderArgs>();
  CLI::App* cmd =
      app.add_subcommand("render", "Render the memory text an episode shows a reader for a problem under a policy");
  add_store_option(*cmd, args->store, true);
  cmd->add_option("--pack", args->pack, "Prompt pack JSON (default: the bundled seed pack)");
  auto* policy = cmd->add_option("--policy", args->policy, "Policy name from the pack");
  auto* reader =
      cmd->add_option("--reader", args->reader, "Reader id (any; one without a baseline sees unknown values)");
  auto* problem =
      cmd->add_option("--problem", args->problem,
                      "Target problem: an id of the store (e.g. L2_006), a problem file, or an id with --kernelbench");
  auto* kernelbench =
      cmd->add_option("--kernelbench", args->kernelbench, "KernelBench checkout, to find a problem the store lacks");
  cmd->add_option(
         "--device", args->device,
         "the device class the text is for: recipes and kernels measured on another are left out (the seed's: cuda)")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_flag("--all", args->all, "Print every text {policy: {reader: {problem: text}}} as JSON")
      ->excludes(policy, reader, problem, kernelbench);
  cmd->callback([args, &commands] { commands.set_exit_code(run_render(*args)); });
}

}  // namespace kmem::cli

// `kmem render`: one memory text, or with --all the JSON dump of every text
// {policy: {reader: {problem: text}}} for the store's targets.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "kmem/memory.h"
#include "kmem/store.h"

namespace kmem::cli {
namespace {

struct RenderArgs {
  std::string store, pack, policy, reader, problem;
  bool all = false;
};

template <typename Map>
std::string choices(const Map& map) {
  std::string out;
  for (const auto& [key, value] : map) out += (out.empty() ? "" : ", ") + key;
  return out;
}

int run_render(const RenderArgs& args) {
  std::string store_path = args.store.empty() ? data_dir() + "/seed/memory-store.json" : args.store;
  std::string pack_path = args.pack.empty() ? data_dir() + "/seed/prompt-pack.json" : args.pack;
  auto memory = load_memory(store_path);
  if (!memory) return report_error("render", memory.error());
  auto pack_text = read_file(pack_path);
  if (!pack_text) return report_error("render", pack_text.error());
  auto pack = parse_pack_json(*pack_text, pack_path);
  if (!pack) return report_error("render", pack.error());
  MemoryIndex index(*memory);

  if (args.all) {
    nlohmann::ordered_json dump = nlohmann::ordered_json::object();
    std::vector<std::string> targets = target_ids(*memory);
    for (const auto& [name, policy] : pack->policies) {
      for (const auto& [reader, unused] : memory->readers) {
        auto& texts = dump[name][reader] = nlohmann::ordered_json::object();
        for (const std::string& id : targets) {
          auto text = render(index, *pack, policy, reader, memory->problems.at(id));
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
    return report_error("render", Error(fmt::format("unknown policy '{}' (choose from: {})", args.policy, choices(pack->policies))));
  if (!memory->readers.contains(args.reader))
    return report_error("render", Error(fmt::format("unknown reader '{}' (choose from: {})", args.reader, choices(memory->readers))));
  auto problem = memory->problems.find(args.problem);
  if (problem == memory->problems.end())
    return report_error("render", Error(fmt::format("unknown problem '{}' (choose from: {})", args.problem, choices(memory->problems))));
  auto text = render(index, *pack, policy->second, args.reader, problem->second);
  if (!text) return report_error("render", text.error());
  if (Status s = write_stdout(*text); !s) return report_error("render", s.error());
  return kExitOk;
}

}  // namespace

void add_render_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<RenderArgs>();
  CLI::App* cmd = app.add_subcommand("render", "Render the memory prompt of a reader for a problem under a policy");
  cmd->add_option("--store", args->store, "Store JSON or database (default: the bundled seed memory)");
  cmd->add_option("--pack", args->pack, "Prompt pack JSON (default: the bundled seed pack)");
  auto* policy = cmd->add_option("--policy", args->policy, "Policy name from the pack");
  auto* reader = cmd->add_option("--reader", args->reader, "Reader id from the store");
  auto* problem = cmd->add_option("--problem", args->problem, "Target problem id, e.g. L2_006");
  cmd->add_flag("--all", args->all, "Print every text {policy: {reader: {problem: text}}} as JSON")
      ->excludes(policy, reader, problem);
  cmd->callback([args, &commands] { commands.set_exit_code(run_render(*args)); });
}

}  // namespace kmem::cli

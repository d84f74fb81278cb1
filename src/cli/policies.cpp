// `kmem policies [--pack P] [--json]`: the policies of a prompt pack (by
// default the bundled seed pack) and what each shows (docs/policies.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "files.h"
#include "kmem/memory.h"
#include "learn_args.h"

namespace kmem::cli {

namespace {

struct PoliciesArgs {
  std::string pack;
  bool json = false;
};

const char* gate_name(Gate gate) {
  switch (gate) {
    case Gate::kSource: return "source";
    case Gate::kSourceAndTarget: return "source+target";
    case Gate::kNone: break;
  }
  return "";
}

int run_policies(const PoliciesArgs& args) {
  auto pack = load_pack_or_seed(args.pack);
  if (!pack) return report_error("policies", pack.error());
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string text = fmt::format("{:<18} {:<36} {:<8} {:<14} {:<12} {}\n", "policy", "sections", "numbers", "gate",
                                 "max learned", "also");
  for (const auto& [name, p] : pack->policies) {
    std::vector<std::string> sections, also;
    for (auto [on, section] :
         {std::pair{p.lessons, "lessons"}, {p.pitfalls, "pitfalls"}, {p.recipes, "recipes"}, {p.kernels, "kernels"}})
      if (on) sections.push_back(section);
    for (auto [on, flag] : {std::pair{p.how_to_read, "how_to_read"},
                            {p.you_alone, "you_alone"},
                            {p.drop_prohibitions, "drop_prohibitions"},
                            {p.pitfalls_correctness_only, "pitfalls_correctness_only"}})
      if (on) also.push_back(flag);
    nlohmann::ordered_json j = {{"name", name}};
    if (p.fixed_text) {
      j["fixed_text"] = *p.fixed_text;
      text += fmt::format("{:<18} the fixed text '{}'\n", name, *p.fixed_text);
    } else {
      j["sections"] = sections;
      j["numbers"] = p.numbers;
      j["gate"] = p.gate == Gate::kNone ? nlohmann::ordered_json() : nlohmann::ordered_json(gate_name(p.gate));
      j["max_learned"] = p.max_learned ? nlohmann::ordered_json(*p.max_learned) : nlohmann::ordered_json();
      j["also"] = also;
      text +=
          fmt::format("{:<18} {:<36} {:<8} {:<14} {:<12} {}\n", name, fmt::format("{}", fmt::join(sections, ", ")),
                      p.numbers ? "yes" : "no", p.gate == Gate::kNone ? "-" : gate_name(p.gate),
                      p.max_learned ? std::to_string(*p.max_learned) : "-", fmt::format("{}", fmt::join(also, ", ")));
    }
    list.push_back(std::move(j));
  }
  if (args.json) text = list.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (Status s = write_stdout(text); !s) return report_error("policies", s.error());
  return kExitOk;
}

}  // namespace

void add_policies_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<PoliciesArgs>();
  CLI::App* cmd = app.add_subcommand("policies", "List the policies of a prompt pack and what each shows");
  cmd->add_option("--pack", args->pack, "Prompt pack JSON (default: the bundled seed pack)");
  cmd->add_flag("--json", args->json, "print a JSON list");
  cmd->callback([args, &commands] { commands.set_exit_code(run_policies(*args)); });
}

}  // namespace kmem::cli

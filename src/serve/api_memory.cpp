// Handlers of the memory: health, render, check, items and readers. They
// read the current snapshot; a change of an item goes to the database in
// one transaction and swaps in a new snapshot.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "kmem/item_kind.h"
#include "kmem/learn.h"
#include "kmem/limits.h"
#include "kmem/memory.h"
#include "kmem/store.h"
#include "serve/api.h"
#include "util/file.h"
#include "util/json_fields.h"

namespace kmem::serve {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

template <typename Map>
std::string choices(const Map& map) {
  std::string out;
  for (const auto& [key, value] : map) out += (out.empty() ? "" : ", ") + key;
  return out;
}

const Item* find_item(const Memory& memory, const std::string& id) {
  for (const Item& item : memory.items)
    if (item.id == id) return &item;
  return nullptr;
}

bool is_database(const std::string& path) {
  auto start = util::read_file_start(path, 16);
  return start && *start == std::string("SQLite format 3\0", 16);
}

std::string utc_now() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return stamp;
}

}  // namespace

Result<std::string> Api::problem_file(const std::string& id_or_path) const {
  if (config_.kernelbench.empty())
    return Error(fmt::format("problem '{}': the server was started without --kernelbench, so it has no problem files",
                             id_or_path));
  if (limits::check_problem_id(id_or_path)) {
    auto found = resolve_problem(id_or_path, config_.kernelbench, rules_);
    if (!found) return found.error();
    return found->path;
  }
  fs::path relative(id_or_path);
  if (relative.is_absolute())
    return Error(fmt::format("problem '{}': give an id or a path relative to the KernelBench folder", id_or_path));
  std::error_code error;
  fs::path root = fs::canonical(config_.kernelbench, error);
  if (error) return Error(fmt::format("{}: {}", config_.kernelbench, error.message()));
  fs::path path = fs::weakly_canonical(root / relative, error);
  std::string inside = root.string() + "/";
  if (error || path.string().rfind(inside, 0) != 0)
    return Error(fmt::format("problem '{}': not a file inside the KernelBench folder", id_or_path));
  if (!fs::is_regular_file(path)) return Error(fmt::format("problem '{}': no such problem file", id_or_path));
  return path.string();
}

Result<Problem> Api::render_problem(const Snapshot& snapshot, const std::string& id_or_path) const {
  auto known = snapshot.memory.problems.find(id_or_path);
  if (known != snapshot.memory.problems.end()) return known->second;
  if (config_.kernelbench.empty())
    return Error(
        fmt::format("unknown problem '{}' (not in the memory, and the server has no --kernelbench)", id_or_path));
  auto file = problem_file(id_or_path);
  if (!file) return file.error();
  auto found = resolve_problem(*file, "", rules_);
  if (!found) return found.error();
  return found->problem;
}

void Api::health(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto snapshot = snapshots_.current();
  send_json(call.res, {{"status", "ok"},
                       {"items", snapshot->memory.items.size()},
                       {"problems", snapshot->memory.problems.size()},
                       {"readers", snapshot->memory.readers.size()}});
}

void Api::render(Call& call) {
  if (Status s = only_params(call.req, {"problem", "reader", "policy"}); !s)
    return send_error(call.res, 400, s.error().message());
  auto problem = required_param(call.req, "problem");
  if (!problem) return send_error(call.res, 400, problem.error().message());
  auto reader = required_param(call.req, "reader");
  if (!reader) return send_error(call.res, 400, reader.error().message());
  auto policy_name = required_param(call.req, "policy");
  if (!policy_name) return send_error(call.res, 400, policy_name.error().message());
  if (Status s = limits::check_reader_id(*reader); !s)
    return send_error(call.res, 400, "query parameter 'reader': " + s.error().message());
  auto snapshot = snapshots_.current();
  auto policy = snapshot->pack.policies.find(*policy_name);
  if (policy == snapshot->pack.policies.end())
    return send_error(call.res, 400,
                      fmt::format("query parameter 'policy': unknown policy '{}' (choose from: {})", *policy_name,
                                  choices(snapshot->pack.policies)));
  // A problem of the memory renders the same until the snapshot changes:
  // its answer is kept (a problem file is read afresh each time).
  const bool cacheable = snapshot->memory.problems.contains(*problem);
  const std::string key = *problem + '\n' + *reader + '\n' + *policy_name;
  auto answer = cacheable ? snapshot->renders.find(key) : nullptr;
  if (!answer) {
    auto target = render_problem(*snapshot, *problem);
    if (!target) return send_error(call.res, 404, "query parameter 'problem': " + target.error().message());
    auto text = kmem::render(snapshot->index, snapshot->pack, policy->second, *reader, *target);
    if (!text) return send_error(call.res, 500, text.error().message());
    std::vector<std::string> items = shown_item_ids(snapshot->index, snapshot->pack, policy->second, *reader, *target);
    RenderCache::Answer made;
    for (const std::string& id : items) made.items_header += (made.items_header.empty() ? "" : ",") + id;
    made.body =
        json{{"problem", target->id}, {"reader", *reader}, {"policy", *policy_name}, {"text", *text}, {"items", items}}
            .dump(-1, ' ', false, json::error_handler_t::replace);
    answer = std::make_shared<const RenderCache::Answer>(std::move(made));
    if (cacheable) snapshot->renders.put(key, answer);
  }
  call.res.set_header("Kmem-Items", answer->items_header);
  send_json_text(call.res, answer->body);
}

std::unique_ptr<Checker> Api::take_checker() {
  {
    std::lock_guard lock(checkers_mutex_);
    if (!checkers_.empty()) {
      auto checker = std::move(checkers_.back());
      checkers_.pop_back();
      return checker;
    }
  }
  return std::make_unique<Checker>();
}

void Api::give_back(std::unique_ptr<Checker> checker) {
  std::lock_guard lock(checkers_mutex_);
  checkers_.push_back(std::move(checker));
}

void Api::check(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto body = json_body(call.req, {"text", "kind"});
  if (!body) return send_error(call.res, 400, body.error().message());
  util::JsonFields f(*body, "request body");
  auto text = f.string("text");
  if (!text) return send_error(call.res, 400, text.error().message());
  std::string kind = "reply";
  if (f.has("kind")) {
    auto k = f.string("kind");
    if (!k) return send_error(call.res, 400, k.error().message());
    if (*k != "reply" && *k != "python")
      return send_error(call.res, 400, "request body: field 'kind' must be \"reply\" or \"python\"");
    kind = *k;
  }
  std::unique_ptr<Checker> checker = take_checker();
  std::vector<Offence> offences = kind == "python" ? checker->check_source(*text) : checker->check_reply(*text);
  give_back(std::move(checker));
  json list = json::array();
  for (const Offence& v : offences)
    list.push_back({{"code", v.code}, {"message", v.message}, {"line", v.line}, {"column", v.column}});
  json out = {{"kind", kind}, {"passed", offences.empty()}, {"verdicts", list}};
  if (kind == "reply") out["action"] = std::string(action_name(parse_reply(*text).action));
  send_json(call.res, out);
}

void Api::list_items(Call& call) {
  if (Status s = only_params(call.req, {"state", "kind"}); !s) return send_error(call.res, 400, s.error().message());
  std::string state = call.req.get_param_value("state"), kind = call.req.get_param_value("kind");
  if (call.req.has_param("state") && !item_state_from_name(state))
    return send_error(call.res, 400, "query parameter 'state' must be candidate, active or retired");
  if (call.req.has_param("kind") && !item_kind_from_name(kind))
    return send_error(call.res, 400, "query parameter 'kind' must be lesson, pitfall, recipe or kernel");
  auto snapshot = snapshots_.current();
  json items = json::array();
  for (const Item& item : snapshot->memory.items) {
    if (!state.empty() && state != item_state_name(item.state)) continue;
    if (!kind.empty() && kind != item_kind_name(item.kind)) continue;
    json entry = {{"id", item.id},
                  {"kind", item_kind_name(item.kind)},
                  {"state", item_state_name(item.state)},
                  {"category", item.category},
                  {"labels", item.labels}};
    if (item.kind == ItemKind::kKernel || item.kind == ItemKind::kRecipe) {
      entry["source"] = item.source;
      entry["speedup"] = item.speedup;
    }
    if (item.kind != ItemKind::kKernel) entry["text"] = item.text;
    items.push_back(std::move(entry));
  }
  send_json(call.res, {{"items", items}});
}

void Api::show_item(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto snapshot = snapshots_.current();
  const Item* item = find_item(snapshot->memory, call.params[0]);
  if (item == nullptr) return send_error(call.res, 404, fmt::format("no item '{}'", call.params[0]));
  Memory one;  // the item as the store format writes it
  one.items = {*item};
  auto doc = json::parse(memory_to_json(one));
  send_json(call.res, doc["items"][0]);
}

void Api::promote_item(Call& call) { change_item_state(call, ItemState::kActive); }
void Api::retire_item(Call& call) { change_item_state(call, ItemState::kRetired); }

void Api::change_item_state(Call& call, ItemState state) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto body = json_body(call.req, {"reason"});
  if (!body) return send_error(call.res, 400, body.error().message());
  auto reason = util::JsonFields(*body, "request body").string("reason");
  if (!reason) return send_error(call.res, 400, reason.error().message());
  if (reason->empty()) return send_error(call.res, 400, "request body: field 'reason' must not be empty");
  const std::string& id = call.params[0];
  if (find_item(snapshots_.current()->memory, id) == nullptr)
    return send_error(call.res, 404, fmt::format("no item '{}'", id));
  if (!is_database(config_.store_path))
    return send_error(
        call.res, 409,
        fmt::format("{}: the served store is a JSON file; serve a database to change items", config_.store_path));
  std::lock_guard lock(writes_mutex_);
  auto db = Database::open(config_.store_path);
  if (!db) return send_error(call.res, 500, db.error().message());
  std::string date = utc_now();
  Status changed = db->update([&](const Memory& m) { return set_item_state(m, id, state, *reason, date); });
  if (!changed) return send_error(call.res, 409, changed.error().message());
  if (Status s = snapshots_.reload(true); !s) return send_error(call.res, 500, s.error().message());
  send_json(call.res, {{"item", id}, {"state", item_state_name(state)}});
}

void Api::readers(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto snapshot = snapshots_.current();
  const Memory& memory = snapshot->memory;
  json list = json::array();
  for (const auto& [id, reader] : memory.readers) {
    auto b = memory.baselines.find(id);
    list.push_back({{"id", id},
                    {"display", reader.display},
                    {"author", id == memory.author},
                    {"problems", b == memory.baselines.end() ? 0 : b->second.problems.size()},
                    {"groups", b == memory.baselines.end() ? 0 : b->second.groups.size()}});
  }
  send_json(call.res, {{"readers", list}});
}

}  // namespace kmem::serve

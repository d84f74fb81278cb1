// Handlers of experiments: the list, one experiment's status and its report
// (the JSON of `kmem experiment report --json`). Each request opens the
// experiments database read-only (WAL: it never waits for a running
// experiment's writes).
#include <fmt/format.h>

#include <map>

#include "kmem/experiment.h"
#include "kmem/store.h"
#include "serve/api.h"
#include "util/strict_json.h"

namespace kmem::serve {

using nlohmann::json;

namespace {

Result<Database> open_experiments(const ServeConfig& config) {
  if (config.experiments_db.empty())
    return Error(
        "the server has no experiments database (kmem serve --experiments-db, or serve a database as --store)");
  return Database::open_existing(config.experiments_db);
}

}  // namespace

void Api::experiments(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto db = open_experiments(config_);
  if (!db) return send_error(call.res, 404, db.error().message());
  auto names = db->experiments();
  if (!names) return send_error(call.res, 500, names.error().message());
  send_json(call.res, {{"experiments", *names}});
}

void Api::experiment_status(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto db = open_experiments(config_);
  if (!db) return send_error(call.res, 404, db.error().message());
  const std::string& name = call.params[0];
  auto spec = db->experiment_spec(name);
  if (!spec) return send_error(call.res, 404, spec.error().message());
  auto episodes = db->experiment_episodes(name);
  if (!episodes) return send_error(call.res, 500, episodes.error().message());
  std::map<std::string, int> ends;
  int correct = 0;
  for (const StoredEpisode& e : *episodes) {
    ++ends[e.end];
    correct += e.correct ? 1 : 0;
  }
  auto spec_json = util::parse_strict_json(*spec, "stored spec");
  send_json(call.res, {{"experiment", name},
                       {"spec", spec_json ? *spec_json : json(*spec)},
                       {"episodes", episodes->size()},
                       {"correct", correct},
                       {"ends", ends}});
}

void Api::experiment_report(Call& call) {
  if (Status s = only_params(call.req, {"p", "resamples", "seed"}); !s)
    return send_error(call.res, 400, s.error().message());
  ReportOptions options;
  auto p = number_param(call.req, "p", 0, 1e6);
  if (!p) return send_error(call.res, 400, p.error().message());
  auto resamples = number_param(call.req, "resamples", 1, 100000);
  if (!resamples) return send_error(call.res, 400, resamples.error().message());
  auto seed = number_param(call.req, "seed", 0, 4294967295.0);
  if (!seed) return send_error(call.res, 400, seed.error().message());
  if (*p) options.p = **p;
  if (*resamples) options.resamples = static_cast<int>(**resamples);
  if (*seed) options.seed = static_cast<unsigned long>(**seed);
  auto db = open_experiments(config_);
  if (!db) return send_error(call.res, 404, db.error().message());
  const std::string& name = call.params[0];
  if (auto spec = db->experiment_spec(name); !spec) return send_error(call.res, 404, spec.error().message());
  auto episodes = db->experiment_episodes(name);
  if (!episodes) return send_error(call.res, 500, episodes.error().message());
  send_json_text(call.res, report_json(build_report(name, *episodes, options)));
}

}  // namespace kmem::serve

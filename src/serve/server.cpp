// The server's wiring (docs/serve.md): the route table, authentication
// (401 without a known token, 403 for a read token on a writing route), the
// audit line of every request, limits (body size, time, threads), and the
// watcher that reloads the store's snapshot and the tokens file when they
// change.
#include <arpa/inet.h>
#include <fmt/format.h>

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "kmem/serve.h"
#include "serve/api.h"
#include "serve/audit.h"
#include "serve/http.h"
#include "serve/snapshot.h"
#include "serve/tokens.h"

namespace kmem {

using serve::Access;
using serve::Api;
using serve::Call;

namespace {

struct Route {
  const char* method;
  const char* pattern;  // as the OpenAPI document writes it: /v1/items/{id}
  Access access;
  void (Api::*handler)(Call&);
};

// Every route, the one table the OpenAPI document is checked against.
constexpr Route kRoutes[] = {
    {"GET", "/v1/render", Access::kRead, &Api::render},
    {"POST", "/v1/check", Access::kRead, &Api::check},
    {"GET", "/v1/health", Access::kRead, &Api::health},
    {"POST", "/v1/evaluations", Access::kWrite, &Api::submit_evaluation},
    {"GET", "/v1/evaluations/{id}", Access::kRead, &Api::evaluation_status},
    {"POST", "/v1/episodes", Access::kWrite, &Api::submit_episode},
    {"GET", "/v1/episodes/{id}", Access::kRead, &Api::episode_status},
    {"GET", "/v1/items", Access::kRead, &Api::list_items},
    {"GET", "/v1/items/{id}", Access::kRead, &Api::show_item},
    {"POST", "/v1/items/{id}/promote", Access::kWrite, &Api::promote_item},
    {"POST", "/v1/items/{id}/retire", Access::kWrite, &Api::retire_item},
    {"GET", "/v1/readers", Access::kRead, &Api::readers},
    {"GET", "/v1/experiments", Access::kRead, &Api::experiments},
    {"GET", "/v1/experiments/{name}", Access::kRead, &Api::experiment_status},
    {"GET", "/v1/experiments/{name}/report", Access::kRead, &Api::experiment_report},
};

// Whether `path` fits `pattern` segment by segment ({x} fits one non-empty
// segment); the fitted segments go to `params`.
bool fits(std::string_view pattern, std::string_view path, std::vector<std::string>& params) {
  params.clear();
  while (!pattern.empty() && !path.empty()) {
    if (pattern[0] != '/' || path[0] != '/') return false;
    pattern.remove_prefix(1);
    path.remove_prefix(1);
    std::string_view want = pattern.substr(0, pattern.find('/')), got = path.substr(0, path.find('/'));
    if (want.size() > 1 && want.front() == '{' && want.back() == '}') {
      if (got.empty()) return false;
      params.emplace_back(got);
    } else if (want != got) {
      return false;
    }
    pattern.remove_prefix(want.size());
    path.remove_prefix(got.size());
  }
  return pattern.empty() && path.empty();
}

bool is_loopback(const std::string& host) {
  if (host == "localhost" || host == "::1") return true;
  in_addr address{};
  return inet_pton(AF_INET, host.c_str(), &address) == 1 && (ntohl(address.s_addr) >> 24) == 127;
}

}  // namespace

std::vector<RouteInfo> served_routes() {
  std::vector<RouteInfo> routes;
  for (const Route& r : kRoutes) routes.push_back({r.method, r.pattern, r.access == Access::kWrite});
  return routes;
}

struct Server::Impl {
  ServeConfig config;
  std::unique_ptr<serve::SnapshotHolder> snapshots;
  std::unique_ptr<JobService> jobs;
  std::unique_ptr<Api> api;
  std::atomic<std::shared_ptr<const serve::TokenTable>> tokens;
  serve::FileStamp tokens_stamp;
  std::optional<serve::AuditLog> audit;
  httplib::Server http;
  int port = 0;
  std::thread listener, watcher;
  std::mutex stop_mutex;
  std::condition_variable stop_cv;
  bool stopping = false;

  // The token of a request: its name and access; nothing when it has no
  // known one (with --insecure-local every request may write).
  std::optional<serve::Token> token_of(const httplib::Request& req) const {
    if (config.insecure_local) return serve::Token{"insecure-local", Access::kWrite, ""};
    return tokens.load()->find(req.get_header_value("Authorization"));
  }

  void dispatch(const httplib::Request& req, httplib::Response& res) {
    bool path_known = false;
    std::vector<std::string> params;
    for (const Route& route : kRoutes) {
      if (!fits(route.pattern, req.path, params)) continue;
      path_known = true;
      if (req.method != route.method) continue;
      std::optional<serve::Token> token = token_of(req);
      if (!token) return serve::send_error(res, 401, "no known bearer token (Authorization: Bearer <secret>)");
      if (route.access == Access::kWrite && token->access != Access::kWrite)
        return serve::send_error(res, 403, fmt::format("the token '{}' may only read", token->name));
      Call call{req, res, std::move(params)};
      (api.get()->*route.handler)(call);
      return;
    }
    if (path_known) return serve::send_error(res, 405, fmt::format("{} is not allowed on {}", req.method, req.path));
    serve::send_error(res, 404, fmt::format("no such path: {}", req.path));
  }

  void log(const httplib::Request& req, const httplib::Response& res) {
    if (!audit) return;
    serve::AuditEntry entry;
    std::optional<serve::Token> token = token_of(req);
    entry.token = token ? token->name : "";
    entry.method = req.method;
    entry.path = req.path;
    entry.status = res.status;
    entry.remote = req.remote_addr;
    std::string items = res.get_header_value("Kmem-Items");
    for (std::size_t start = 0; !items.empty() && start <= items.size();) {
      std::size_t comma = items.find(',', start);
      if (comma == std::string::npos) comma = items.size();
      entry.items.push_back(items.substr(start, comma - start));
      start = comma + 1;
    }
    if (Status s = audit->append(entry); !s) std::fprintf(stderr, "kmem serve: %s\n", s.error().message().c_str());
  }

  void watch() {
    std::unique_lock lock(stop_mutex);
    while (!stop_cv.wait_for(lock, std::chrono::duration<double>(config.reload_interval_s), [&] { return stopping; })) {
      lock.unlock();
      if (Status s = snapshots->reload(false); !s)
        std::fprintf(stderr, "kmem serve: keeping the memory served so far: %s\n", s.error().message().c_str());
      if (!config.insecure_local && !(serve::stamp_of(config.tokens_path) == tokens_stamp)) {
        tokens_stamp = serve::stamp_of(config.tokens_path);
        auto table = serve::TokenTable::load(config.tokens_path);
        if (table) tokens.store(std::make_shared<const serve::TokenTable>(std::move(*table)));
        else std::fprintf(stderr, "kmem serve: keeping the tokens read before: %s\n", table.error().message().c_str());
      }
      lock.lock();
    }
  }
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() {
  stop();
  if (impl_->listener.joinable()) impl_->listener.join();
  if (impl_->watcher.joinable()) impl_->watcher.join();
}

int Server::port() const { return impl_->port; }

void Server::wait() {
  std::unique_lock lock(impl_->stop_mutex);
  impl_->stop_cv.wait(lock, [&] { return impl_->stopping; });
}

void Server::stop() {
  {
    std::lock_guard lock(impl_->stop_mutex);
    impl_->stopping = true;
  }
  impl_->stop_cv.notify_all();
  impl_->http.stop();
}

Result<std::unique_ptr<Server>> Server::start(const ServeConfig& config, std::unique_ptr<JobService> jobs) {
  auto impl = std::make_unique<Impl>();
  Impl* self = impl.get();
  self->config = config;
  if (config.insecure_local) {
    if (!is_loopback(config.host))
      return Error(
          fmt::format("--insecure-local serves loopback only, not '{}' (127.0.0.1, ::1 or localhost)", config.host));
    self->tokens.store(std::make_shared<const serve::TokenTable>());
  } else {
    if (config.tokens_path.empty())
      return Error("no --tokens file (or --insecure-local to serve loopback without tokens)");
    auto table = serve::TokenTable::load(config.tokens_path);
    if (!table) return table.error();
    if (table->size() == 0) return Error(config.tokens_path + ": holds no token");
    self->tokens.store(std::make_shared<const serve::TokenTable>(std::move(*table)));
    self->tokens_stamp = serve::stamp_of(config.tokens_path);
  }
  if (!config.audit_path.empty()) {
    auto audit = serve::AuditLog::open(config.audit_path);
    if (!audit) return audit.error();
    self->audit.emplace(std::move(*audit));
  }
  auto snapshots = serve::SnapshotHolder::open(config.store_path, config.pack_path);
  if (!snapshots) return snapshots.error();
  self->snapshots = std::move(*snapshots);
  auto rules = CategoryRules::load(config.categories_path);
  if (!rules) return rules.error();
  self->jobs = jobs ? std::move(jobs)
                    : make_local_job_service(make_job_executor(self->config), std::max(1, config.eval.parallel));
  self->api = std::make_unique<Api>(self->config, *self->snapshots, *self->jobs, std::move(*rules));

  httplib::Server& http = self->http;
  const int threads = std::max(1, config.threads);
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  http.set_payload_max_length(config.max_body_bytes);
  auto seconds = [](double s) { return std::chrono::microseconds(static_cast<long long>(s * 1e6)); };
  http.set_read_timeout(seconds(config.read_timeout_s));
  http.set_write_timeout(seconds(config.write_timeout_s));
  http.set_keep_alive_timeout(static_cast<time_t>(std::max(1.0, config.keep_alive_s)));
  http.set_keep_alive_max_count(100000);
  http.set_tcp_nodelay(true);
  auto handler = [self](const httplib::Request& req, httplib::Response& res) { self->dispatch(req, res); };
  for (const char* pattern : {"/.*"}) {
    http.Get(pattern, handler);
    http.Post(pattern, handler);
    http.Put(pattern, handler);
    http.Delete(pattern, handler);
    http.Patch(pattern, handler);
    http.Options(pattern, handler);
  }
  // Errors httplib answers itself (a malformed request, a body over the limit) get the JSON error body too.
  http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      serve::send_error(
          res, res.status,
          res.status == 413 ? "the request body is over the server's limit" : fmt::format("HTTP {}", res.status));
    return httplib::Server::HandlerResponse::Handled;
  }));
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    serve::send_error(res, 500, "internal error");
  });
  http.set_logger([self](const httplib::Request& req, const httplib::Response& res) { self->log(req, res); });

  self->port = config.port == 0 ? http.bind_to_any_port(config.host)
                                : (http.bind_to_port(config.host, config.port) ? config.port : -1);
  if (self->port <= 0) return Error(fmt::format("{}:{}: cannot listen there", config.host, config.port));
  self->listener = std::thread([self] { self->http.listen_after_bind(); });
  self->watcher = std::thread([self] { self->watch(); });
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

}  // namespace kmem

// Tests of the server's parts that need no HTTP: the tokens file, audit
// lines, the in-process job service, and the route table against the
// OpenAPI document (both ways). The HTTP behaviour is tested through a real
// `kmem serve` by python/kmem_client/tests.
#include "kmem/serve.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "kmem/queue.h"
#include "serve/audit.h"
#include "serve/tokens.h"
#include "util/file.h"
#include "util/strict_json.h"

namespace kmem::serve {
namespace {

const char* kTokens = R"({"format": "kmem-serve-tokens/1", "tokens": [
  {"name": "agent", "access": "read", "secret": "read-secret-0123456789"},
  {"name": "lead", "access": "write", "secret": "write-secret-0123456789"}]})";

TEST(Tokens, FindsTheTokenOfABearerHeader) {
  auto table = TokenTable::parse(kTokens, "tokens.json");
  ASSERT_TRUE(table) << table.error().message();
  auto agent = table->find("Bearer read-secret-0123456789");
  ASSERT_TRUE(agent);
  EXPECT_EQ(agent->name, "agent");
  EXPECT_EQ(agent->access, Access::kRead);
  EXPECT_EQ(table->find("Bearer write-secret-0123456789")->access, Access::kWrite);
  EXPECT_FALSE(table->find("Bearer read-secret-012345678"));    // a prefix
  EXPECT_FALSE(table->find("Bearer read-secret-01234567890"));  // longer
  EXPECT_FALSE(table->find("read-secret-0123456789"));          // no scheme
  EXPECT_FALSE(table->find(""));
}

TEST(Tokens, RefusesBadFilesNamingTheEntry) {
  auto expect_error = [](const std::string& text, const std::string& part) {
    auto table = TokenTable::parse(text, "t.json");
    ASSERT_FALSE(table) << text;
    EXPECT_NE(table.error().message().find(part), std::string::npos) << table.error().message();
  };
  expect_error(R"({"format": "x", "tokens": []})", "field 'format'");
  expect_error(
      R"({"format": "kmem-serve-tokens/1", "tokens": [{"name": "a", "access": "admin", "secret": "0123456789abcdefgh"}]})",
      "tokens[0]: field 'access'");
  expect_error(R"({"format": "kmem-serve-tokens/1", "tokens": [{"name": "a", "access": "read", "secret": "short"}]})",
               "tokens[0]: field 'secret'");
  expect_error(
      R"({"format": "kmem-serve-tokens/1", "tokens": [{"name": "a", "access": "read", "secret": "0123456789abcdefgh"},
               {"name": "a", "access": "read", "secret": "0123456789abcdefgX"}]})",
      "given twice");
  expect_error(R"({"format": "kmem-serve-tokens/1", "tokens": [], "extra": 1})", "unknown field 'extra'");
}

TEST(Audit, OneJsonLineWithoutTheSecret) {
  AuditEntry entry{"agent", "GET", "/v1/render", 200, "127.0.0.1", {"k1", "r2"}};
  std::string line = audit_line(entry, 1764921600123LL);
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto json = util::parse_strict_json(line, "line");
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["time"], "2025-12-05T08:00:00.123Z");
  EXPECT_EQ((*json)["token"], "agent");
  EXPECT_EQ((*json)["status"], 200);
  EXPECT_EQ((*json)["items"], nlohmann::json({"k1", "r2"}));
  EXPECT_TRUE((*util::parse_strict_json(audit_line(AuditEntry{}, 0), "l"))["token"].is_null());
}

TEST(LocalJobs, RunsWaitsAndRefusesBeyondItsLimit) {
  std::atomic<bool> release{false};
  auto service = make_local_job_service(
      [&](const JobRequest& r) -> Result<std::string> {
        while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (r.payload_json == "fail") return Error("it failed");
        return std::string("{\"echo\":") + r.payload_json + "}";
      },
      1, 2);
  auto a = service->submit({"evaluation", "1"});
  auto b = service->submit({"evaluation", "fail"});
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(service->submit({"evaluation", "3"}));  // two pending: the limit
  EXPECT_FALSE(service->wait(*a, std::chrono::milliseconds(20))->finished());
  release = true;
  auto done = service->wait(*a, std::chrono::seconds(10));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, "done");
  EXPECT_EQ(done->result_json, "{\"echo\":1}");
  auto failed = service->wait(*b, std::chrono::seconds(10));
  EXPECT_EQ(failed->state, "failed");
  EXPECT_EQ(failed->error, "it failed");
  EXPECT_FALSE(service->status("nope"));
  EXPECT_TRUE(service->submit({"evaluation", "4"}));  // room again
}

// With --queue an evaluation becomes a queue job carrying the problem's
// source, a worker's outcome comes back as the job's result, and an unknown
// queue id is no job.
TEST(QueueJobs, AnEvaluationGoesThroughTheQueueAndComesBackDone) {
  auto dir = std::filesystem::temp_directory_path() / ("kmem-serve-queue-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string db = (dir / "queue.db").string(), problem = (dir / "add.py").string();
  std::ofstream(problem) << "# the problem's source\n";
  ServeConfig config;
  config.work_dir = (dir / "work").string();
  auto service = make_queue_job_service(db, config);
  ASSERT_TRUE(service) << service.error().message();
  nlohmann::json payload = {{"id", "j1"}, {"problem", problem}, {"candidate", "print(1)"}, {"candidate_kind", "reply"}};
  auto id = (*service)->submit(JobRequest{"evaluation", payload.dump()});
  ASSERT_TRUE(id) << id.error().message();
  EXPECT_EQ((*service)->status(*id)->state, "queued");

  auto queue = JobQueue::open(db);
  ASSERT_TRUE(queue) << queue.error().message();
  auto claimed = (*queue)->claim("test-worker", {JobKind::kEval});
  ASSERT_TRUE(claimed && *claimed);
  auto request = parse_eval_payload((*claimed)->job.payload, EvalOptions{});
  ASSERT_TRUE(request) << request.error().message();
  EXPECT_EQ(request->request.problem_source, "# the problem's source\n");
  EXPECT_EQ(request->request.candidate_source, "print(1)");
  EXPECT_EQ(request->request.candidate_name, "reply.md");  // a reply: the worker extracts its code
  EXPECT_EQ((*service)->status(*id)->state, "running");
  EvalOutcome outcome;
  outcome.job = EvalJob{"j1", problem, "reply.md"};
  outcome.verdict = "pass";
  ASSERT_TRUE((*queue)->complete((*claimed)->lease, outcome_json(outcome)));

  auto done = (*service)->wait(*id, std::chrono::seconds(5));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, "done");
  EXPECT_EQ(util::parse_strict_json(done->result_json, "result")->at("verdict"), "pass");
  EXPECT_FALSE((*service)->status("queue-999999"));
  EXPECT_FALSE((*service)->status("queue-x"));
  auto missing = (*service)->submit(JobRequest{
      "evaluation",
      nlohmann::json{
          {"id", "j2"}, {"problem", (dir / "none.py").string()}, {"candidate", ""}, {"candidate_kind", "source"}}
          .dump()});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("none.py"), std::string::npos) << missing.error().message();
  std::filesystem::remove_all(dir);
}

TEST(OpenApi, DocumentsExactlyTheRoutesTheServerServesWithTheirAccess) {
  auto text = util::read_file(KMEM_OPENAPI);
  ASSERT_TRUE(text) << text.error().message();
  auto doc = util::parse_strict_json(*text, KMEM_OPENAPI);
  ASSERT_TRUE(doc) << doc.error().message();
  std::map<std::string, std::string> documented;  // "GET /v1/x" -> x-access
  for (const auto& [path, methods] : (*doc)["paths"].items())
    for (const auto& [method, operation] : methods.items()) {
      std::string upper;
      for (char c : method) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      documented[upper + " " + path] = operation.value("x-access", "");
    }
  std::set<std::string> served;
  for (const RouteInfo& route : served_routes()) {
    std::string name = route.method + " " + route.path;
    served.insert(name);
    ASSERT_TRUE(documented.contains(name)) << name << " is served but not in docs/openapi.json";
    EXPECT_EQ(documented[name], route.writes ? "write" : "read") << name;
  }
  for (const auto& [route, access] : documented)
    EXPECT_TRUE(served.contains(route)) << route << " is in docs/openapi.json but not served";
}

}  // namespace
}  // namespace kmem::serve

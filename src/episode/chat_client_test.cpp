// Tests of the endpoint client against the scripted endpoint on loopback:
// the request it sends, retries and their limits, every injected fault as an
// exchange error (never an exception), and record then replay.
#include <gtest/gtest.h>
#include <httplib.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kmem/episode.h"
#include "kmem/scripted_endpoint.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

ScriptedReply reply(std::string content, std::string fault = "") {
  ScriptedReply r;
  r.content = std::move(content);
  r.fault = std::move(fault);
  return r;
}

class ChatClientTest : public ::testing::Test {
 protected:
  std::unique_ptr<ScriptedEndpoint> serve(std::vector<ScriptedReply> replies, std::string mode = "sequence") {
    Script script;
    script.mode = std::move(mode);
    script.replies = std::move(replies);
    auto endpoint = ScriptedEndpoint::start(std::move(script));
    EXPECT_TRUE(endpoint) << endpoint.error().message();
    config.base_url = (*endpoint)->base_url();
    return std::move(*endpoint);
  }
  std::unique_ptr<ChatClient> client() {
    auto c = make_chat_client(config);
    EXPECT_TRUE(c) << c.error().message();
    return std::move(*c);
  }
  void SetUp() override {
    config.model = "test-model";
    config.backoff_s = 0.01;
    config.timeout_s = 5;
    config.api_key_env = "KMEM_TEST_API_KEY";
    dir = fs::temp_directory_path() / ("kmem-chat-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  EndpointConfig config;
  fs::path dir;
  const std::vector<ChatMessage> messages{{"system", "s"}, {"user", "solve it"}};
};

TEST_F(ChatClientTest, SendsTheOpenAIShapeWithKeyAndReadsTheReply) {
  auto endpoint = serve({reply("hello")});
  config.seed = 7;
  config.temperature = 0.5;
  config.max_tokens = 123;
  ::setenv("KMEM_TEST_API_KEY", "sk-test", 1);
  ChatExchange ex = client()->complete(messages);
  ::unsetenv("KMEM_TEST_API_KEY");
  ASSERT_TRUE(ex.reply_ok) << ex.error;
  EXPECT_EQ(ex.content, "hello");
  EXPECT_EQ(ex.finish_reason, "stop");
  EXPECT_EQ(ex.prompt_tokens, 100);
  EXPECT_EQ(ex.completion_tokens, 50);
  EXPECT_EQ(ex.http_status, 200);
  EXPECT_EQ(ex.attempts, 1);
  auto received = endpoint->requests();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].path, "/v1/chat/completions");
  EXPECT_EQ(received[0].authorization, "Bearer sk-test");
  EXPECT_EQ(received[0].body, ex.request);
  auto body = nlohmann::json::parse(ex.request);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["messages"][1]["content"], "solve it");
  EXPECT_EQ(body["temperature"], 0.5);
  EXPECT_EQ(body["max_tokens"], 123);
  EXPECT_EQ(body["seed"], 7);
  EXPECT_EQ(body["n"], 1);
}

TEST_F(ChatClientTest, NoKeyNoAuthorizationHeaderAndNoSeedUnlessSet) {
  auto endpoint = serve({reply("hi")});
  ASSERT_TRUE(client()->complete(messages).reply_ok);
  EXPECT_EQ(endpoint->requests().at(0).authorization, "");
  EXPECT_FALSE(nlohmann::json::parse(endpoint->requests().at(0).body).contains("seed"));
}

TEST_F(ChatClientTest, RetriesTooManyRequestsAndServerErrorsThenSucceeds) {
  auto endpoint = serve({reply("", "http_429"), reply("", "http_503"), reply("finally")});
  ChatExchange ex = client()->complete(messages);
  ASSERT_TRUE(ex.reply_ok) << ex.error;
  EXPECT_EQ(ex.content, "finally");
  EXPECT_EQ(ex.attempts, 3);
  EXPECT_EQ(endpoint->requests().size(), 3u);
}

TEST_F(ChatClientTest, GivesUpAfterTheRetriesAndNeverRetriesOtherClientErrors) {
  auto endpoint = serve({reply("", "http_500")}, "turns");  // every attempt gets a 500
  config.retries = 2;
  ChatExchange ex = client()->complete(messages);
  EXPECT_FALSE(ex.reply_ok);
  EXPECT_EQ(ex.attempts, 3);
  EXPECT_EQ(ex.http_status, 500);
  EXPECT_NE(ex.error.find("HTTP 500"), std::string::npos) << ex.error;
  EXPECT_NE(ex.error.find("(after 3 attempts)"), std::string::npos) << ex.error;

  auto bad_request = serve({reply("", "http_400")}, "turns");
  ChatExchange refused = client()->complete(messages);
  EXPECT_FALSE(refused.reply_ok);
  EXPECT_EQ(refused.attempts, 1);
  EXPECT_EQ(refused.http_status, 400);
}

TEST_F(ChatClientTest, EveryMalformedReplyIsAnExchangeError) {
  struct Case {
    const char* fault;
    const char* error;
  };
  for (Case c : {Case{"malformed_json", "endpoint reply: response:1:44: malformed JSON"},
                 Case{"empty_choices", "endpoint reply: response: 'choices' is empty"},
                 Case{"no_content", "endpoint reply: response: choices[0].message: missing field 'content'"}}) {
    auto endpoint = serve({reply("x", c.fault)});
    ChatExchange ex = client()->complete(messages);
    EXPECT_FALSE(ex.reply_ok) << c.fault;
    EXPECT_EQ(ex.attempts, 1) << c.fault;
    EXPECT_NE(ex.error.find(c.error), std::string::npos) << ex.error;
    EXPECT_FALSE(ex.response.empty()) << c.fault;
  }
}

TEST_F(ChatClientTest, ATimeoutIsRetriedThenAnError) {
  ScriptedReply slow = reply("late", "timeout");
  slow.latency_s = 5;
  auto endpoint = serve({slow}, "turns");
  config.timeout_s = 0.3;
  config.retries = 1;
  auto started = std::chrono::steady_clock::now();
  ChatExchange ex = client()->complete(messages);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_FALSE(ex.reply_ok);
  EXPECT_EQ(ex.attempts, 2);
  EXPECT_NE(ex.error.find("Timeout"), std::string::npos) << ex.error;
  EXPECT_LT(took, 3.0);
}

TEST_F(ChatClientTest, AnUnreachableEndpointIsAnErrorNamingIt) {
  config.base_url = "http://127.0.0.1:9/v1";
  config.retries = 1;
  ChatExchange ex = client()->complete(messages);
  EXPECT_FALSE(ex.reply_ok);
  EXPECT_EQ(ex.http_status, 0);
  EXPECT_EQ(ex.error.rfind("POST http://127.0.0.1:9/v1/chat/completions: ", 0), 0u) << ex.error;
}

TEST_F(ChatClientTest, RecordThenReplayGivesTheSameExchangesWithoutNetwork) {
  std::vector<ChatExchange> recorded;
  {
    auto endpoint = serve({reply("first"), reply("second"), reply("", "empty_choices")});
    config.record_dir = dir.string();
    auto recorder = client();
    for (int i = 0; i < 3; ++i) recorded.push_back(recorder->complete(messages));  // one request body, three times
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 3);
  config.record_dir.clear();
  config.replay_dir = dir.string();
  config.base_url = "http://127.0.0.1:9/v1";  // nothing listens there: replay must not need it
  auto replayer = client();
  for (const ChatExchange& want : recorded) {
    ChatExchange got = replayer->complete(messages);
    EXPECT_EQ(got.content, want.content);
    EXPECT_EQ(got.reply_ok, want.reply_ok);
    EXPECT_EQ(got.error, want.error);
    EXPECT_EQ(got.response, want.response);
    EXPECT_EQ(got.latency_s, want.latency_s);
    EXPECT_EQ(got.attempts, want.attempts);
  }
  ChatExchange beyond = replayer->complete(messages);
  EXPECT_FALSE(beyond.reply_ok);
  EXPECT_NE(beyond.error.find("-4.json: no recorded exchange for this request (replay)"), std::string::npos)
      << beyond.error;
  ChatExchange other = replayer->complete({{"user", "something else"}});
  EXPECT_FALSE(other.reply_ok);
}

TEST_F(ChatClientTest, RecordAndReplayExcludeEachOtherAndReplayNeedsItsFolder) {
  config.base_url = "http://127.0.0.1:9/v1";
  config.replay_dir = (dir / "missing").string();
  EXPECT_EQ(make_chat_client(config).error().message(), config.replay_dir + ": no such replay folder");
  config.record_dir = dir.string();
  EXPECT_FALSE(make_chat_client(config).ok());
}

TEST(ScriptedEndpoint, ListsModelsAndParsesScriptsStrictly) {
  auto script = parse_script(
      R"({"format": "kmem-scripted-endpoint/1", "mode": "turns", "latency_s": 0.5,
          "replies": [{"content": "a", "when": "L1_019"}, {"fault": "http_429"}]})",
      "script.json", ".");
  ASSERT_TRUE(script) << script.error().message();
  EXPECT_EQ(script->mode, "turns");
  EXPECT_EQ(script->replies.at(0).when, "L1_019");
  EXPECT_EQ(script->replies.at(1).fault, "http_429");
  EXPECT_EQ(
      parse_script(R"({"format": "kmem-scripted-endpoint/1", "replies": [{"fault": "boom"}]})", "s.json", ".")
          .error()
          .message(),
      "s.json: replies[0]: unknown fault 'boom' (timeout, http_<code>, malformed_json, empty_choices or no_content)");
  EXPECT_EQ(parse_script(R"({"format": "kmem-scripted-endpoint/1", "replies": [], "latency": 1})", "s.json", ".")
                .error()
                .message(),
            "s.json: unknown field 'latency' (expected format, mode, cycle, latency_s, replies)");

  auto endpoint = ScriptedEndpoint::start(Script{});
  ASSERT_TRUE(endpoint);
  httplib::Client http("127.0.0.1", (*endpoint)->port());
  auto models = http.Get("/v1/models");
  ASSERT_TRUE(models);
  EXPECT_EQ(models->status, 200);
  EXPECT_EQ(nlohmann::json::parse(models->body)["data"][0]["id"], "scripted");
  EndpointConfig config;
  config.base_url = (*endpoint)->base_url();
  config.model = "m";
  config.retries = 0;
  ChatExchange exhausted = (*make_chat_client(config))->complete({{"user", "x"}});
  EXPECT_NE(exhausted.error.find("script exhausted"), std::string::npos) << exhausted.error;
}

TEST_F(ChatClientTest, AScriptReadsContentFilesBesideIt) {
  fs::create_directories(dir);
  { std::ofstream(dir / "reply.md") << "from a file\nACTION: CHECK\n"; }
  auto script = parse_script(R"({"format": "kmem-scripted-endpoint/1", "replies": [{"content_file": "reply.md"}]})",
                             "script.json", dir.string());
  ASSERT_TRUE(script) << script.error().message();
  EXPECT_EQ(script->replies.at(0).content, "from a file\nACTION: CHECK\n");
  auto missing = parse_script(R"({"format": "kmem-scripted-endpoint/1", "replies": [{"content_file": "nope.md"}]})",
                              "script.json", dir.string());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message(),
            "script.json: replies[0]: " + (dir / "nope.md").string() + ": cannot open: No such file or directory");
}

}  // namespace
}  // namespace kmem

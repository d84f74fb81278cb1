// A scripted OpenAI-compatible endpoint: a real HTTP server on loopback that
// answers POST /v1/chat/completions with replies from a script, with
// per-reply latency and injected faults, and GET /v1/models. Tests and
// benchmarks use it in place of a model; `kmem-scripted-endpoint SCRIPT.json`
// serves one from the command line. The script format is in docs/episodes.md
// ("The scripted endpoint").
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"

namespace kmem {

struct ScriptedReply {
  std::string content;  // the assistant's text
  // "" (a normal reply), "timeout" (answers only after latency_s, default
  // 30 s), "http_<code>" (that status, e.g. http_500, http_429),
  // "malformed_json", "empty_choices" or "no_content" (a message without content).
  std::string fault;
  double latency_s = -1;  // before answering; negative: the script's latency_s
  std::string when;       // only for requests whose body contains this text ("": any)
  std::string finish_reason = "stop";
  long prompt_tokens = 100, completion_tokens = 50;
};

struct Script {
  // "sequence": the n-th request (of those a reply's `when` admits) gets the
  // n-th reply; "turns": a request carrying k assistant messages gets the
  // k-th reply (0-based), so concurrent conversations each follow the script.
  std::string mode = "sequence";
  bool cycle = false;  // past the end, start again; else HTTP 500 "script exhausted"
  double latency_s = 0;
  std::vector<ScriptedReply> replies;
};

// Parses a kmem-scripted-endpoint/1 document; content_file paths are relative
// to `base_dir`. Errors name `source_name` and the entry.
Result<Script> parse_script(std::string_view text, const std::string& source_name, const std::string& base_dir);

struct ReceivedRequest {
  std::string path;
  std::string body;
  std::string authorization;  // the Authorization header, "" when absent
};

class ScriptedEndpoint {
 public:
  // Starts serving on host:port (port 0: a free one) on background threads.
  static Result<std::unique_ptr<ScriptedEndpoint>> start(Script script, const std::string& host = "127.0.0.1",
                                                         int port = 0);
  ~ScriptedEndpoint();  // stops, cutting short any reply still waiting

  std::string base_url() const;  // http://host:port/v1
  int port() const;
  std::vector<ReceivedRequest> requests() const;
  void wait();  // blocks until the server stops (the command-line program)

  struct Impl;

 private:
  explicit ScriptedEndpoint(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kmem

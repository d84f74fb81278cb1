// Episodes: one agent (a "reader" model behind an OpenAI-compatible
// chat-completions endpoint) solves one KernelBench problem with a memory
// text in its prompt. Each reply is parsed and checked (check.h), then
// evaluated (through the CandidateEvaluator seam, normally eval.h's
// evaluate); the agent sees the outcome as feedback until it SUBMITs or its
// turn budget is spent. The prompt and feedback texts are data (the prompt
// pack's `episode` section). The protocol, the rules and the scoring are in
// docs/episodes.md. An episode never throws: endpoint and evaluator failures
// end it with a recorded error.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kmem/eval.h"
#include "kmem/memory.h"
#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem {

// ---- The endpoint -----------------------------------------------------------

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;

  bool operator==(const ChatMessage&) const = default;
};

// Where and how to ask for completions (docs/episodes.md, "Endpoint").
struct EndpointConfig {
  std::string base_url;  // e.g. http://127.0.0.1:8000/v1; requests go to {base_url}/chat/completions
  std::string model;
  // The environment variable holding the API key; when it is unset or empty
  // no Authorization header is sent (local servers need none).
  std::string api_key_env = "OPENAI_API_KEY";
  double temperature = 0.0;
  int max_tokens = 8192;
  std::optional<long> seed;
  double timeout_s = 600;  // per request (connect + answer)
  int retries = 3;         // further attempts after a 429, a 5xx or a connection error
  double backoff_s = 1.0;  // wait before the first retry; doubles each time
  std::string record_dir;  // non-empty: every exchange is written there (record.h format)
  std::string replay_dir;  // non-empty: exchanges are answered from there, no network
};

// One request and what came of it, kept whole: the episode stores every
// exchange. `reply_ok` is true when the endpoint answered 200 with a
// chat-completions body that has a choice; otherwise `error` says why.
struct ChatExchange {
  std::string request;   // the JSON body sent
  std::string response;  // the body of the last answer (empty when none came)
  int http_status = 0;   // of the last answer; 0 when none came
  int attempts = 0;
  double latency_s = 0;  // from the first attempt to the end, backoff waits included
  bool reply_ok = false;
  std::string error;
  // Taken from the response when reply_ok:
  std::string content;
  std::string finish_reason;
  long prompt_tokens = 0;
  long completion_tokens = 0;
};

// Sends a conversation and returns the exchange. Implementations are
// thread-safe: one client may serve many episodes at once.
class ChatClient {
 public:
  virtual ~ChatClient() = default;
  virtual ChatExchange complete(const std::vector<ChatMessage>& messages) = 0;
};

// The JSON body of a chat-completions request for `messages` under `config`
// (model, messages, temperature, max_tokens, seed when set, n = 1).
std::string chat_request_body(const EndpointConfig& config, const std::vector<ChatMessage>& messages);

// Reads a chat-completions response body into `exchange` (content,
// finish_reason, tokens, reply_ok / error).
void read_chat_response(const std::string& body, ChatExchange& exchange);

// The client `config` asks for: libcurl against base_url, wrapped to record
// exchanges into record_dir, or a replay of replay_dir (no network). Fails
// when a folder cannot be used.
Result<std::unique_ptr<ChatClient>> make_chat_client(const EndpointConfig& config);

// ---- The evaluator seam -------------------------------------------------------

// Evaluates one candidate file against one problem file. Implementations are
// thread-safe. The experiment runner plugs in a batching evaluator; tests a
// fake one.
class CandidateEvaluator {
 public:
  virtual ~CandidateEvaluator() = default;
  virtual EvalOutcome evaluate(const EvalJob& job) = 0;
};

// kmem::evaluate with `options`, one candidate at a time.
std::unique_ptr<CandidateEvaluator> make_process_evaluator(const EvalOptions& options);

// ---- The episode --------------------------------------------------------------

struct EpisodeSpec {
  Problem problem;             // id, level, name and category (need not be a problem of the memory)
  std::string problem_path;    // the KernelBench problem file (its source goes into the task text)
  std::string reader;          // any id; one without a baseline renders with the "unknown" texts
  std::string policy;          // a policy of the pack
  int max_turns = 5;           // replies the agent may send (CHECKs and the SUBMIT)
  std::string device = "cpu";  // "cpu" or "cuda": named in the task text
  std::string id;              // names candidate files and records; default "<problem>-<reader>-<policy>"
  std::string model;           // recorded in the outcome (the endpoint's model name)
};

// Everything an episode uses; none of it is owned, all of it must outlive run_episode.
struct EpisodeContext {
  const MemoryIndex* memory = nullptr;
  const Pack* pack = nullptr;  // policies, memory texts and the episode texts
  ChatClient* chat = nullptr;
  CandidateEvaluator* evaluator = nullptr;
  std::string work_dir;  // candidate files are written here (created when missing)
};

// One reply of the agent and what came of it.
struct Turn {
  int index = 0;       // 1-based
  std::string action;  // "CHECK", "SUBMIT" or "none"
  // "pass", a verdict code of docs/verdicts.md (checker or evaluator),
  // "no_action" (a reply without an action line) or "endpoint_error".
  std::string verdict;
  std::string stage;           // who gave the verdict: "checker", "evaluator", "episode" (no_action) or "endpoint"
  std::string message;         // the verdict's message
  std::string detail;          // checker offences, exception or mismatch place
  std::string log_tail;        // last lines of the compiler output on a failed build
  std::string compiler_error;  // the compiler's first error on a failed build (feedback.h)
  std::optional<double> reference_ms, candidate_ms;
  std::optional<double> compile_ms, speedup_vs_compile;  // the torch.compile baseline, when there is one
  std::optional<MismatchFacts> mismatch;                 // where the values differ, on output_mismatch
  TimeProfile profile;                                   // where a passing candidate's time goes
  double speedup = 0.0;
  double score = 0.0;  // min(speedup, 10) when passed, else 0
  double max_abs_error = 0.0, max_rel_error = 0.0;
  std::vector<std::string> flags;
  long prompt_tokens = 0, completion_tokens = 0;
  double latency_s = 0.0;      // the endpoint's, retries included
  double eval_s = 0.0;         // checking and evaluating the candidate
  std::string reply;           // the assistant's text
  std::string candidate;       // the checked source, empty when none
  std::string candidate_path;  // where it was written for the evaluator
  std::string feedback;        // the user message answering this turn (empty on the last one)
  ChatExchange exchange;       // the request and response, whole
  std::string error;           // endpoint or evaluator failure
};

struct EpisodeOutcome {
  std::string id, problem, reader, policy, model, device;
  int max_turns = 0;
  // "submitted", "budget_exhausted", "endpoint_error" or "evaluator_error".
  std::string end;
  bool submitted = false;
  double score = 0.0;    // the SUBMIT's score; 0 without a passing SUBMIT
  bool correct = false;  // the SUBMIT passed
  double speedup = 0.0;  // the SUBMIT's speedup when it passed
  std::vector<Turn> turns;
  // The best passing candidate seen (CHECK or SUBMIT), by speedup.
  std::optional<int> best_turn;
  double best_speedup = 0.0;
  std::string best_candidate;
  std::string memory_text;                  // as rendered for (problem, reader, policy)
  std::vector<std::string> shown_item_ids;  // the items that text shows
  std::vector<ChatMessage> prompt;          // the opening messages (system, task)
  std::string error;                        // why it ended early, when it did
  double wall_s = 0.0;
  long prompt_tokens = 0, completion_tokens = 0;  // summed over turns
};

// Runs one episode. Fails only on bad input (unknown policy, unreadable
// problem file, a pack without episode texts, no work_dir); an endpoint or
// evaluator failure is an outcome, not an error.
Result<EpisodeOutcome> run_episode(const EpisodeSpec& spec, const EpisodeContext& context);

// The whole outcome as one JSON object (docs/episodes.md, "Output").
std::string episode_json(const EpisodeOutcome& outcome);

}  // namespace kmem

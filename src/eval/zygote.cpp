// Starting a zygote and asking it for workers (see python/kmem_worker/zygote.py
// for its side of the socket).
#include "zygote.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "protocol.h"
#include "sandbox.h"

namespace kmem::eval {

// The first request waits for the zygote's imports (seconds, more on a busy
// machine); later ones for a fork.
static constexpr int kAnswerTimeoutMs = 300'000;

Result<std::unique_ptr<Zygote>> Zygote::start(const std::string& role, const EvalOptions& options,
                                              const std::string& run_dir, const std::string& log_path,
                                              const std::vector<int>& cpus) {
  // Its workers are re-parented to the nearest subreaper when their short-
  // lived parent exits: that must be us, so that we can wait for them.
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    return Error(std::string("cannot become the subreaper of the workers: ") + strerror(errno));
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
    return Error(std::string("socketpair: ") + strerror(errno));
  SpawnSpec spec;
  spec.argv = {options.python, "-m", "kmem_worker", "zygote", role, options.device};
  spec.cpus = cpus;
  spec.environment = {
      prepended_entry("PYTHONPATH", options.python_dir),
      "PYTHONUNBUFFERED=1",
      "PYTHONDONTWRITEBYTECODE=1",
      "TORCH_EXTENSIONS_DIR=" + options.cache_dir + "/torch_extensions",
      "TRITON_CACHE_DIR=" + options.cache_dir + "/triton",
  };
  // A candidate's idle OpenMP threads sleep at once instead of spinning
  // after a parallel region: they then use no CPU outside its calls unless
  // they work (the harness's background_cpu_ms). The reference keeps
  // OpenMP's default, as its cached times were measured.
  if (role == "candidate") spec.environment.push_back("OMP_WAIT_POLICY=PASSIVE");
  if (options.device == "cuda" && options.tuning.device_connections > 0)
    spec.environment.push_back("CUDA_DEVICE_MAX_CONNECTIONS=" + std::to_string(options.tuning.device_connections));
  if (role == "candidate" && options.sandbox) {
    std::string bwrap = find_bwrap();
    if (bwrap.empty()) return Error("the candidate sandbox cannot start: bwrap not found");
    auto confined = sandbox_environment(options, run_dir);
    if (!confined) return confined.error().wrap(role + " zygote");
    spec.environment.insert(spec.environment.end(), confined->begin(), confined->end());  // replaces the caches
    auto root = probe_sandbox_root(options, log_path + ".root");
    if (!root) return root.error().wrap(role + " zygote");
    spec.environment.insert(spec.environment.end(), root->environment.begin(), root->environment.end());
    auto command = sandbox_command(bwrap, options, run_dir, *root);
    if (!command) return command.error().wrap(role + " zygote");
    spec.argv.erase(spec.argv.begin());  // the interpreter: the root's, at the end of the command
    spec.argv.insert(spec.argv.begin(), command->begin(), command->end());
    spec.environment = sandbox_visible_environment(merged_environment(spec.environment));
    spec.inherit_environment = false;
  }
  spec.log_path = log_path;
  spec.extra_fd = pair[1];
  auto process = ChildProcess::spawn(spec);
  close(pair[1]);
  if (!process) {
    close(pair[0]);
    return process.error().wrap(role + " zygote");
  }
  return std::unique_ptr<Zygote>(new Zygote(std::move(*process), pair[0], log_path, options));
}

Zygote::~Zygote() {
  close(socket_);  // the zygote exits at the end of its requests
  process_->wait_then_kill(Clock::now() + std::chrono::seconds(2));
}

Error Zygote::failure(const std::string& what) const {
  std::string log = read_tail(log_path_, kLogTail);
  return Error("the zygote failed to fork a worker: " + what + (log.empty() ? "" : "\n" + log));
}

// Sends `message` with the descriptors `fds` (at most kMaxDescriptors) attached.
static constexpr size_t kMaxDescriptors = 5;
static bool send_with_descriptors(int socket, const std::string& message, const std::vector<int>& fds) {
  if (fds.size() > kMaxDescriptors) return false;
  const size_t size = fds.size() * sizeof(int);
  struct iovec data {
    const_cast<char*>(message.data()), message.size()
  };
  alignas(struct cmsghdr) char control[CMSG_SPACE(kMaxDescriptors * sizeof(int))] = {};
  struct msghdr header {};
  header.msg_iov = &data;
  header.msg_iovlen = 1;
  header.msg_control = control;
  header.msg_controllen = CMSG_SPACE(size);
  struct cmsghdr* rights = CMSG_FIRSTHDR(&header);
  rights->cmsg_level = SOL_SOCKET;
  rights->cmsg_type = SCM_RIGHTS;
  rights->cmsg_len = CMSG_LEN(size);
  std::memcpy(CMSG_DATA(rights), fds.data(), size);
  ssize_t sent;
  while ((sent = sendmsg(socket, &header, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  return sent == static_cast<ssize_t>(message.size());
}

Result<std::unique_ptr<ChildProcess>> Zygote::fork_worker(const std::string& log_path, const std::vector<int>& cpus,
                                                          const ContextBaton& baton) {
  std::lock_guard hold(mutex_);
  if (!stopped_.empty()) return failure("it was stopped after an earlier request: " + stopped_);
  auto streams = ChildStreams::open(log_path);
  if (!streams) return streams.error();
  // The worker's stdin, stdout and stderr, then the descriptors of its baton
  // for creating its CUDA context, named in "baton" in the order they come.
  std::vector<int> fds{streams->child_stdin, streams->child_stdout, streams->child_log};
  // A record of the worker protocol (role zygote, data/protocol/worker.json).
  nlohmann::json request{
      {"cmd", "fork"}, {"cpus", cpus}, {"address_space_bytes", nullptr}, {"baton", nlohmann::json::array()}};
  for (auto [name, fd] : {std::pair{"done", baton.done()}, {"after", baton.after()}})
    if (fd >= 0) {
      request["baton"].push_back(name);
      fds.push_back(fd);
    }
  if (options_.device == "cpu" && options_.memory_limit_mb > 0)
    request["address_space_bytes"] = options_.memory_limit_mb * (1L << 20);
  bool sent = send_with_descriptors(socket_, request.dump(), fds);
  streams->close_child_ends();  // the zygote holds its own copies now
  auto fail = [&](const std::string& what) {
    streams->close_parent_ends();
    return failure(what);
  };
  if (!sent) return fail(std::string("cannot send the request: ") + strerror(errno));
  struct pollfd answer_ready {
    socket_, POLLIN, 0
  };
  int ready;
  while ((ready = poll(&answer_ready, 1, kAnswerTimeoutMs)) < 0 && errno == EINTR) {
  }
  if (ready <= 0) {
    // A late answer would be taken for the next request's: no later request.
    stopped_ = ready == 0 ? fmt::format("no answer within {} s", kAnswerTimeoutMs / 1000)
                          : std::string("poll: ") + strerror(errno);
    process_->kill_and_reap();
    return fail(stopped_);
  }
  char buffer[4096];
  ssize_t size;
  while ((size = recv(socket_, buffer, sizeof buffer, 0)) < 0 && errno == EINTR) {
  }
  if (size <= 0) return fail("the zygote " + process_->kill_and_reap().describe());
  auto answer = nlohmann::json::parse(std::string(buffer, static_cast<size_t>(size)), nullptr, false);
  // The zygote is trusted: an answer the protocol does not allow is an error naming the field.
  if (auto allowed = Protocol::compiled().check_event("zygote", answer); !allowed)
    return fail(allowed.error().message() + ": " + answer.dump());
  const std::string event = answer["event"];
  if (event != "forked") return fail(Fields("zygote", event, answer).text("message"));
  return ChildProcess::adopt(static_cast<pid_t>(Fields("zygote", "forked", answer).number("pid")), *streams);
}

}  // namespace kmem::eval

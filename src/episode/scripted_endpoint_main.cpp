// kmem-scripted-endpoint SCRIPT.json [--host H] [--port N]: serves a scripted
// OpenAI-compatible endpoint (scripted_endpoint.h) until killed; prints its
// base URL on the first line of stdout.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

#include "kmem/scripted_endpoint.h"
#include "util/file.h"

int main(int argc, char** argv) {
  CLI::App app{"A scripted OpenAI-compatible endpoint for tests and benchmarks (docs/episodes.md)"};
  std::string script_path, host = "127.0.0.1";
  int port = 0;
  app.add_option("script", script_path, "kmem-scripted-endpoint/1 JSON file")->required();
  app.add_option("--host", host, "address to listen on")->capture_default_str();
  app.add_option("--port", port, "port (0: any free one)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  auto text = kmem::util::read_file(script_path);
  if (!text) {
    std::fprintf(stderr, "kmem-scripted-endpoint: %s\n", text.error().message().c_str());
    return 2;
  }
  auto script = kmem::parse_script(*text, script_path, std::filesystem::path(script_path).parent_path().string());
  if (!script) {
    std::fprintf(stderr, "kmem-scripted-endpoint: %s\n", script.error().message().c_str());
    return 2;
  }
  auto endpoint = kmem::ScriptedEndpoint::start(std::move(*script), host, port);
  if (!endpoint) {
    std::fprintf(stderr, "kmem-scripted-endpoint: %s\n", endpoint.error().message().c_str());
    return 2;
  }
  std::printf("%s\n", (*endpoint)->base_url().c_str());
  std::fflush(stdout);
  (*endpoint)->wait();
  return 0;
}

// What the command-line tests share: a fresh folder per test, reading a file
// whole, and running a shell command line with its stdout and stderr kept
// apart (tests only).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kmem::test {

namespace fs = std::filesystem;

struct CommandOutcome {
  int exit_code;  // -1 when the command did not exit normally
  std::string out;
  std::string err;
};

// The whole file at `path` ("" when it cannot be read).
inline std::string read_whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// An empty folder for the running test: <tmp>/<prefix>_<pid>_<test name>.
inline fs::path fresh_test_dir(const std::string& prefix) {
  fs::path dir = fs::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs `command_line` through the shell; stderr goes through `err_file`.
inline CommandOutcome run_command(const std::string& command_line, const fs::path& err_file) {
  FILE* pipe = popen((command_line + " 2>" + err_file.string()).c_str(), "r");
  std::string out;
  char buffer[65536];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, read_whole_file(err_file)};
}

}  // namespace kmem::test

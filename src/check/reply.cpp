// Reads an agent's reply: finds the ```python fenced blocks and the action
// line. Markdown fences only: a line starting with three or more backticks
// opens a block (its info string names the language) and a line of only
// backticks, at least as many, closes it.
#include <algorithm>
#include <cctype>
#include <string>

#include "kmem/check.h"
#include "rules.h"

namespace kmem {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The number of backticks `line` starts with (a fence from 3 on).
size_t backticks(std::string_view line) { return std::min(line.find_first_not_of('`'), line.size()); }

// The number of backticks `line` ends with.
size_t trailing_backticks(std::string_view line) {
  size_t last = line.find_last_not_of('`');
  return last == std::string_view::npos ? line.size() : line.size() - last - 1;
}

bool is_python_info(std::string_view info) {
  std::string lower(info);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "python" || lower == "py" || lower == "python3";
}

Action action_of(std::string_view line) {
  constexpr std::string_view kPrefix = "ACTION:";
  if (!line.starts_with(kPrefix)) return Action::kNone;
  std::string_view word = trim(line.substr(kPrefix.size()));
  if (word == "CHECK") return Action::kCheck;
  if (word == "SUBMIT") return Action::kSubmit;
  return Action::kNone;
}

}  // namespace

std::string_view action_name(Action action) {
  switch (action) {
    case Action::kCheck: return "CHECK";
    case Action::kSubmit: return "SUBMIT";
    case Action::kNone: break;
  }
  return "none";
}

Reply parse_reply(std::string_view text) {
  enum class State { kOutside, kInPython, kInOther };
  Reply reply;
  State state = State::kOutside;
  std::string block;
  int block_first_line = 0;
  size_t fence_length = 0;  // the open block's fence
  int line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    std::string_view line = trim(raw);
    size_t run = backticks(line);
    bool fence = run >= 3;
    // Inside a block: only backticks, at least as many as opened it; or a
    // line of code that ends with such a fence.
    bool closes = run >= fence_length && run == line.size();
    size_t tail = trailing_backticks(trim(raw));
    bool closes_after_code = !closes && fence_length >= 3 && tail >= fence_length;
    switch (state) {
      case State::kOutside:
        if (fence) {
          bool python = is_python_info(trim(line.substr(run)));
          state = python ? State::kInPython : State::kInOther;
          fence_length = run;
          block.clear();
          block_first_line = line_number + 1;
        } else if (Action a = action_of(line); a != Action::kNone) {
          reply.action = a;
        }
        break;
      case State::kInPython:
        if (closes_after_code) {
          std::string_view code = raw.substr(0, raw.find_last_not_of(" \t\r`") + 1);
          block.append(code);
          block.push_back('\n');
        }
        if (closes || closes_after_code) {
          reply.source = block;
          reply.block_index = reply.block_count++;
          reply.first_line = block_first_line;
          state = State::kOutside;
        } else {
          block.append(raw);
          block.push_back('\n');
        }
        break;
      case State::kInOther:
        if (closes || closes_after_code) state = State::kOutside;
        break;
    }
  }
  if (reply.block_count == 0)
    reply.offences.push_back({std::string(check::kNoCodeBlock.code), std::string(check::kNoCodeBlock.message), 0, 0});
  return reply;
}

}  // namespace kmem

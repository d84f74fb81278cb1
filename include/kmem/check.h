// The checker: static rules applied to a candidate before any of its code
// runs. parse_reply takes the candidate out of an agent's reply; a Checker
// (or the free check_source) parses it as Python (tree-sitter) and returns
// every offence it finds. The codes and messages are listed in
// docs/verdicts.md.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kmem {

// One offence, a finding of the checker: a stable code, its message, and
// where it is (1-based line and byte column in the checked text, lines
// counted as CPython counts them: "\r\n" and a lone '\r' end a line).
// no_code_block has no place (0, 0); no_model_new points at the start of the
// file (1, 1). A candidate may have many; the first is the checker's verdict.
struct Offence {
  std::string code;
  std::string message;
  int line = 0;
  int column = 0;

  bool operator==(const Offence&) const = default;
};

enum class Action { kNone, kCheck, kSubmit };

// What a reply holds. The candidate is the last complete ```python block
// (block_index of block_count complete blocks, both counted from 0 / 1; a
// block opened by a longer fence, ````python, closes at a line of at least
// as many backticks);
// first_line is the reply line where its code starts, to map offence lines
// back onto the reply. A reply without a complete block has the offence
// no_code_block and an empty source.
struct Reply {
  std::string source;
  int block_index = -1;
  int block_count = 0;
  int first_line = 0;
  Action action = Action::kNone;  // the last ACTION: line outside code blocks
  std::vector<Offence> offences;  // empty, or no_code_block
};

Reply parse_reply(std::string_view text);

// Checks candidates one after the other with one Python parser and one node
// buffer, kept between calls (cheaper than the free functions below when
// checking many files). Not thread-safe: use one Checker per thread.
class Checker {
 public:
  Checker();
  ~Checker();
  Checker(Checker&&) noexcept;
  Checker& operator=(Checker&&) noexcept;

  // Every offence of the static rules, in source order; empty when the
  // candidate is clean. A syntax error is the only offence when there is
  // one, and so is a coding declaration naming anything but UTF-8
  // (unreadable_source: CPython would read other text). The rules assume an fp32 problem (KernelBench's): reduced
  // precision is an offence.
  std::vector<Offence> check_source(std::string_view python_source);

  // parse_reply, then check_source on the chosen block, with offence lines
  // counted in the reply (the block's first line is first_line).
  std::vector<Offence> check_reply(std::string_view reply_text);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Conveniences for a single check: a temporary Checker.
std::vector<Offence> check_source(std::string_view python_source);
std::vector<Offence> check_reply(std::string_view reply_text);

std::string_view action_name(Action action);  // "CHECK", "SUBMIT", "none"

}  // namespace kmem

// The Checker: reads the candidate as CPython would (newlines, coding
// declaration), parses it with its parser, reports the first syntax error if
// there is one, else flattens the tree (one cursor walk), gathers the file's
// facts from the nodes and offers every named node to the rules that look at
// its type.
#include "kmem/check.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "context.h"
#include "grammar.h"
#include "python_text.h"
#include "rules.h"
#include "syntax_tree.h"

namespace kmem {
namespace {

using check::Context;
using check::FileFacts;
using check::Finding;
using check::SyntaxTree;

std::string describe_error(const SyntaxTree& tree, TSNode error) {
  if (ts_node_is_missing(error)) return "missing '" + std::string(ts_node_type(error)) + "'";
  std::string_view text = tree.text(error);
  text = text.substr(0, text.find('\n'));
  return "unexpected '" + check::written(check::utf8_prefix(text, 40)) + "'";
}

// A finding's place: its node's start, or 1:1 for the file (a null node).
std::pair<int, int> place(const Finding& f) {
  if (ts_node_is_null(f.at)) return {1, 1};
  return {check::line_of(f.at), check::column_of(f.at)};
}

}  // namespace

struct Checker::State {
  struct Deleter {
    void operator()(TSParser* p) const { ts_parser_delete(p); }
  };
  std::unique_ptr<TSParser, Deleter> parser{ts_parser_new()};
  std::vector<check::FlatNode> nodes;  // the last tree's, flattened
};

Checker::Checker() : state_(std::make_unique<State>()) {
  ts_parser_set_language(state_->parser.get(), check::python_language());
}

Checker::~Checker() = default;
Checker::Checker(Checker&&) noexcept = default;
Checker& Checker::operator=(Checker&&) noexcept = default;

std::vector<Offence> Checker::check_source(std::string_view python_source) {
  std::string translated;  // only for a source holding '\r'
  std::string_view text = check::python_newlines(python_source, translated);
  if (auto coding = check::foreign_coding(text)) {
    const auto& unreadable = check::kUnreadableSource;
    return {{std::string(unreadable.code),
             check::fill(unreadable.message, "target", "coding declaration '" + coding->name + "'"), coding->line,
             coding->column}};
  }
  SyntaxTree tree(state_->parser.get(), text);
  if (auto error = tree.first_error()) {
    const auto& syntax = check::kSyntaxError;
    return {{std::string(syntax.code), check::fill(syntax.message, "detail", describe_error(tree, *error)),
             check::line_of(*error), check::column_of(*error)}};
  }
  std::vector<check::FlatNode>& nodes = state_->nodes;
  check::flatten(tree.root(), nodes);
  FileFacts facts(tree, nodes);
  std::vector<Offence> offences, backstops;
  std::vector<Finding> findings;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    // Every rule looks at named nodes only (no punctuation, no keywords).
    if (!nodes[i].named) continue;
    std::span<const check::Rule* const> rules = check::rules_for(nodes[i].symbol);
    if (rules.empty()) continue;
    Context context(tree, facts, nodes, i);
    for (const check::Rule* rule : rules) {
      findings.clear();
      rule->match(context, findings);
      for (const Finding& f : findings) {
        auto [line, column] = place(f);
        (rule->backstop ? backstops : offences)
            .push_back({std::string(rule->code), check::fill(rule->message, "target", f.target), line, column});
      }
    }
  }
  // Backstop offences only on lines no specific rule reported on.
  std::set<int> lines;
  for (const Offence& v : offences) lines.insert(v.line);
  for (Offence& v : backstops)
    if (!lines.count(v.line)) offences.push_back(std::move(v));
  // The buffer is kept for the next file unless it grew large (2.5 MB).
  if (nodes.capacity() > (1u << 16)) nodes = {};
  std::stable_sort(offences.begin(), offences.end(), [](const Offence& a, const Offence& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  offences.erase(std::unique(offences.begin(), offences.end()), offences.end());
  return offences;
}

std::vector<Offence> Checker::check_reply(std::string_view reply_text) {
  Reply reply = parse_reply(reply_text);
  if (!reply.offences.empty()) return reply.offences;
  std::vector<Offence> offences = check_source(reply.source);
  for (Offence& v : offences)
    if (v.line > 0) v.line += reply.first_line - 1;
  return offences;
}

std::vector<Offence> check_source(std::string_view python_source) { return Checker().check_source(python_source); }

std::vector<Offence> check_reply(std::string_view reply_text) { return Checker().check_reply(reply_text); }

}  // namespace kmem

// The Checker: reads the candidate as CPython would (newlines, coding
// declaration), parses it with its parser, reports the first syntax error if
// there is one, else flattens the tree (one cursor walk), gathers the file's
// facts from the nodes and offers every named node to the rules that look at
// its type. A rule may ask for the verdict on a name read alone
// (FileFacts::passes_alone): a file of its own, checked the same way.
#include "kmem/check.h"

#include <algorithm>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

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

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
using Parser = std::unique_ptr<TSParser, ParserDeleter>;

Parser python_parser() {
  Parser parser(ts_parser_new());
  ts_parser_set_language(parser.get(), check::python_language());
  return parser;
}

// How deep the files of names checked alone (passes_alone) may nest. A name
// holds the candidate's text (`getattr(torch, "nn\n...")` names
// `torch.nn\n...`), so its file may hold a getattr over names of its own,
// each such file inside a plain literal of the one before: literals without
// escapes nest four deep at most (""" around ''' around " around '), so this
// bound never decides a verdict; past it, a name does not pass.
constexpr int kMaxNesting = 8;

std::vector<Offence> check_file(TSParser* parser, std::vector<check::FlatNode>& nodes, std::string_view python_source,
                                int nesting);

// The NameVerdict for the rules of a file at depth `nesting` (0: the
// candidate): the offences of `import <root>` and the name, as a file of
// their own one deeper, are at most no_model_new. The one place the checker
// checks a source other than the candidate.
bool passes_alone(std::string_view qualified, int nesting) {
  if (nesting + 1 > kMaxNesting) return false;
  std::string source =
      "import " + std::string(qualified.substr(0, qualified.find('.'))) + "\n" + std::string(qualified) + "\n";
  Parser parser = python_parser();
  std::vector<check::FlatNode> nodes;
  for (const Offence& offence : check_file(parser.get(), nodes, source, nesting + 1))
    if (offence.code != "no_model_new") return false;
  return true;
}

// Every offence of `python_source`, parsed with `parser` into `nodes` (a
// buffer kept between files), a file at depth `nesting` (passes_alone).
std::vector<Offence> check_file(TSParser* parser, std::vector<check::FlatNode>& nodes, std::string_view python_source,
                                int nesting) {
  std::string translated;  // only for a source holding '\r'
  std::string_view text = check::python_newlines(python_source, translated);
  if (auto coding = check::foreign_coding(text)) {
    const auto& unreadable = check::kUnreadableSource;
    return {{std::string(unreadable.code),
             check::fill(unreadable.message, "target", "coding declaration '" + coding->name + "'"), coding->line,
             coding->column}};
  }
  SyntaxTree tree(parser, text);
  if (auto error = tree.first_error()) {
    const auto& syntax = check::kSyntaxError;
    return {{std::string(syntax.code), check::fill(syntax.message, "detail", describe_error(tree, *error)),
             check::line_of(*error), check::column_of(*error)}};
  }
  check::flatten(tree.root(), nodes);
  FileFacts facts(tree, nodes, [nesting](std::string_view qualified) { return passes_alone(qualified, nesting); });
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

}  // namespace

struct Checker::State {
  Parser parser = python_parser();
  std::vector<check::FlatNode> nodes;  // the last tree's, flattened
};

Checker::Checker() : state_(std::make_unique<State>()) {}

Checker::~Checker() = default;
Checker::Checker(Checker&&) noexcept = default;
Checker& Checker::operator=(Checker&&) noexcept = default;

std::vector<Offence> Checker::check_source(std::string_view python_source) {
  return check_file(state_->parser.get(), state_->nodes, python_source, 0);
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

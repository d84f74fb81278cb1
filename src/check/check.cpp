// check_source: parses the candidate, reports the first syntax error if there
// is one, else walks the tree once (a cursor, iteratively) and offers every
// node to every rule of the table.
#include <algorithm>

#include "context.h"
#include "kmem/check.h"
#include "rules.h"
#include "syntax_tree.h"

namespace kmem {
namespace {

using check_internal::Context;
using check_internal::FileFacts;
using check_internal::Finding;
using check_internal::SyntaxTree;

std::string describe_error(const SyntaxTree& tree, TSNode error) {
  if (ts_node_is_missing(error)) return "missing '" + std::string(ts_node_type(error)) + "'";
  std::string_view text = tree.text(error);
  text = text.substr(0, text.find('\n'));
  return "unexpected '" + check_internal::written(text.substr(0, 40)) + "'";
}

}  // namespace

std::vector<Verdict> check_source(std::string_view python_source) {
  SyntaxTree tree(python_source);
  if (auto error = tree.first_error()) {
    const auto& syntax = check_internal::kSyntaxError;
    return {{std::string(syntax.code),
             check_internal::fill(syntax.message, "detail", describe_error(tree, *error)),
             check_internal::line_of(*error), check_internal::column_of(*error)}};
  }
  FileFacts facts(tree);
  std::vector<Verdict> verdicts;
  std::vector<TSNode> path;
  std::vector<Finding> findings;
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  path.push_back(tree.root());
  for (bool more = true; more;) {
    // Every rule looks at named nodes only (no punctuation, no keywords).
    if (ts_node_is_named(path.back())) {
      Context context(tree, facts, path, check_internal::type_of(path.back()));
      for (const check_internal::Rule& rule : check_internal::rules()) {
        findings.clear();
        rule.match(context, findings);
        for (const Finding& f : findings)
          verdicts.push_back({std::string(rule.code),
                              check_internal::fill(rule.message, "target", f.target),
                              check_internal::line_of(f.at), check_internal::column_of(f.at)});
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      path.push_back(ts_tree_cursor_current_node(&cursor));
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      path.pop_back();
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
    if (more) path.back() = ts_tree_cursor_current_node(&cursor);
  }
  ts_tree_cursor_delete(&cursor);
  std::stable_sort(verdicts.begin(), verdicts.end(), [](const Verdict& a, const Verdict& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  verdicts.erase(std::unique(verdicts.begin(), verdicts.end()), verdicts.end());
  return verdicts;
}

}  // namespace kmem

namespace kmem {

std::vector<Verdict> check_reply(std::string_view reply_text) {
  Reply reply = parse_reply(reply_text);
  if (!reply.verdicts.empty()) return reply.verdicts;
  std::vector<Verdict> verdicts = check_source(reply.source);
  for (Verdict& v : verdicts)
    if (v.line > 0) v.line += reply.first_line - 1;
  return verdicts;
}

}  // namespace kmem

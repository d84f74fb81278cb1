// Parsing with tree-sitter, finding the first syntax error and flattening the
// tree, iteratively (a cursor, no recursion) so that deeply nested code cannot
// overflow the stack.
#include "syntax_tree.h"

#include <cstring>

namespace kmem::check {

SyntaxTree::SyntaxTree(TSParser* parser, std::string_view source)
    : source_(source),
      tree_(ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()))) {}

std::string_view SyntaxTree::text(TSNode node) const {
  uint32_t start = ts_node_start_byte(node);
  uint32_t end = ts_node_end_byte(node);
  if (start > source_.size() || end > source_.size() || end < start) return {};
  return source_.substr(start, end - start);
}

std::optional<TSNode> SyntaxTree::first_error() const {
  TSNode root = this->root();
  if (!ts_node_has_error(root)) return std::nullopt;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::optional<TSNode> found;
  while (!found) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (std::strcmp(ts_node_type(node), "ERROR") == 0 || ts_node_is_missing(node)) {
      found = node;
    } else if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&cursor)) {
      continue;
    } else {
      // Next sibling, climbing up as needed; a tree marked as erroneous
      // always holds an error node, so this ends at one.
      while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
        if (!ts_tree_cursor_goto_parent(&cursor)) {
          ts_tree_cursor_delete(&cursor);
          return root;
        }
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

void flatten(TSNode root, std::vector<FlatNode>& out) {
  out.clear();
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  auto record = [&](uint32_t parent) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    out.push_back({node, parent, ts_node_symbol(node), ts_node_is_named(node)});
    return static_cast<uint32_t>(out.size() - 1);
  };
  uint32_t current = record(0);
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      current = record(current);
      continue;
    }
    // The next sibling, climbing up as needed; done back at the root.
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
      current = out[current].parent;
    }
    current = record(out[current].parent);
  }
}

}  // namespace kmem::check

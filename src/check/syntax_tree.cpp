// Parsing with tree-sitter and finding the first syntax error, iteratively
// (a cursor, no recursion) so that deeply nested code cannot overflow the stack.
#include "syntax_tree.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace kmem::check_internal {

SyntaxTree::SyntaxTree(std::string_view source) : source_(source), parser_(ts_parser_new()) {
  ts_parser_set_language(parser_.get(), tree_sitter_python());
  tree_.reset(ts_parser_parse_string(parser_.get(), nullptr, source.data(),
                                     static_cast<uint32_t>(source.size())));
}

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
    if (type_of(node) == "ERROR" || ts_node_is_missing(node)) {
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

}  // namespace kmem::check_internal

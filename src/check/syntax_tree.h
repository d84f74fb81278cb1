// A Python syntax tree (tree-sitter, the npm tree-sitter-python grammar) that
// owns its parser and tree, plus the few node helpers the rules share.
#pragma once

#include <tree_sitter/api.h>

#include <memory>
#include <optional>
#include <string_view>

namespace kmem::check_internal {

class SyntaxTree {
 public:
  // Parses `source`, which must outlive the tree.
  explicit SyntaxTree(std::string_view source);

  TSNode root() const { return ts_tree_root_node(tree_.get()); }
  std::string_view source() const { return source_; }
  std::string_view text(TSNode node) const;

  // The first ERROR or MISSING node in document order, if any.
  std::optional<TSNode> first_error() const;

 private:
  struct ParserDeleter {
    void operator()(TSParser* p) const { ts_parser_delete(p); }
  };
  struct TreeDeleter {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  std::string_view source_;
  std::unique_ptr<TSParser, ParserDeleter> parser_;
  std::unique_ptr<TSTree, TreeDeleter> tree_;
};

inline std::string_view type_of(TSNode node) { return ts_node_type(node); }

inline TSNode field(TSNode node, std::string_view name) {
  return ts_node_child_by_field_name(node, name.data(), static_cast<uint32_t>(name.size()));
}

// 1-based line and byte column of a node's start.
inline int line_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }
inline int column_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).column) + 1; }

}  // namespace kmem::check_internal

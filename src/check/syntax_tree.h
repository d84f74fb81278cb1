// A Python syntax tree (tree-sitter, the npm tree-sitter-python grammar) that
// owns its tree, flattening a tree's nodes in document order for the rules,
// and the few node helpers they share.
#pragma once

#include <tree_sitter/api.h>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace kmem::check {

class SyntaxTree {
 public:
  // Parses `source`, which must outlive the tree, with `parser` (set to
  // python_language(); it may parse other files afterwards).
  SyntaxTree(TSParser* parser, std::string_view source);

  TSNode root() const { return ts_tree_root_node(tree_.get()); }
  std::string_view text(TSNode node) const;

  // The first ERROR or MISSING node in document order, if any.
  std::optional<TSNode> first_error() const;

 private:
  struct TreeDeleter {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  std::string_view source_;
  std::unique_ptr<TSTree, TreeDeleter> tree_;
};

// One node of a tree flattened in document order (pre-order).
struct FlatNode {
  TSNode node;
  uint32_t parent;  // the index of its parent; the root (index 0) has 0
  TSSymbol symbol;
  bool named;  // false for keywords and punctuation
};

// Replaces `out` with every node of the tree under `root` (one cursor walk,
// iterative).
void flatten(TSNode root, std::vector<FlatNode>& out);

inline TSNode field(TSNode node, TSFieldId id) { return ts_node_child_by_field_id(node, id); }

// 1-based line and byte column of a node's start.
inline int line_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }
inline int column_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).column) + 1; }

}  // namespace kmem::check

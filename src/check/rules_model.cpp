// Rules on the candidate's class: it defines ModelNew, and neither defines
// nor uses the reference Model (nor reaches it through __main__).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "grammar.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check {

void defines_model(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().class_definition) return;
  TSNode name = field(c.node(), c.grammar().field_name);
  if (!ts_node_is_null(name) && c.text(name) == "Model") out.push_back({name, ""});
}

// Reported at the start of the file (a null node), whatever comes first.
void no_model_new(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() == c.grammar().module && !c.facts().defines_model_new()) out.push_back({TSNode{}, ""});
}

void references_model(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (c.symbol() != g.identifier) return;
  std::string_view name = c.text(node);
  if (name != "Model" && name != "__main__") return;
  if (name == "Model" && c.parent_symbol() == g.class_definition && ts_node_eq(field(c.parent(), g.field_name), node))
    return;  // defines_model
  out.push_back({node, std::string(name)});
}

}  // namespace kmem::check

// The node types and fields of the Python grammar that the checker looks at,
// as tree-sitter ids: the rules compare integers, never type or field names.
// The table is looked up once from the compiled-in grammar and never changes.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

namespace kmem::check {

const TSLanguage* python_language();

// The named node type `name` ("call"); throws std::logic_error naming it if
// the grammar has none.
TSSymbol python_symbol(std::string_view name);

struct Grammar {
  // Named node types (public symbols, so aliases compare equal).
  TSSymbol aliased_import, argument_list, as_pattern, as_pattern_target, assignment, attribute, augmented_assignment,
      binary_operator, block, break_statement, call, class_definition, comparison_operator, concatenated_string,
      continue_statement, decorated_definition, decorator, default_parameter, delete_statement, dictionary_splat,
      dotted_name, escape_sequence, except_clause, expression_statement, float_, except_group_clause, expression_list,
      false_, finally_clause, for_in_clause, for_statement, function_definition, identifier, import_from_statement,
      import_statement, integer, interpolation, keyword_argument, lambda, list, list_pattern, list_splat,
      list_splat_pattern, module, named_expression, none, parenthesized_expression, pattern_list, return_statement,
      string, string_content, true_, try_statement, tuple, tuple_pattern, typed_default_parameter, typed_parameter,
      wildcard_import, with_item;
  // Field ids, named as in the generated parser (field_left for "left").
  TSFieldId field_alias, field_arguments, field_attribute, field_body, field_function, field_left, field_module_name,
      field_name, field_object, field_parameters, field_right, field_value;

  // Whether `symbol` is a target pattern that holds other targets (a tuple,
  // a list, a star, parentheses).
  bool is_target_group(TSSymbol symbol) const;
};

// The table for python_language(); throws std::logic_error naming the type
// or field if the grammar lacks one.
const Grammar& python_grammar();

}  // namespace kmem::check

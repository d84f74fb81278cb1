// Looks the checker's node types and fields up in the Python grammar, once.
#include "grammar.h"

#include <cstring>
#include <stdexcept>
#include <string>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace kmem::check {
namespace {

TSFieldId field(const char* name) {
  TSFieldId id = ts_language_field_id_for_name(python_language(), name, static_cast<uint32_t>(std::strlen(name)));
  if (id == 0) throw std::logic_error(std::string("the Python grammar has no field '") + name + "'");
  return id;
}

Grammar look_up() {
  Grammar g;
  g.aliased_import = python_symbol("aliased_import");
  g.argument_list = python_symbol("argument_list");
  g.as_pattern = python_symbol("as_pattern");
  g.as_pattern_target = python_symbol("as_pattern_target");
  g.assignment = python_symbol("assignment");
  g.attribute = python_symbol("attribute");
  g.augmented_assignment = python_symbol("augmented_assignment");
  g.block = python_symbol("block");
  g.binary_operator = python_symbol("binary_operator");
  g.break_statement = python_symbol("break_statement");
  g.comparison_operator = python_symbol("comparison_operator");
  g.concatenated_string = python_symbol("concatenated_string");
  g.continue_statement = python_symbol("continue_statement");
  g.escape_sequence = python_symbol("escape_sequence");
  g.false_ = python_symbol("false");
  g.finally_clause = python_symbol("finally_clause");
  g.none = python_symbol("none");
  g.return_statement = python_symbol("return_statement");
  g.call = python_symbol("call");
  g.class_definition = python_symbol("class_definition");
  g.decorated_definition = python_symbol("decorated_definition");
  g.decorator = python_symbol("decorator");
  g.default_parameter = python_symbol("default_parameter");
  g.delete_statement = python_symbol("delete_statement");
  g.dictionary_splat = python_symbol("dictionary_splat");
  g.dotted_name = python_symbol("dotted_name");
  g.except_clause = python_symbol("except_clause");
  g.expression_statement = python_symbol("expression_statement");
  g.float_ = python_symbol("float");
  g.except_group_clause = python_symbol("except_group_clause");
  g.expression_list = python_symbol("expression_list");
  g.for_in_clause = python_symbol("for_in_clause");
  g.for_statement = python_symbol("for_statement");
  g.function_definition = python_symbol("function_definition");
  g.identifier = python_symbol("identifier");
  g.import_from_statement = python_symbol("import_from_statement");
  g.integer = python_symbol("integer");
  g.import_statement = python_symbol("import_statement");
  g.interpolation = python_symbol("interpolation");
  g.keyword_argument = python_symbol("keyword_argument");
  g.lambda = python_symbol("lambda");
  g.list = python_symbol("list");
  g.list_pattern = python_symbol("list_pattern");
  g.list_splat = python_symbol("list_splat");
  g.list_splat_pattern = python_symbol("list_splat_pattern");
  g.module = python_symbol("module");
  g.named_expression = python_symbol("named_expression");
  g.parenthesized_expression = python_symbol("parenthesized_expression");
  g.pattern_list = python_symbol("pattern_list");
  g.string = python_symbol("string");
  g.string_content = python_symbol("string_content");
  g.true_ = python_symbol("true");
  g.try_statement = python_symbol("try_statement");
  g.tuple = python_symbol("tuple");
  g.tuple_pattern = python_symbol("tuple_pattern");
  g.typed_default_parameter = python_symbol("typed_default_parameter");
  g.typed_parameter = python_symbol("typed_parameter");
  g.wildcard_import = python_symbol("wildcard_import");
  g.with_item = python_symbol("with_item");

  g.field_alias = field("alias");
  g.field_arguments = field("arguments");
  g.field_attribute = field("attribute");
  g.field_body = field("body");
  g.field_function = field("function");
  g.field_left = field("left");
  g.field_module_name = field("module_name");
  g.field_name = field("name");
  g.field_object = field("object");
  g.field_parameters = field("parameters");
  g.field_right = field("right");
  g.field_value = field("value");
  return g;
}

}  // namespace

const TSLanguage* python_language() { return tree_sitter_python(); }

TSSymbol python_symbol(std::string_view name) {
  TSSymbol id = ts_language_symbol_for_name(python_language(), name.data(), static_cast<uint32_t>(name.size()), true);
  if (id == 0) throw std::logic_error("the Python grammar has no node type '" + std::string(name) + "'");
  return id;
}

bool Grammar::is_target_group(TSSymbol s) const {
  return s == pattern_list || s == tuple_pattern || s == list_pattern || s == expression_list || s == tuple ||
         s == list || s == parenthesized_expression || s == list_splat_pattern || s == list_splat ||
         s == as_pattern_target;
}

const Grammar& python_grammar() {
  static const Grammar grammar = look_up();
  return grammar;
}

}  // namespace kmem::check

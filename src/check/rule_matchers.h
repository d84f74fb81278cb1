// The matcher of each rule in the table (rules.cpp), defined by family:
// rules_model.cpp, rules_attributes.cpp, rules_concurrency.cpp,
// rules_patching.cpp, rules_reading.cpp, rules_fallback.cpp,
// rules_precision.cpp, rules_dynamic_code.cpp, rules_native_python.cpp,
// rules_backstop.cpp. Each looks
// at the context's current node and appends what it finds.
#pragma once

#include <vector>

#include "context.h"
#include "rules.h"

namespace kmem::check {

// rules_model.cpp
void no_model_new(const Context& c, std::vector<Finding>& out);
void defines_model(const Context& c, std::vector<Finding>& out);
void references_model(const Context& c, std::vector<Finding>& out);
// rules_attributes.cpp
void dynamic_getattr(const Context& c, std::vector<Finding>& out);
void dynamic_getattr_names(const Context& c, std::vector<Finding>& out);
void dynamic_setattr(const Context& c, std::vector<Finding>& out);
void foreign_attribute_assignment(const Context& c, std::vector<Finding>& out);
// rules_concurrency.cpp
void uses_threads(const Context& c, std::vector<Finding>& out);
void side_stream(const Context& c, std::vector<Finding>& out);
// rules_patching.cpp
void runtime_patching(const Context& c, std::vector<Finding>& out);
// rules_reading.cpp
void introspection(const Context& c, std::vector<Finding>& out);
void seed_manipulation(const Context& c, std::vector<Finding>& out);
// rules_fallback.cpp
void try_fallback(const Context& c, std::vector<Finding>& out);
// rules_precision.cpp
void precision_downcast(const Context& c, std::vector<Finding>& out);
// rules_dynamic_code.cpp
void non_ascii_name(const Context& c, std::vector<Finding>& out);
void dynamic_code(const Context& c, std::vector<Finding>& out);
// rules_native_python.cpp
void native_python(const Context& c, std::vector<Finding>& out);
void native_keyword_macro(const Context& c, std::vector<Finding>& out);
// rules_backstop.cpp
void forbidden_import(const Context& c, std::vector<Finding>& out);
void private_attribute(const Context& c, std::vector<Finding>& out);
void module_as_value(const Context& c, std::vector<Finding>& out);

}  // namespace kmem::check

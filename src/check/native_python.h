// What of Python a candidate's native source (C++/CUDA given to
// load_inline) may touch, by allow-list rather than by a list of dangerous
// calls: it binds its functions and classes to Python with PYBIND11_MODULE
// and pybind11's binding descriptors (`m.def`, `class_`, `init`, `arg`, ...),
// and reaches no object of Python's from C++ in any other way. The built
// library's imports cannot tell a binding's own C-API calls from the
// candidate's (docs/evaluator.md, Native code), so the source is where the
// line is drawn.
#pragma once

#include <string>
#include <string_view>

namespace kmem::check {

// The first thing in `text` (native source as native_tokens gives it) by
// which C++ would reach Python beyond binding its own functions: a name of
// the C-API or of CPython's objects (`PyObject_GetAttrString`, `Py_INCREF`,
// `->ob_type`, `THPVariable_Wrap`, `SafePyObject`), a pybind11 name not
// among the binding descriptors (`py::object`, `py::module_::import`,
// `pybind11::globals`), pybind11 named other than as `pybind11::NAME`
// (`using namespace pybind11`, a macro), an attribute read (`.attr(`,
// `getattr`), an import through a module object (`mod.import("os")`), an
// object's PyObject pointer (`.ptr()`), a pybind11 macro but
// PYBIND11_MODULE, PYBIND11_MODULE in a directive (a macro for it), or the
// module of a PYBIND11_MODULE used other than to define names
// (`m.def(...)`, `class_<T>(m, ...)`). Empty when none; string and
// character literals are not read.
std::string python_reach(std::string_view text);

}  // namespace kmem::check

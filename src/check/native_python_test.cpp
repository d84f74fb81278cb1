// python_reach: the bindings honest extensions write pass; every other way
// from C++ to a Python object is named, however it is spelled. And
// blank_literals (native_source.h), through which it reads the code.
#include "native_python.h"

#include <gtest/gtest.h>

#include "native_source.h"

namespace kmem::check {
namespace {

std::string reach(std::string_view source) { return python_reach(native_tokens(source)); }

TEST(NativePython, BindingsOfOwnFunctionsAndClassesPass) {
  EXPECT_EQ(reach(R"(
#include <torch/extension.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
namespace py = pybind11;
torch::Tensor forward(torch::Tensor x, double k);  // PyTorch's tensors, "getattr" in a literal
struct Scaler { float k; explicit Scaler(float k) : k(k) {} };
enum class Mode { A, B };
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "kernels";
  m.def("forward", &forward, "forward", py::arg("x"), py::arg("k") = 2.0, py::arg("bias") = py::none(),
        py::call_guard<py::gil_scoped_release>());
  m.def("twice", [](torch::Tensor x) { return py::make_tuple(x, x); });
  pybind11::class_<Scaler>(m, "Scaler").def(pybind11::init<float>()).def_readwrite("k", &Scaler::k);
  py::enum_<Mode>(m, "Mode").value("A", Mode::A);
  m.def("view", &forward, py::return_value_policy::reference_internal);
})"),
            "");
  // A variable named py, a member ptr that is no call, cudaFuncAttributes attr.
  EXPECT_EQ(reach("int py = 3; struct S { float* ptr; } s; float v = s.ptr[py]; cudaFuncAttributes attr;"), "");
}

TEST(NativePython, TheCApiAndCPythonsObjectsAreNamed) {
  EXPECT_EQ(reach("void f() { PyRun_SimpleString(\"import os\"); }"), "PyRun_SimpleString");
  EXPECT_EQ(reach("void f(PyObject* o) {}"), "PyObject");
  EXPECT_EQ(reach("void f() { Py_INCREF(x); }"), "Py_INCREF");
  EXPECT_EQ(reach("auto b = _PyEval_GetBuiltins();"), "_PyEval_GetBuiltins");
  EXPECT_EQ(reach("auto o = THPVariable_Wrap(t);"), "THPVariable_Wrap");
  EXPECT_EQ(reach("c10::SafePyObject s;"), "SafePyObject");
  EXPECT_EQ(reach("auto s = t.unsafeGetTensorImpl()->pyobj_slot();"), ".pyobj_slot");
  EXPECT_EQ(reach("auto g = p->ob_type->tp_getattro;"), ".ob_type");
  EXPECT_EQ(reach("auto o = v.toPyObject();"), ".toPyObject");
  EXPECT_EQ(reach("torch::getTHPDtype(at::kFloat)->scalar_type = at::kDouble;"), "getTHPDtype");
  EXPECT_EQ(reach("c10::impl::PythonDispatcherTLS::set_state(nullptr);"), "PythonDispatcherTLS");
  EXPECT_EQ(reach("auto* i = c10::impl::GPUTrace::get_trace();"), "GPUTrace");
  EXPECT_EQ(reach("constexpr int WIDTHPAD = 4; int THREADS = 256;"), "");
}

TEST(NativePython, PybindNamesBeyondBindingAreNamed) {
  EXPECT_EQ(reach("py::object o;"), "py::object");
  EXPECT_EQ(reach("auto os = pybind11::module_::import(\"os\");"), "pybind11::module_::import");
  EXPECT_EQ(reach("void f() { auto os = m.import(\"os\"); }"), ".import");
  EXPECT_EQ(reach("auto g = ::pybind11::globals();"), "pybind11::globals");
  EXPECT_EQ(reach("pybind11::detail::get_internals();"), "pybind11::detail::get_internals");
  // An alias is expanded where used; a directive or macro names pybind11 itself.
  EXPECT_EQ(reach("namespace q = pybind11; q::handle h;"), "pybind11::handle");
  EXPECT_EQ(reach("using namespace pybind11; void f() {}"), "using namespace pybind11");
  EXPECT_EQ(reach("using   namespace py; void f() {}"), "using namespace py");
  EXPECT_EQ(reach("#define P pybind11\nP::object o;"), "#define naming pybind11");
  EXPECT_EQ(reach("PYBIND11_EMBEDDED_MODULE(x, m) {}"), "PYBIND11_EMBEDDED_MODULE");
  // Casters of Python callables into std::function, or the embedded interpreter.
  EXPECT_EQ(reach("#include <pybind11/functional.h>\nvoid f(std::function<void()> g) { g(); }"),
            "#include <pybind11/functional.h>");
  EXPECT_EQ(reach("#include \"pybind11/embed.h\"\n"), "#include <pybind11/embed.h>");
  EXPECT_EQ(reach("#include <torch/csrc/jit/python/pybind.h>\n"), "#include <torch/csrc/jit/python/pybind.h>");
  EXPECT_EQ(reach("#include <Python.h>\n"), "#include <Python.h>");
  // Objects handed in from Python, whose items could be called.
  EXPECT_EQ(reach("void f(torch::Tensor x, py::tuple hooks) { hooks[0](); }"), "py::tuple");
  EXPECT_EQ(reach("void f(pybind11::list hooks) {}"), "pybind11::list");
  EXPECT_EQ(reach("void f(py::module_ mod) {}"), "py::module_");
  EXPECT_EQ(reach("void f(py::object o) { auto t = o.get_type(); }"), "py::object");
  EXPECT_EQ(reach("void f(torch::Tensor x) { auto t = py::make_tuple(x)[0].get_type(); }"), ".get_type");
  EXPECT_EQ(reach("void f(torch::Tensor x) { decltype(py::make_tuple(x).doc()) a(py::make_tuple(x), \"k\"); }"),
            ".doc");
  // Macros naming an object's members or the module.
  EXPECT_EQ(reach("#define FIELD attr\nvoid f(X o) { o.FIELD(\"x\"); }"), "#define naming attr");
  EXPECT_EQ(reach("#define TYPE_OF ob_type\nvoid f(X* o) { o->TYPE_OF; }"), "#define naming ob_type");
  EXPECT_EQ(reach("#define THE_MODULE m\nPYBIND11_MODULE(n, m) { auto& mod = THE_MODULE; }"),
            "the module 'm' used other than to define names");  // the name macro is expanded
  EXPECT_EQ(reach("#define THE_MODULE(x) x\nPYBIND11_MODULE(n, m) { auto& mod = THE_MODULE(m); }"),
            "the macro 'THE_MODULE' inside PYBIND11_MODULE");
  EXPECT_EQ(reach("#include_next <pybind11/functional.h>\n"), "#include <pybind11/functional.h>");
  EXPECT_EQ(reach("#include <./pybind11/functional.h>\n"), "#include <./pybind11/functional.h>");
}

TEST(NativePython, AttributesAndPointersOfObjectsAreNamed) {
  EXPECT_EQ(reach("void f(X o) { o.attr(\"x\") = 1; }"), ".attr");
  EXPECT_EQ(reach("void f(X o) { o . attr (\"x\"); }"), ".attr");
  EXPECT_EQ(reach("void f(X o) { auto v = getattr(o, \"x\"); }"), "getattr");
  EXPECT_EQ(reach("auto f = &setattr;"), "setattr");
  EXPECT_EQ(reach("auto p = m.ptr();"), ".ptr()");
}

TEST(NativeSource, BlankLiteralsKeepsOffsetsAndCodeAndBlanksWhatLiteralsHold) {
  EXPECT_EQ(blank_literals("f(\"a(b\", 'c', x);"), "f(\"   \", ' ', x);");
  EXPECT_EQ(blank_literals("s = u8R\"x(a\"b\n)\")x\"; y"), "s = u8R\"     \n    \"; y");
  EXPECT_EQ(blank_literals("t = \"\\\"(\" + z"), "t = \"   \" + z");
}

TEST(NativePython, RawStringsOfEveryPrefixAreLiterals) {
  // A raw string's quote does not open a literal that hides the code after it.
  for (std::string prefix : {"R", "u8R", "uR", "UR", "LR"})
    EXPECT_EQ(reach("auto s = " + prefix + "\"(\")\"; void f(pybind11::handle h) { h(); } auto e = \"\";"),
              "pybind11::handle")
        << prefix;
  EXPECT_EQ(reach("auto s = u8R\"x(PyObject* o; \")x\";"), "");
}

TEST(NativePython, TheModuleDefinesNamesOnly) {
  EXPECT_EQ(reach("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { bind(m); }"),
            "the module 'm' used other than to define names");
  EXPECT_EQ(reach("PYBIND11_MODULE(name, mod) { decltype(mod) other = mod; }"),
            "the module 'mod' used other than to define names");
  EXPECT_EQ(reach("PYBIND11_MODULE(name, m) { m.def_submodule(\"x\"); }"),
            "the module 'm' used other than to define names");
  EXPECT_EQ(reach("PYBIND11_MODULE(name, m) { helper<int>(m, \"x\"); }"),
            "the module 'm' used other than to define names");
  // What m.def and class_ give back is the module or a class object: handed on, a template
  // reaches pybind11's object through it.
  EXPECT_EQ(reach("PYBIND11_MODULE(name, m) { bind(m.def(\"f\", &f)); }"),
            "the module 'm' used other than to define names");
  EXPECT_EQ(reach("PYBIND11_MODULE(name, m) { bind(py::class_<S>(m, \"S\")); }"),
            "the module 'm' used other than to define names");
  // A module variable of any name.
  EXPECT_EQ(reach("PYBIND11_MODULE(name, mod) { mod.def(\"f\", &f);\n  py::class_<S>(mod, \"S\").def(py::init<>()); }"),
            "");
  // Under a macro's name, its module's uses would go unread.
  EXPECT_EQ(reach("#define MOD PYBIND11_MODULE\nMOD(name, m) { bind(m); }"), "PYBIND11_MODULE in a directive");
  EXPECT_EQ(reach("#define MOD(n, v) PYBIND11_MODULE(n, v)\nMOD(name, m) { bind(m); }"),
            "PYBIND11_MODULE in a directive");
  // A brace in a literal does not end the module's body early.
  EXPECT_EQ(reach("PYBIND11_MODULE(name, m) { m.doc() = \"}\"; char c = '}'; bind(m); }"),
            "the module 'm' used other than to define names");
  // A class_ of the source's own is no builder of pybind11's.
  EXPECT_EQ(reach("template <class T> struct class_ { template <class M> class_(M& m, const char*) {} };\n"
                  "PYBIND11_MODULE(name, m) { class_<int>(m, \"x\"); }"),
            "the module 'm' used other than to define names");
  // Only the module's own uses count: another m inside a kernel is a variable.
  EXPECT_EQ(reach("__global__ void k(int m) { int y = m + 1; }\nPYBIND11_MODULE(name, m) { m.def(\"k\", &f); }"), "");
}

// native_tokens reads the source as the compiler's first phases do.
TEST(NativeSource, TokensAreReadAsTheCompilerReadsThem) {
  // Splices over any blank (GCC and nvcc), a lone carriage return ending a line.
  EXPECT_EQ(native_tokens("// note \\\f\nint x;"), "");
  EXPECT_EQ(native_tokens("// note \\ \t\nint x;"), "");
  EXPECT_EQ(native_tokens("// note\rint x;"), "\nint x;");
  // Preprocessing numbers: no quote of theirs opens a literal.
  EXPECT_EQ(native_tokens("int a = 1'000; int b = 9'z; thread t;"), "int a = 1000; int b = 9z; thread t;");
  EXPECT_EQ(native_tokens("auto s = 8R\"(x)\"; thread t;"), "auto s = 8R\"(x)\"; thread t;");
  // An unterminated literal ends with its line.
  EXPECT_EQ(native_tokens("#if 0\nit's\n#endif\nthread t;"), "#if 0\nit's\n#endif\nthread t;");
  // Adjacent literals join across comments; string and name macros expand.
  EXPECT_EQ(native_tokens("auto s = \"dp\" /* */ \"4a\";"), "auto s = \"dp4a\";");
  EXPECT_NE(native_tokens("#define T \"4a\"\nauto s = \"dp\" T;").find("\"dp4a\""), std::string::npos);
  EXPECT_NE(native_tokens("#define NS std\nNS::thread t;").find("std::thread t;"), std::string::npos);
  // Aliases of aliases; a directive after `::` on the next line stays one.
  EXPECT_NE(native_tokens("namespace a = std; namespace b = a; b::thread t;").find("std::thread t;"),
            std::string::npos);
  EXPECT_EQ(directives(native_tokens("int y = ::\n#define X 1\nx;"), "define").size(), 1u);
}

}  // namespace
}  // namespace kmem::check

// check_source: one accepted and one rejected case per rule, the tricky
// cases (aliases, nested functions, strings that only mention a name, source
// that CPython reads other than the bytes say), the 44 seed kernels (all must
// pass), deep nesting and large files, and the agreement of the rule table
// with docs/verdicts.md.
#include "kmem/check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "rules.h"

namespace kmem {
namespace {

// A candidate with `top` at module level and `body` inside ModelNew.forward.
std::string candidate(std::string_view top, std::string_view body = "return x") {
  std::string out = "import torch\nimport torch.nn as nn\n";
  out.append(top);
  out +=
      "\n\nclass ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
      "    def forward(self, x):\n";
  std::istringstream lines{std::string(body)};
  for (std::string line; std::getline(lines, line);) out += "        " + line + "\n";
  return out;
}

std::vector<std::string> codes(std::string_view source) {
  std::vector<std::string> out;
  for (const Offence& v : check_source(source)) out.push_back(v.code);
  return out;
}

std::string describe(std::string_view source) {
  std::string out;
  for (const Offence& v : check_source(source))
    out += std::to_string(v.line) + ":" + std::to_string(v.column) + " " + v.code + ": " + v.message + "\n";
  return out;
}

#define EXPECT_CLEAN(src)                                  \
  do {                                                     \
    std::string s_ = (src);                                \
    EXPECT_TRUE(check_source(s_).empty()) << describe(s_); \
  } while (0)

// Exactly the given codes (in source order).
#define EXPECT_CODES(src, ...)                                                     \
  do {                                                                             \
    std::string s_ = (src);                                                        \
    EXPECT_EQ(codes(s_), (std::vector<std::string>{__VA_ARGS__})) << describe(s_); \
  } while (0)

TEST(Check, CleanCandidatePasses) { EXPECT_CLEAN(candidate("")); }

// A method of one's own class called through the class: its self must be the
// caller's own self; a class as any method's self is refused.
TEST(Check, AClassAsAMethodsSelfIsPatching) {
  const char* helper =
      "class Helper:\n    def put(self, v):\n        self.detach = v\n"
      "    @staticmethod\n    def twice(v):\n        return v * 2\n";
  EXPECT_CODES(candidate(helper, "Helper.put(torch.Tensor, None)\nreturn x"), "runtime_patching");
  EXPECT_CODES(candidate(helper, "Helper.put(x, None)\nreturn x"), "runtime_patching");
  EXPECT_CODES(candidate(helper, "f = Helper.put\nreturn x"), "runtime_patching");
  EXPECT_CODES(candidate("", "nn.Module.add_module(torch.Tensor, 'a', None)\nreturn x"), "runtime_patching");
  EXPECT_CLEAN(candidate(helper, "Helper.put(self, None)\nreturn Helper.twice(x)"));
  EXPECT_CLEAN(candidate("", "return torch.Tensor.add(x, x)"));
}

// Format strings read attributes by name: private and dunder fields, and
// format strings the checker cannot read, are getattr by another name.
TEST(Check, FormatFieldsReadingPrivateAttributesAreDynamicGetattr) {
  std::vector<Offence> v = check_source(candidate("", "s = '{0.__globals__[torch]}'.format(f)\nreturn x"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "dynamic_getattr");
  EXPECT_CODES(candidate("", "s = '{a:{b._x}}'.format(a=1, b=x)\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "s = name.format(x)\nreturn x"), "dynamic_getattr");
  EXPECT_CLEAN(candidate("", "s = '{{0.__globals__}} {0.shape} {0[0]!r:>4}'.format(x)\nreturn x"));
}

// A class pattern's keyword reads the attribute it names.
TEST(Check, ClassPatternKeywordsReadAttributes) {
  EXPECT_CODES(candidate("", "match x:\n    case object(__code__=c):\n        pass\nreturn x"), "introspection");
  EXPECT_CODES(candidate("", "match x:\n    case object(_impl=c):\n        pass\nreturn x"), "private_attribute");
  EXPECT_CLEAN(candidate("", "match x:\n    case torch.Tensor(shape=s):\n        pass\nreturn x"));
}

TEST(Check, SyntaxErrorGivesLineAndColumnOnly) {
  std::vector<Offence> v = check_source("import torch\nclass ModelNew:\n    def f(self:\n        pass\nimport gc\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "syntax_error");
  EXPECT_GE(v[0].line, 3);
  EXPECT_GE(v[0].column, 1);
  EXPECT_EQ(v[0].message.rfind("the candidate is not valid Python: ", 0), 0u) << v[0].message;
  v = check_source("x = (1,\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "syntax_error");
}

TEST(Check, NoModelNew) {
  EXPECT_CODES("import torch\nclass Other:\n    pass\n", "no_model_new");
  EXPECT_CODES("", "no_model_new");
  EXPECT_CLEAN("class ModelNew:\n    pass\n");
  EXPECT_CLEAN("from torch.nn import Identity\nModelNew = Identity\n");
  // At the start of the file, as documented, not at the first statement.
  std::vector<Offence> v = check_source("\n\n# a comment\nx = 1\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "no_model_new");
  EXPECT_EQ(v[0].line, 1);
  EXPECT_EQ(v[0].column, 1);
}

TEST(Check, DefinesModel) {
  std::vector<Offence> v = check_source(candidate("class Model(nn.Module):\n    pass"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "defines_model");
  EXPECT_EQ(v[0].message, "do not define a class named Model (the reference); define ModelNew only");
  EXPECT_EQ(v[0].line, 3);
  EXPECT_EQ(v[0].column, 7);
  EXPECT_CLEAN(candidate("class ModelHelper(nn.Module):\n    pass"));
}

TEST(Check, DynamicGetattr) {
  EXPECT_CLEAN(candidate("", "w = getattr(self, \"w\")\nb = getattr(torch, 'matmul', None)\nreturn x"));
  std::vector<Offence> v = check_source(candidate("", "for name in ['a']:\n    m = getattr(m, name)\nreturn x"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "dynamic_getattr");
  EXPECT_EQ(v[0].message, "getattr needs a literal, non-private attribute name");
  EXPECT_EQ(v[0].line, 11);
  EXPECT_EQ(v[0].column, 28);
  EXPECT_CODES(candidate("", "getattr(self, '_private')\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "getattr(self, f'{w}1')\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "getattr(self, f'_w{1}')\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "getattr(torch, f'w{1}')\nreturn x"), "dynamic_getattr");
  // The method's own submodules by an f-string with a public prefix.
  EXPECT_CLEAN(candidate("", "layer = getattr(self, f'fc{1}')\nreturn x"));
  EXPECT_CODES(candidate("", "getattr(self, 'w' 'x')\nreturn x"), "dynamic_getattr");
}

TEST(Check, DynamicSetattr) {
  EXPECT_CLEAN(candidate("", "setattr(self, 'w', x)\nreturn x"));
  EXPECT_CODES(candidate("", "setattr(self, name, x)\nreturn x"), "dynamic_setattr");
  EXPECT_CODES(candidate("", "delattr(self, name)\nreturn x"), "dynamic_setattr");
}

// Unpacked arguments hide the object and the name; a builtin passed around
// uncalled is called out of sight.
TEST(Check, UnpackedOrUncalledGetattrSetattrAreDynamic) {
  std::vector<Offence> v = check_source(candidate("", "setattr(torch, *['matmul', None])\nreturn x"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message, "setattr and delattr need a literal attribute name (got '*['matmul',None]')");
  EXPECT_EQ(v[0].column, 24);
  EXPECT_CODES(candidate("", "setattr(*[torch, 'matmul', None])\nreturn x"), "dynamic_setattr");
  EXPECT_CODES(candidate("", "delattr(torch, **names)\nreturn x"), "dynamic_setattr");
  EXPECT_CODES(candidate("", "f = getattr(torch, *[n])\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "f = getattr(*[torch, 'matmul'])\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "list(map(setattr, [torch], ['matmul'], [None]))\nreturn x"), "dynamic_setattr");
  EXPECT_CODES(candidate("", "fs = [getattr]\nreturn x"), "dynamic_getattr");
  // The alias names the builtin too, as `c = torch.cuda.Stream` does.
  EXPECT_CODES(candidate("", "d = delattr\nreturn x"), "dynamic_setattr", "dynamic_setattr");
  // A method or keyword of that name is not the builtin.
  EXPECT_CLEAN(candidate("", "y = self.getattr(x)\nz = f(setattr=1)\nreturn x"));
}

// getattr with a literal name is the attribute read: the name lists apply.
TEST(Check, LiteralGetattrIsMatchedAsTheAttribute) {
  std::vector<Offence> v = check_source(candidate("", "s = getattr(torch.cuda, 'Stream')()\nreturn x"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "side_stream");
  EXPECT_EQ(v[0].message, "launching work on another CUDA stream is not allowed ('torch.cuda.Stream')");
  EXPECT_EQ(v[0].column, 13);
  EXPECT_CODES(candidate("", "getattr(torch, 'manual_seed')(0)\nreturn x"), "seed_manipulation");
  EXPECT_CODES(candidate("import os", "getattr(os, 'system')('ls')\nreturn x"), "uses_threads");
  EXPECT_CODES(candidate("", "s = getattr(getattr(torch, 'cuda'), 'Stream')()\nreturn x"), "side_stream");
  EXPECT_CODES(candidate("", "s = getattr(torch, 'cuda').Stream()\nreturn x"), "side_stream");
  EXPECT_CODES(candidate("", "return x.to(getattr(torch, 'float16', None))"), "precision_downcast");
  // An escape makes the name differ from the text: not a plain literal.
  EXPECT_CODES(candidate("", "f = getattr(torch, 'manual\\x5fseed')\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", "f = object.__getattribute__(torch, n)\nreturn x"), "runtime_patching");
  EXPECT_CLEAN(candidate("",
                         "y = getattr(torch, 'relu')(x)\nc = getattr(torch.cuda, 'current_stream')()\n"
                         "return y"));
}

// getattr over a loop's literal names of a module judges each name alone, as
// a file of its own (FileFacts::passes_alone). A literal getattr's name may
// hold code, its own getattr over names included: that file is checked the
// same way, one deeper, as far as literals nest (four deep here).
TEST(Check, GetattrOverModuleNamesJudgesEachNameAlone) {
  EXPECT_CLEAN(
      candidate("import torch.nn.functional as F", "for n in ('relu', 'gelu'):\n    x = getattr(F, n)(x)\nreturn x"));
  EXPECT_CODES(candidate("import os", "for n in ('system',):\n    getattr(os, n)('ls')\nreturn x"), "dynamic_getattr");
  EXPECT_CODES(candidate("", R"py(for n in ('a',):
    x = getattr(getattr(torch, """nn;[getattr(getattr(torch, '''nn;[getattr(getattr(torch, "nn;[getattr(getattr(torch, 'nn'), m)(1) for m in ('b',)];x"), m)(1) for m in ('b',)];x'''), m)(1) for m in ('b',)];x"""), n)(x)
return x)py"),
               "dynamic_getattr");
}

// A getattr over a loop's literal names whose function or class is further up
// than the rules look (255 levels) is refused, not read through a null node.
TEST(Check, GetattrFarBelowItsFunctionIsRefused) {
  for (std::string_view loop :
       {"for n in ('relu',):\n fn = getattr(torch, n)\n x = fn(x)\n", "for n in ():\n x = getattr(self, n)(x)\n"}) {
    std::string body, indent;
    for (int i = 0; i < 140; ++i, indent += ' ') body += indent + "if x:\n";
    std::istringstream lines{std::string(loop)};
    for (std::string line; std::getline(lines, line);) body += indent + line + "\n";
    EXPECT_CODES(candidate("", body + "return x"), "dynamic_getattr");
  }
}

// A native source ending inside a template's head, after an `&` and blanks
// (no `;` or `{` to end the head), is read to its end, not past it.
TEST(Check, ATemplateHeadCutOffAfterAnAmpersandIsReadToItsEnd) {
  std::string source =
      "from torch.utils.cpp_extension import load_inline\n"
      "module = load_inline(name='m', cpp_sources='template <class T> void f(T&   ', functions=['f'])\n";
  EXPECT_NO_THROW(check_source(source));
  EXPECT_CODES(source +
                   "module = load_inline(name='n', cpp_sources='template struct R<&at::Context::x>;', "
                   "functions=['f'])\n",
               "no_model_new", "private_attribute");
}

TEST(Check, ForeignAttributeAssignmentNamesTheTargetAsWritten) {
  std::vector<Offence> v = check_source(candidate("", "for m in self.modules():\n    m.conv1 = None\nreturn x"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "foreign_attribute_assignment");
  EXPECT_EQ(v[0].message, "assignment to attribute 'm.conv1' is not allowed (only self.<x>)");
  EXPECT_EQ(v[0].line, 11);
  EXPECT_EQ(v[0].column, 13);
  v = check_source(candidate("torch.cuda.Event = object"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message, "assignment to attribute 'torch.cuda.Event' is not allowed (only self.<x>)");
}

TEST(Check, ForeignAttributeAssignmentEveryForm) {
  EXPECT_CLEAN(candidate("", "self.a = x\nself.b += 1\nself.c: int = 3\na, self.d = 1, 2\nreturn x"));
  EXPECT_CODES(candidate("", "m.w += 1\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "m.w: int = 1\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "a, (b, m.w) = 1, (2, 3)\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "[m.w, *m.v] = [1, 2]\nreturn x"), "foreign_attribute_assignment",
               "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "for m.w in range(3):\n    pass\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "with open('f') as m.fh:\n    pass\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "del torch.matmul\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "setattr(torch, 'matmul', None)\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "a = m.w = 1\nreturn x"), "foreign_attribute_assignment");
  // Subscript writes into an object's items are not attribute assignments.
  EXPECT_CLEAN(candidate("", "self.cache[0] = x\nreturn x"));
}

// Decision: only a direct attribute of the method's own self may be written,
// and the tensor attributes of its submodules (`self.linear.bias = None`);
// `self.a.b = x` writes into another object (self.a may be torch itself).
TEST(Check, NestedSelfAttributeIsForeign) {
  EXPECT_CLEAN(candidate("", "self.conv.weight = None\nself.bn.running_mean.data = x\nreturn x"));
  EXPECT_CODES(candidate("", "self.conv.__dict__.weight = None\nreturn x"), "foreign_attribute_assignment",
               "runtime_patching");
  // Keeping a module as an attribute is module_as_value itself.
  EXPECT_CODES(candidate("", "self.t = torch\nself.t.matmul = None\nreturn x"), "module_as_value",
               "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "self.__class__ = object\nreturn x"), "foreign_attribute_assignment");
}

TEST(Check, SelfMustBeTheMethodReceiver) {
  // In nested functions and lambdas, self is still the method's self.
  EXPECT_CLEAN(candidate("", "def inner():\n    self.y = 1\nf = lambda: setattr(self, 'z', 2)\nreturn x"));
  // Assignments inside nested functions and lambdas are checked too.
  EXPECT_CODES(candidate("", "def inner():\n    other.y = 1\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "f = lambda o: setattr(o, 'k', 1)\nreturn x"), "foreign_attribute_assignment");
  // A `self` that is not the method's receiver.
  EXPECT_CODES(candidate("def patch(self):\n    self.matmul = None"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "g = lambda self: setattr(self, 'k', 1)\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("", "self = torch\nself.matmul = None\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES("class ModelNew:\n    @staticmethod\n    def f(self):\n        self.k = 1\n",
               "foreign_attribute_assignment");
  EXPECT_CODES("self = object()\nself.k = 1\nclass ModelNew:\n    pass\n", "foreign_attribute_assignment");
}

TEST(Check, UsesThreadsWithAliases) {
  EXPECT_CODES(candidate("import threading as th", "th.Thread(target=f).start()\nreturn x"), "uses_threads");
  EXPECT_CODES(candidate("import _thread"), "uses_threads");
  EXPECT_CODES(candidate("from concurrent.futures import ThreadPoolExecutor"), "uses_threads");
  EXPECT_CODES(candidate("import os", "os.fork()\nreturn x"), "uses_threads");
  EXPECT_CODES(candidate("import subprocess"), "uses_threads");
  EXPECT_CODES(candidate("import asyncio"), "uses_threads");
  EXPECT_CODES(candidate("from torch import multiprocessing"), "uses_threads");
  EXPECT_CODES(candidate("src = 'void f() { std::thread t(g); }'"), "uses_threads");
  // A string or a comment that mentions threading is no offence, nor is a
  // local name that happens to be called like a module.
  EXPECT_CLEAN(
      candidate("# threading would be bad\nNOTE = 'no threading, no multiprocessing here'", "threading = 3\nreturn x"));
  EXPECT_CLEAN(candidate("import os", "p = os.path.join('a', 'b')\nreturn x"));
}

// A native source given to load_inline, as a Python raw string.
std::string native(std::string_view source) {
  return candidate("from torch.utils.cpp_extension import load_inline\nSRC = r'''" + std::string(source) +
                   "'''\nm = load_inline(name='m', cpp_sources=SRC, functions=['f'])");
}

TEST(Check, HeldOutRoundEightNativeRoutes) {
  // An instruction written with C escapes inside the assembly string (found
  // in the source given and where it is built).
  EXPECT_CODES(native("void f() { asm volatile(\"nop\\nsyscall\"); }"), "uses_threads", "uses_threads");
  EXPECT_CODES(native("void f() { asm volatile(\"\\x73yscall\"); }"), "uses_threads", "uses_threads");
  EXPECT_CODES(native("void f() { asm volatile(\"nop\\tsyscall\"); }"), "uses_threads", "uses_threads");
  // Raw bytes through directives the list lacked.
  for (const char* directive :
       {".uleb128 15,5", ".fill 1,2,0x050f", ".dc.b 0x0f,0x05", ".value 0x050f", ".skip 2,0x0f", ".pushsection .text"})
    EXPECT_CODES(native(std::string("void f() { asm volatile(\"") + directive + "\"); }"), "dynamic_code");
  // Half precision as the half of a complex type.
  EXPECT_CODES(native("at::Tensor f(at::Tensor x) { return x.to(c10::kComplexHalf); }"), "precision_downcast",
               "precision_downcast");
  // Exit handlers, the loader's walk, a shell expansion and libstdc++'s own
  // thread creation, called by name.
  for (const char* call : {"__cxa_atexit(g, nullptr, nullptr)", "dl_iterate_phdr(cb, nullptr)",
                           "wordexp(\"$(id)\", &w, 0)", "__gthread_create(&t, g, nullptr)"})
    EXPECT_CODES(native(std::string("void f() { ") + call + "; }"), "uses_threads", "uses_threads");
  EXPECT_CODES(native("void f() { cuGreenCtxStreamCreate(&s, g, 1, 0); }"), "side_stream", "side_stream");
  // A message naming process calls calls nothing.
  EXPECT_CLEAN(native("void f(bool ok) { TORCH_CHECK(ok, \"no fork or signal here\"); }"));
}

TEST(Check, TorchOpsImportModuleIsDynamicCode) {
  EXPECT_CODES(candidate("", "m = torch.ops.import_module('os')\nreturn x"), "dynamic_code");
}

TEST(Check, SideStream) {
  EXPECT_CODES(candidate("from torch import cuda as c", "s = c.Stream()\nreturn x"), "side_stream");
  EXPECT_CODES(candidate("", "with torch.cuda.stream(s):\n    y = x\nreturn x"), "side_stream");
  EXPECT_CODES(candidate("from torch.cuda import ExternalStream"), "side_stream");
  EXPECT_CODES(candidate("cuda_src = 'cudaStream_t s; cudaStreamCreate(&s);'"), "side_stream");
  EXPECT_CLEAN(candidate("", "s = torch.cuda.current_stream()\nreturn x"));
  EXPECT_CLEAN(candidate("cuda_src = 'auto s = at::cuda::getCurrentCUDAStream();'"));
}

TEST(Check, RuntimePatching) {
  EXPECT_CODES(candidate("import builtins"), "runtime_patching");
  EXPECT_CODES(candidate("import importlib", "importlib.reload(torch)\nreturn x"), "runtime_patching",
               "runtime_patching");
  EXPECT_CODES(candidate("import sys", "sys.modules['torch'] = None\nreturn x"), "runtime_patching");
  // The evaluator's own worker modules (timing, the host's speed) are off limits.
  EXPECT_CODES(candidate("from kmem_worker import host_speed"), "runtime_patching");
  EXPECT_CODES(candidate("import kmem_worker.timing as t"), "runtime_patching");
  EXPECT_CODES(candidate("", "torch.__dict__['matmul'] = f\nreturn x"), "runtime_patching");
  EXPECT_CODES(candidate("", "vars(torch)['matmul'] = f\nreturn x"), "runtime_patching");
  EXPECT_CODES(candidate("", "object.__setattr__(m, 'w', 1)\nreturn x"), "runtime_patching");
  // Aliased module attribute assignment is a foreign assignment.
  EXPECT_CODES(candidate("import torch as t", "t.matmul = f\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CODES(candidate("import time\ntime.perf_counter = lambda: 0.0"), "foreign_attribute_assignment");
  EXPECT_CLEAN(candidate("import sys", "v = sys.version_info\nreturn x"));
}

TEST(Check, Introspection) {
  EXPECT_CODES(candidate("from gc import get_objects as g", "objs = g()\nreturn x"), "introspection", "introspection");
  EXPECT_CODES(candidate("import inspect"), "introspection");
  EXPECT_CODES(candidate("import ctypes"), "introspection");
  EXPECT_CODES(candidate("import sys", "f = sys._getframe(1)\nreturn x"), "introspection");
  EXPECT_CODES(candidate("", "g = f.__globals__\nreturn x"), "introspection");
  EXPECT_CODES(candidate("", "up = frame.f_back.f_locals\nreturn x"), "introspection", "introspection");
  EXPECT_CODES(candidate("", "open('/proc/self/mem', 'rb')\nreturn x"), "introspection");
  EXPECT_CODES(candidate("", "p = '/proc'\nreturn x"), "introspection");
  EXPECT_CODES(candidate("", "p = 'cat /dev/mem | head'\nreturn x"), "introspection");
  EXPECT_CLEAN(candidate("", "n = x.numel()  # no gc here\nreturn x"));
  // A path must be /proc itself: a word that starts with "proc" is not.
  EXPECT_CLEAN(candidate("src = '''\n// Each block loads/processes one row\n/procedures/ /proc_x\n'''"));
}

// A coding declaration makes CPython read other text than the checker: only
// UTF-8 may be declared, on line 1 or 2 as PEP 263 says; it is reported alone.
TEST(Check, CodingDeclarationOtherThanUtf8IsUnreadable) {
  std::vector<Offence> v = check_source("# -*- coding: utf-7 -*-\n" + candidate("x = 1 #+AAo-import gc"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "unreadable_source");
  EXPECT_EQ(v[0].message,
            "the candidate must be UTF-8 source with ASCII names, read alike by the checker and by "
            "Python: coding declaration 'utf-7'");
  EXPECT_EQ(v[0].line, 1);
  EXPECT_EQ(v[0].column, 1);
  v = check_source("#!/usr/bin/env python\n  # vim: set fileencoding=unicode_escape :\n" + candidate(""));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "unreadable_source");
  EXPECT_EQ(v[0].line, 2);
  EXPECT_EQ(v[0].column, 3);
  EXPECT_CODES("\xEF\xBB\xBF# coding: latin-1\n" + candidate(""), "unreadable_source");
  for (std::string_view utf8 :
       {"# -*- coding: utf-8 -*-\n", "# coding=UTF8\n", "# coding: utf_8\n", "#!python\n# coding: utf-8-sig\n"})
    EXPECT_CLEAN(std::string(utf8) + candidate(""));
  // Line 3 is too late for a declaration; "coding" outside a comment is none.
  EXPECT_CLEAN(candidate("# coding: latin-1"));
  EXPECT_CLEAN("s = 'coding: latin-1'\n" + candidate(""));
}

// CPython ends a line at a lone '\r' (tree-sitter would read it as part of a
// comment); offence lines are CPython's.
TEST(Check, CarriageReturnsAreNewlinesAsForPython) {
  std::vector<Offence> v = check_source("class ModelNew:\n    pass\n# note\rimport gc\r\nm.w = 1\n");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].code, "introspection");
  EXPECT_EQ(v[0].line, 4);
  EXPECT_EQ(v[0].column, 8);
  EXPECT_EQ(v[1].code, "foreign_attribute_assignment");
  EXPECT_EQ(v[1].line, 5);
  std::string crlf = candidate("", "y = x\nreturn y");
  for (size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) crlf.replace(at, 1, "\r\n");
  EXPECT_CLEAN(crlf);
}

// CPython folds non-ASCII identifiers to NFKC (`ｇｃ` is gc); the rules match
// names as written, so such names are refused.
TEST(Check, NonAsciiNamesAreUnreadable) {
  std::vector<Offence> v = check_source(candidate("import \uFF47\uFF43"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "unreadable_source");
  EXPECT_EQ(v[0].message,
            "the candidate must be UTF-8 source with ASCII names, read alike by the checker and by "
            "Python: non-ASCII name '\uFF47\uFF43'");
  EXPECT_EQ(v[0].line, 3);
  EXPECT_EQ(v[0].column, 8);
  EXPECT_CODES(candidate("", "torch.\uFF4Danual_seed(0)\nreturn x"), "unreadable_source");
  // Non-ASCII text in strings and comments is fine.
  EXPECT_CLEAN(candidate("# caf\u00e9\nNAME = 'caf\u00e9'"));
}

// Messages quote source text shortened to 120 (a target) or 40 bytes (a
// syntax error); the cut never splits a UTF-8 character, so that the
// messages stay valid UTF-8 (JSON output needs it).
TEST(Check, ShortenedTextsStayValidUtf8) {
  std::string e_acute80;
  for (int i = 0; i < 80; ++i) e_acute80 += "\u00e9";
  std::vector<std::string> messages;
  for (std::string source : {candidate("", "m['" + e_acute80 + "'].w = 1\nreturn x"),
                             candidate("m.a" + e_acute80 + " = 1"), "x = (" + e_acute80 + "\n"})
    for (const Offence& v : check_source(source)) messages.push_back(v.message);
  ASSERT_EQ(messages.size(), 4u);  // foreign, foreign and unreadable, syntax
  for (const std::string& m : messages) EXPECT_NO_THROW(nlohmann::json(m).dump()) << m;
  EXPECT_NE(messages[0].find("...' is not allowed"), std::string::npos) << messages[0];
}

TEST(Check, TryFallback) {
  EXPECT_CODES(candidate("", "try:\n    y = kernel(x)\nexcept Exception:\n    y = torch.relu(x)\nreturn y"),
               "try_fallback");
  EXPECT_CODES(candidate("import contextlib", "with contextlib.suppress(Exception):\n    x = k(x)\nreturn x"),
               "try_fallback");
  EXPECT_CODES(candidate("from contextlib import suppress", "with suppress(Exception):\n    x = k(x)\nreturn x"),
               "try_fallback", "try_fallback");
  // contextlib's contexts that swallow nothing are allowed.
  EXPECT_CLEAN(candidate("import contextlib", "with contextlib.nullcontext():\n    x = k(x)\nreturn x"));
  // Guarding an optional import, and try/finally, are allowed.
  EXPECT_CLEAN(candidate("try:\n    import triton\nexcept ImportError:\n    triton = None"));
  EXPECT_CLEAN(candidate("", "try:\n    y = x\nfinally:\n    pass\nreturn y"));
}

TEST(Check, ReferencesModel) {
  EXPECT_CODES(candidate("from reference import Model"), "references_model");
  EXPECT_CODES(candidate("", "return Model()(x)"), "references_model");
  EXPECT_CODES(candidate("class Wrap(Model):\n    pass"), "references_model");
  EXPECT_CODES(candidate("import __main__"), "references_model");
  EXPECT_CLEAN(candidate("'''Like Model, but fused.'''", "m = ModelNew\nreturn x"));
}

TEST(Check, SeedManipulation) {
  EXPECT_CODES(candidate("", "torch.manual_seed(0)\nreturn x"), "seed_manipulation");
  EXPECT_CODES(candidate("import random", "random.seed(1)\nreturn x"), "seed_manipulation");
  EXPECT_CODES(candidate("import numpy as np", "np.random.seed(1)\nreturn x"), "seed_manipulation");
  EXPECT_CODES(candidate("", "s = torch.cuda.get_rng_state()\nreturn x"), "seed_manipulation");
  EXPECT_CLEAN(candidate("import random", "r = random.random()\nt = torch.randn(3)\nreturn x"));
}

TEST(Check, PrecisionDowncast) {
  EXPECT_CODES(candidate("", "return x.half()"), "precision_downcast");
  EXPECT_CODES(candidate("", "return x.bfloat16()"), "precision_downcast");
  EXPECT_CODES(candidate("", "return x.to(torch.float16)"), "precision_downcast");
  EXPECT_CODES(candidate("", "return x.to(dtype=torch.bfloat16)"), "precision_downcast");
  EXPECT_CODES(candidate("torch.set_float32_matmul_precision('high')"), "precision_downcast");
  EXPECT_CODES(candidate("", "with torch.autocast('cuda'):\n    y = x\nreturn y"), "precision_downcast");
  EXPECT_CODES(candidate("import triton.language as tl", "acc = tl.dot(a, b, allow_tf32=True)\nreturn x"),
               "precision_downcast");
  EXPECT_CODES(candidate("import triton.language as tl", "v = tl.load(p).to(tl.float16)\nreturn x"),
               "precision_downcast");
  EXPECT_CODES(candidate("", "torch.backends.cudnn.allow_tf32 = True\nreturn x"), "foreign_attribute_assignment",
               "precision_downcast");
  EXPECT_CLEAN(candidate("import triton.language as tl",
                         "acc = tl.dot(a, b, allow_tf32=False, input_precision='ieee')\nreturn x.float()"));
}

TEST(Check, DynamicCode) {
  EXPECT_CODES(candidate("", "exec('import threading')\nreturn x"), "dynamic_code");
  EXPECT_CODES(candidate("", "m = __import__('gc')\nreturn x"), "dynamic_code");
  EXPECT_CLEAN(candidate("", "f = torch.compile(g)\nimport re\nr = re.compile('a')\nreturn x"));
}

TEST(Check, OffencesComeInSourceOrder) {
  std::vector<Offence> v = check_source(candidate("import gc\nimport subprocess"));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].line, 3);
  EXPECT_EQ(v[1].line, 4);
}

TEST(Check, SeedKernelsAllPass) {
  std::ifstream in(KMEM_SEED_STORE);
  ASSERT_TRUE(in) << KMEM_SEED_STORE;
  nlohmann::json store = nlohmann::json::parse(in);
  int kernels = 0;
  for (const auto& item : store.at("items")) {
    if (item.at("kind") != "kernel") continue;
    ++kernels;
    std::string code = item.at("code");
    EXPECT_TRUE(check_source(code).empty()) << item.at("id") << "\n" << describe(code);
  }
  EXPECT_EQ(kernels, 44);
}

// Found by the fuzzer: tree-sitter reads `a = b: T` as a chained assignment
// whose inner one has no value; alias resolution must not follow it.
TEST(Check, ChainedAssignmentWithoutValue) {
  EXPECT_CODES(candidate("import sys", "tb = sys.x: int\nreturn x"), "foreign_attribute_assignment");
  EXPECT_CLEAN(candidate("", "a = b: int\nreturn x"));
}

TEST(Check, DeeplyNestedParenthesesDoNotOverflow) {
  std::string deep = "class ModelNew:\n    pass\nx = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n";
  EXPECT_TRUE(check_source(deep).empty());
  std::string target = std::string(5000, '(') + "m.w" + std::string(5000, ')') + " = 1\n";
  EXPECT_CODES("class ModelNew:\n    pass\n" + target, "foreign_attribute_assignment");
  std::string unbalanced = "class ModelNew:\n    pass\nx = " + std::string(10000, '(') + "\n";
  EXPECT_CODES(unbalanced, "syntax_error");
}

// CPython refuses more than 100 indentation levels, and the grammar's
// scanner keeps indent widths in bytes: 1,000 nested ifs are a syntax error,
// reported without overflowing anything; 200 levels are checked normally.
TEST(Check, ThousandNestedIfsDoNotOverflow) {
  auto nested_ifs = [](int depth) {
    std::string src = "import gc\nclass ModelNew:\n    pass\n";
    for (int i = 0; i < depth; ++i) src += std::string(i, ' ') + "if x:\n";
    return src + std::string(depth, ' ') + "m.w = 1\n";
  };
  EXPECT_CODES(nested_ifs(1000), "syntax_error");
  EXPECT_CODES(nested_ifs(200), "introspection", "foreign_attribute_assignment");
}

// Whether `self` is the receiver is known per function, not walked up per
// use: thousands of nested lambdas, each writing self.<x>, are checked alike
// at every depth.
TEST(Check, ManyNestedLambdasUsingSelf) {
  constexpr int kDepth = 3000;
  std::string body = "f = ";
  for (int i = 0; i < kDepth; ++i) body += "lambda: (setattr(self, 'a', 1), ";
  body += "setattr(other, 'a', 1)" + std::string(kDepth, ')') + "\nreturn x";
  EXPECT_CODES(candidate("", body), "foreign_attribute_assignment");
}

TEST(Check, SeveralMegabytesFile) {
  std::string big = candidate("");
  while (big.size() < 4u << 20) big += "y = torch.relu(torch.ones(3)) + 1  # padding\n";
  big += "import gc\n";
  std::vector<Offence> v = check_source(big);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "introspection");
}

TEST(Check, BinaryGarbageIsASyntaxError) {
  // Split after \x01: "\x01c" would read as one hex escape (and the
  // literal would be shorter than its stated size).
  std::string junk(
      "\x00\xff\xfe(\x01"
      "class",
      10);
  std::vector<Offence> v = check_source(junk);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].code, "syntax_error");
}

// The checker table of docs/verdicts.md: code -> message as the row gives it.
std::map<std::string, std::string> documented_checker_messages() {
  std::ifstream in(KMEM_VERDICTS_DOC);
  std::map<std::string, std::string> rows;
  bool in_checker = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) in_checker = line.starts_with("## Checker");
    if (!in_checker || !line.starts_with("| `") || !line.ends_with(" |")) continue;
    size_t code_end = line.find("` | ");
    if (code_end == std::string::npos) continue;
    rows[line.substr(3, code_end - 3)] = line.substr(code_end + 4, line.size() - 2 - (code_end + 4));
  }
  return rows;
}

// Every code the checker gives has a row in docs/verdicts.md's checker table
// whose message is the code's template word for word ({x} written <x>), and
// every row is a code the checker gives.
TEST(Check, VerdictsDocListsEveryCheckerMessage) {
  std::map<std::string, std::string> templates;
  auto add = [&templates](std::string_view code, std::string_view message) {
    std::string documented(message);
    std::replace(documented.begin(), documented.end(), '{', '<');
    std::replace(documented.begin(), documented.end(), '}', '>');
    auto [it, added] = templates.emplace(code, documented);
    EXPECT_EQ(it->second, documented) << code << " has two messages";
  };
  for (const auto& fixed : {check::kNoCodeBlock, check::kSyntaxError, check::kUnreadableSource})
    add(fixed.code, fixed.message);
  for (const check::Rule& rule : check::rule_table()) add(rule.code, rule.message);
  std::map<std::string, std::string> documented = documented_checker_messages();
  EXPECT_EQ(documented.size(), 20u);
  EXPECT_EQ(documented, templates);
}

}  // namespace
}  // namespace kmem

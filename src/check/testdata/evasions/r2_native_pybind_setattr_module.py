# expect: introspection
# expect: runtime_patching
import torch
import torch.nn as nn

src = r'''
#include <torch/extension.h>
void patch(py::object mod_attr){ py::module_ m = py::reinterpret_borrow<py::module_>(mod_attr.attr("__self__")); py::setattr(m, "perf_counter", py::cpp_function([](){ return 0.0; })); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

# expect: dynamic_code
# expect: runtime_patching
import torch
import torch.nn as nn

src = r'''
#include <torch/extension.h>
void patch(py::object t){ py::object cls = py::type::of(t); PyObject_SetAttrString(cls.ptr(), "clone", Py_None); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

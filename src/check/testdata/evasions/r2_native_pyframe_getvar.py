# expect: dynamic_code
# expect: introspection
import torch
import torch.nn as nn

src = r'''
#include <torch/extension.h>
#include <Python.h>
py::object peek(){ PyFrameObject* f = PyThreadState_GetFrame(PyThreadState_Get()); PyFrameObject* b = PyFrame_GetBack(f); return py::reinterpret_steal<py::object>(PyFrame_GetVarString(b, "ref_out")); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

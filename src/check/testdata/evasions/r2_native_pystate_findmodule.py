# expect: dynamic_code
# expect: runtime_patching
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
void go(PyObject* o){ PyObject* d = PyObject_GenericGetDict(o, 0); PyDict_SetItemString(d, "perf_counter", Py_None); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

# expect: dynamic_code
# expect: introspection
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
PyObject* peek(){ return PyEval_GetFrameLocals(); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

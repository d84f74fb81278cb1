# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
PyObject* go(){ return PyEval_GetFrameBuiltins(); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
void go(PyObject* code, PyObject* g){ PyEval_EvalCodeEx(code, g, g, 0,0,0,0,0,0,0,0); PyFunction_New(code, g); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

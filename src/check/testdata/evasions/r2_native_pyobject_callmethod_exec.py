# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
void go(PyObject* bi){ PyObject_CallMethod(bi, "ex" "ec", "s", "import os"); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

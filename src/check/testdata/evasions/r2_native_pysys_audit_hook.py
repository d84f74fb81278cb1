# expect: dynamic_code
# expect: runtime_patching
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
static int h(const char*, PyObject*, void*){ return 0; }
void go(){ PySys_AddAuditHook(h, 0); PyEval_SetProfileAllThreads(0, 0); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

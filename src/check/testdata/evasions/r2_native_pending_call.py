# expect: dynamic_code
# expect: uses_threads
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
static int cb(void*){ return 0; }
void go(){ Py_AddPendingCall(cb, nullptr); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

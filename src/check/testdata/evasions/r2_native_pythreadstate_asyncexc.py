# expect: dynamic_code
# expect: uses_threads
import torch
import torch.nn as nn

src = r'''
#include <Python.h>
void go(){ PyThreadState_SetAsyncExc(0, 0); PyGILState_Ensure(); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

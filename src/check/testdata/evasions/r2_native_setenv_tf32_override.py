# expect: dynamic_code
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
#include <cstdlib>
static int once = setenv("NVIDIA_TF32_OVERRIDE", "1", 1);
void go(){}
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

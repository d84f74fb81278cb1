# expect: uses_threads
# expect: uses_threads
import torch
import torch.nn as nn

src = r'''
#include <cstdlib>
static void late(){ }
void go(){ std::atexit(late); at_quick_exit(late); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x

# expect: uses_threads
import torch
import torch.nn as nn
src = """
#include <thread>
using namespace std;
void go() { thread t([]{}); t.detach(); }
"""

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x

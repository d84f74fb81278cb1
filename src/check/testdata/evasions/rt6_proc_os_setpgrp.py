# expect: uses_threads
# os.setpgrp() is os.setpgid(0, 0) (refused by name): the worker leaves the
# process group the evaluator kills on a timeout ("the process group was
# killed").
import os
import torch
import torch.nn as nn

os.setpgrp()


class ModelNew(nn.Module):
    def forward(self, x):
        return x * 2.0

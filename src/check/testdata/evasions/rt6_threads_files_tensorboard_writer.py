# expect: uses_threads
# torch.utils.tensorboard.SummaryWriter (when the tensorboard package is
# installed) creates ./runs/<time>_<host>/ and an event file, and starts a
# background writer thread (EventFileWriter._AsyncWriter).
import torch
import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter
w = SummaryWriter()

class ModelNew(nn.Module):
    def forward(self, x):
        return x

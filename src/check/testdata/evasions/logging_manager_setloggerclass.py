# expect: runtime_patching
import logging
import torch
import torch.nn as nn


class Spy(logging.Logger):
    def debug(self, msg, *args, **kwargs):
        return None


logging.Logger.manager.setLoggerClass(Spy)
logging.root.manager.setLogRecordFactory(logging.LogRecord)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)

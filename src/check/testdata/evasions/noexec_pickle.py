# expect: dynamic_code
import torch
import torch.nn as nn
import pickle

class ModelNew(nn.Module):
    def forward(self, x):
        pickle.loads(b'cos\nsystem\n(S\'true\'\ntR.')
        return x

# expect: uses_threads
import torch
import torch.nn as nn
import asyncio


class ModelNew(nn.Module):
    def forward(self, x):
        asyncio.run(asyncio.to_thread(print))
        return x

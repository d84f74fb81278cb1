# Honest: methods under decorators that keep them bound to the instance (property and its setter,
# torch.no_grad(), functools.lru_cache, abc.abstractmethod) write their own self's attributes.
import abc
import functools

import torch
import torch.nn as nn


class Base(nn.Module, abc.ABC):
    @abc.abstractmethod
    def kernel(self, x):
        self.calls = 0


class ModelNew(Base):
    def __init__(self):
        super().__init__()
        self._scale = 2.0
        self.calls = 0

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, value):
        self._scale = value

    @torch.no_grad()
    def reset(self):
        self.calls = 0

    @functools.lru_cache(maxsize=None)
    def blocks(self, n):
        self.last_n = n
        return (n + 255) // 256

    def kernel(self, x):
        return x * self._scale

    def forward(self, x):
        return self.kernel(x)

# Honest: setattr heads (adversarial round, 2026-12-06).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, n_heads=4, d=32):
        super().__init__()
        self.n_heads = n_heads
        for h in range(n_heads):
            attr = f"head_{h}"
            setattr(self, attr, nn.Linear(d, d))

    def forward(self, x):
        outs = [getattr(self, f"head_{h}")(x) for h in range(self.n_heads)]
        return torch.stack(outs).sum(0)

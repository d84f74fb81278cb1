# expect: dynamic_code
import logging

import torch
import torch.nn as nn


def after_run():
    with logging.io.open("/tmp/kmem_results_override.json", "w") as f:
        f.write("{}")


logging.atexit.register(after_run)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)

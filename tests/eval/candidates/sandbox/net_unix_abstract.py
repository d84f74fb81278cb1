# Sandbox attack (network: an abstract Unix socket on the host). Raises LEAK when the attack got through.
import torch.nn as nn
import os
import socket

def call():
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect("\0" + os.environ["KMEM_SANDBOX_TEST_ABSTRACT"])
    except OSError:
        return
    raise RuntimeError("LEAK: connected")


call()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y

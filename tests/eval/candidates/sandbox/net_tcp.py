# Sandbox attack (network: TCP to a listener on the host). Raises LEAK when the attack got through.
import torch.nn as nn
import os
import socket

def call():
    try:
        socket.create_connection(("127.0.0.1", int(os.environ["KMEM_SANDBOX_TEST_PORT"])), timeout=2)
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

# Sandbox attack (files: /dev/shm written to outlive the job, and read from other jobs). Raises LEAK when the attack got through.
import torch.nn as nn
import os


def look():
    seen = [name for name in os.listdir("/dev/shm") if name.startswith("kmem-sandbox-test")]
    if seen:
        raise RuntimeError(f"LEAK: another job's /dev/shm files: {seen}")
    with open(f"/dev/shm/kmem-sandbox-test-{os.getpid()}-{os.urandom(4).hex()}", "w") as planted:
        planted.write("left behind")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y

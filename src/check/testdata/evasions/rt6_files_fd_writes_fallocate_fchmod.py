# expect: runtime_patching
# File writes through a descriptor that the write list does not name:
# os.posix_fallocate grows the file behind fd 1 (os.truncate/ftruncate are
# refused), os.fchmod/os.fchown change its mode (os.chmod/chown are refused),
# os.lockf locks it and os.set_blocking changes its flags; os.makedirs/mkdir
# create folders at a computed path.
import os
import torch
import torch.nn as nn

os.posix_fallocate(1, 0, 1 << 20)
os.fchmod(1, 0o777)
os.lockf(1, os.F_TLOCK, 0)
os.set_blocking(1, False)
os.makedirs("/tmp/" + "kmem_rt6", exist_ok=True)


class ModelNew(nn.Module):
    def forward(self, x):
        return x * 2.0

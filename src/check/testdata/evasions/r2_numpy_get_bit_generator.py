# expect: seed_manipulation
# expect: seed_manipulation
import torch
import torch.nn as nn
import numpy as np
_state = np.random.get_bit_generator().state
np.random.set_bit_generator(np.random.PCG64(0))


class ModelNew(nn.Module):
    def forward(self, x):
        return x

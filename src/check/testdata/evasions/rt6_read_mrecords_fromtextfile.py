# expect: introspection
# numpy.ma.mrecords.fromtextfile reads a text file at a computed path (as
# np.loadtxt/np.recfromtxt do, which are refused), giving its rows as records.
import numpy.ma.mrecords as mrecords
import torch
import torch.nn as nn

PATH = "/tmp/" + "t.csv"
ROWS = mrecords.fromtextfile(PATH, delimiter=",")


class ModelNew(nn.Module):
    def forward(self, x):
        return x * 2.0

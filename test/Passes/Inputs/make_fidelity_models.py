#!/usr/bin/python3
"""Writes small models that stress what real models do, with FileCheck files
whose expected values PyTorch computes here:

  custom_leaf.pt   a user class kept whole with --leaf-module=Gate;
                   custom_leaf.check: its parameter total and output shape
  data_dependent.pt  a boolean-mask index and nonzero;
                   data_dependent.check: the sizes PyTorch gives on the
                   input mav draws with --seed 0 (torch.manual_seed(0), randn)
  packed_rnn.pt    a GRU then an LSTM on a packed sequence whose lengths are
                   a constant; packed_rnn.check: the output shapes
  dict_outputs.pt  a dict {"out", "aux"} and a named tuple, as torchvision's
                   segmentation models and many users return;
                   dict_outputs.check: the flattened output shapes

Usage: make_fidelity_models.py OUT_DIR
"""

import collections
import sys
import warnings

import torch


class Gate(torch.nn.Module):
    """Not a torch.nn class: kept whole only when asked for."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.randn(8))
        self.drop = torch.nn.Dropout(0.25)

    def forward(self, x):
        return self.drop(torch.sigmoid(x) * self.scale)


class WithCustomLeaf(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 8)
        self.gate = Gate()
        self.out = torch.nn.Linear(8, 2)

    def forward(self, x):
        return self.out(self.gate(self.fc(x)))


class DataDependent(torch.nn.Module):
    def forward(self, x):
        positive = x[x > 0]
        indices = torch.nonzero(x)
        return positive * 2, indices, positive.sum() + indices.shape[0]


class PackedRnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(4, 6, batch_first=True)
        self.lstm = torch.nn.LSTM(6, 5, batch_first=True)

    def forward(self, x):
        from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
        lengths = torch.tensor([5, 3, 2])
        packed = pack_padded_sequence(x, lengths, batch_first=True)
        hidden, _ = self.gru(packed)
        out, (h, _) = self.lstm(hidden)
        padded, _ = pad_packed_sequence(out, batch_first=True)
        return padded, h


Pair = collections.namedtuple("Pair", ["logits", "features"])


class DictOutputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.head = torch.nn.Conv2d(4, 2, 1)

    def forward(self, x):
        features = torch.relu(self.conv(x))
        return {"out": self.head(features), "aux": features.mean((2, 3))}


class NamedTupleOutputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(6, 3)

    def forward(self, x):
        return Pair(self.fc(x), x * 2)


def shape_of(tensor):
    return "x".join(str(d) for d in tensor.shape)


def save(model, example, path, strict=True):
    traced = torch.jit.trace(model, example, strict=strict)
    torch.jit.save(traced, path)
    return traced


def main():
    out = sys.argv[1]
    torch.manual_seed(0)

    leaf = WithCustomLeaf().eval()
    traced = save(leaf, torch.randn(3, 4), f"{out}/custom_leaf.pt")
    total = sum(p.numel() for p in leaf.parameters())
    with open(f"{out}/custom_leaf.check", "w") as f:
        f.write(f"CHECK: total = {total} : i64\n")
        f.write(f"CHECK: mav.output %out : tensor<{shape_of(traced(torch.randn(3, 4)))}xf32>\n")

    save(DataDependent(), torch.randn(2, 3), f"{out}/data_dependent.pt")
    torch.manual_seed(0)
    x = torch.randn(2, 3)
    positive = x[x > 0]
    indices = torch.nonzero(x)
    with open(f"{out}/data_dependent.check", "w") as f:
        f.write("META: %index = {{.*}} -> tensor<?xf32>\n")
        f.write("META: %nonzero = {{.*}} -> tensor<?x2xsi64>\n")
        f.write(f"CPU: %index = {{{{.*}}}} -> tensor<{positive.shape[0]}xf32>\n")
        f.write(f"CPU: %nonzero = {{{{.*}}}} -> tensor<{shape_of(indices)}xsi64>\n")

    rnn = PackedRnn().eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced = save(rnn, torch.randn(3, 5, 4), f"{out}/packed_rnn.pt")
    padded, h = traced(torch.randn(3, 5, 4))
    with open(f"{out}/packed_rnn.check", "w") as f:
        f.write(f"CHECK: mav.output ({{{{.*}}}}) : tensor<{shape_of(padded)}xf32>, "
                f"tensor<{shape_of(h)}xf32>\n")

    dict_model = DictOutputs().eval()
    example = torch.randn(1, 3, 8, 8)
    traced = save(dict_model, example, f"{out}/dict_outputs.pt", strict=False)
    result = traced(example)
    tuple_model = NamedTupleOutputs().eval()
    traced_tuple = save(tuple_model, torch.randn(2, 6),
                        f"{out}/namedtuple_outputs.pt")
    pair = traced_tuple(torch.randn(2, 6))
    with open(f"{out}/dict_outputs.check", "w") as f:
        f.write(f'DICT: mav.output {{"out": %{{{{[a-z_0-9]+}}}}, "aux": %{{{{[a-z_0-9]+}}}}}} : '
                f'tensor<{shape_of(result["out"])}xf32>, tensor<{shape_of(result["aux"])}xf32>\n')
        f.write(f"TUPLE: mav.output (%{{{{[a-z_0-9]+}}}}, %{{{{[a-z_0-9]+}}}}) : "
                f"tensor<{shape_of(pair[0])}xf32>, tensor<{shape_of(pair[1])}xf32>\n")


if __name__ == "__main__":
    main()

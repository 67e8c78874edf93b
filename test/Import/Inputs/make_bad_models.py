#!/usr/bin/python3
"""Writes TorchScript files the importer must reject, into the given folder:
scripted_if.pt (data-dependent control flow, scripted), custom_op.pt (calls
torchvision's custom op nms, as the detection models do) and truncated copies
of a real archive at several offsets (truncated_N.pt)."""

import sys

import torch
import torchvision


class Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x


class BoxFilter(torch.nn.Module):
    def forward(self, boxes, scores):
        return torchvision.ops.nms(boxes, scores, 0.5)


def main():
    out, archive = sys.argv[1], sys.argv[2]
    torch.jit.save(torch.jit.script(Branchy()), f"{out}/scripted_if.pt")
    boxes = torch.tensor([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.9]])
    traced = torch.jit.trace(BoxFilter(), (boxes, torch.tensor([0.9, 0.8])))
    torch.jit.save(traced, f"{out}/custom_op.pt")
    data = open(archive, "rb").read()
    for index, fraction in enumerate((0.01, 0.5, 0.99)):
        with open(f"{out}/truncated_{index}.pt", "wb") as f:
            f.write(data[: int(len(data) * fraction)])


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes TorchScript files the importer must reject, into the given folder:
scripted_if.pt (data-dependent control flow, scripted), custom_op.pt (calls
torchvision's custom op nms, as the detection models do), quantized_dynamic.pt
and quantized_static.pt (quantized models) and truncated copies
of a real archive at several offsets (truncated_N.pt)."""

import sys
import warnings

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
    float_mlp = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
    dynamic = torch.quantization.quantize_dynamic(
        float_mlp.eval(), {torch.nn.Linear}, dtype=torch.qint8)
    torch.jit.save(torch.jit.trace(dynamic, torch.randn(2, 4)),
                   f"{out}/quantized_dynamic.pt")
    static = torch.nn.Sequential(torch.quantization.QuantStub(),
                                 torch.nn.Conv2d(3, 4, 3),
                                 torch.quantization.DeQuantStub()).eval()
    static.qconfig = torch.quantization.get_default_qconfig("fbgemm")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = torch.quantization.prepare(static)
    prepared(torch.randn(1, 3, 8, 8))
    converted = torch.quantization.convert(prepared)
    torch.jit.save(torch.jit.trace(converted, torch.randn(1, 3, 8, 8)),
                   f"{out}/quantized_static.pt")
    data = open(archive, "rb").read()
    for index, fraction in enumerate((0.01, 0.5, 0.99)):
        with open(f"{out}/truncated_{index}.pt", "wb") as f:
            f.write(data[: int(len(data) * fraction)])


if __name__ == "__main__":
    main()

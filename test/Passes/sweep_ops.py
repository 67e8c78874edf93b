#!/usr/bin/python3
"""Operator-coverage sweep: torchvision 0.14's classification, segmentation
and video models and torch.nn's layers (torch.nn.modules.__all__), each in a
small configuration with random weights (weights=None, no network), traced,
imported with mav-translate and raised with `mav-opt -mav-raise`.

Prints one line per model: `NAME: OK`, or `NAME: FAIL: <first error line>`,
then the unknown operators with the models that use them. Not part of the lit
suite (it takes minutes); run it by hand after changing the op registry:

  /usr/bin/python3 test/Passes/sweep_ops.py --bin build/bin --work /tmp/sweep \
      [--only NAME ...] [--skip-torchvision] [--skip-nn]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import warnings

MAV_DTYPE = {"torch.float32": "f32", "torch.float64": "f64",
             "torch.int64": "si64", "torch.int32": "si32", "torch.bool": "i1"}

# Classification models above ~100 M parameters (their families are covered
# by a smaller member).
HUGE = {"vit_h_14", "vit_l_16", "vit_l_32", "regnet_y_128gf", "regnet_y_32gf",
        "regnet_x_32gf", "regnet_y_16gf", "regnet_x_16gf", "efficientnet_b7",
        "efficientnet_b6", "efficientnet_v2_l", "efficientnet_v2_m",
        "convnext_large", "convnext_base", "swin_b", "swin_v2_b",
        "resnext101_64x4d", "resnext101_32x8d", "wide_resnet101_2",
        "vgg19_bn", "vgg19", "vgg16_bn", "vgg16", "vgg13_bn", "vgg13"}


def shape_spec(t):
    return "x".join([str(d) for d in t.shape] + [MAV_DTYPE[str(t.dtype)]])


def torchvision_cases():
    import torch
    import torchvision.models as tvm
    cases = []
    image = lambda s=64: [torch.randn(1, 3, s, s)]
    for name in tvm.list_models(module=tvm):
        if name in HUGE:
            continue
        kwargs = {"num_classes": 10}
        size = 64
        if name.startswith("vit_"):
            kwargs["image_size"] = 64
        if name in ("inception_v3",):
            size, kwargs["aux_logits"], kwargs["init_weights"] = 96, False, False
        if name == "googlenet":
            kwargs["aux_logits"], kwargs["init_weights"] = False, False
        if name == "maxvit_t":
            size, kwargs["input_size"] = 224, (224, 224)
        cases.append((name, (lambda n=name, k=kwargs:
                             getattr(tvm, n)(weights=None, **k)),
                      lambda s=size: image(s)))
    for name in tvm.list_models(module=tvm.segmentation):
        if name.endswith("101"):
            continue
        cases.append((name, (lambda n=name: SegmentationOut(getattr(
            tvm.segmentation, n)(weights=None, weights_backbone=None,
                                 num_classes=3, aux_loss=False))),
                      lambda: image(64)))
    for name in tvm.list_models(module=tvm.video):
        shape = (1, 3, 4, 32, 32)
        if name == "s3d":  # its last pooling window is 2x7x7
            shape = (1, 3, 16, 224, 224)
        if name.startswith("mvit"):
            shape = (1, 3, 16, 224, 224)
        cases.append((name, (lambda n=name: getattr(tvm.video, n)(
            weights=None, num_classes=10)),
                      lambda s=shape: [torch.randn(*s)]))
    return cases


class _Lazy:
    pass


def SegmentationOut(model):
    import torch.nn as nn

    class Out(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x):
            return self.model(x)["out"]
    return Out()


def nn_cases():
    import torch
    import torch.nn as nn
    r = torch.randn
    x2 = lambda: [r(2, 8)]
    x3 = lambda: [r(2, 4, 8)]
    x4 = lambda: [r(2, 4, 8, 8)]
    x5 = lambda: [r(2, 4, 4, 8, 8)]
    target = lambda: [r(2, 8), r(2, 8)]
    prob = lambda: [torch.rand(2, 8), torch.rand(2, 8)]
    cls = lambda: [r(2, 8), torch.tensor([1, 3])]
    sign = lambda: [r(2, 8), torch.randint(0, 2, (2, 8)).float() * 2 - 1]
    table = {
        "Identity": (lambda: nn.Identity(), x2),
        "Linear": (lambda: nn.Linear(8, 4), x2),
        "Conv1d": (lambda: nn.Conv1d(4, 4, 3), x3),
        "Conv2d": (lambda: nn.Conv2d(4, 4, 3), x4),
        "Conv3d": (lambda: nn.Conv3d(4, 4, 3), x5),
        "ConvTranspose1d": (lambda: nn.ConvTranspose1d(4, 4, 3), x3),
        "ConvTranspose2d": (lambda: nn.ConvTranspose2d(4, 4, 3), x4),
        "ConvTranspose3d": (lambda: nn.ConvTranspose3d(4, 4, 3), x5),
        "Threshold": (lambda: nn.Threshold(0.1, 20), x2),
        "ReLU": (nn.ReLU, x2), "Hardtanh": (nn.Hardtanh, x2),
        "ReLU6": (nn.ReLU6, x2), "Sigmoid": (nn.Sigmoid, x2),
        "Tanh": (nn.Tanh, x2), "Softmax": (lambda: nn.Softmax(1), x2),
        "Softmax2d": (nn.Softmax2d, x4),
        "LogSoftmax": (lambda: nn.LogSoftmax(1), x2), "ELU": (nn.ELU, x2),
        "SELU": (nn.SELU, x2), "CELU": (nn.CELU, x2), "GLU": (nn.GLU, x2),
        "GELU": (nn.GELU, x2), "Hardshrink": (nn.Hardshrink, x2),
        "LeakyReLU": (nn.LeakyReLU, x2), "LogSigmoid": (nn.LogSigmoid, x2),
        "Softplus": (nn.Softplus, x2), "Softshrink": (nn.Softshrink, x2),
        "MultiheadAttention": (lambda: MHA(), x3),
        "PReLU": (nn.PReLU, x2), "Softsign": (nn.Softsign, x2),
        "Softmin": (lambda: nn.Softmin(1), x2),
        "Tanhshrink": (nn.Tanhshrink, x2), "RReLU": (nn.RReLU, x2),
        "L1Loss": (nn.L1Loss, target), "NLLLoss": (nn.NLLLoss, cls),
        "KLDivLoss": (lambda: nn.KLDivLoss(reduction="batchmean"), prob),
        "MSELoss": (nn.MSELoss, target), "BCELoss": (nn.BCELoss, prob),
        "BCEWithLogitsLoss": (nn.BCEWithLogitsLoss, prob),
        "NLLLoss2d": (nn.NLLLoss2d, cls),
        "PoissonNLLLoss": (nn.PoissonNLLLoss, prob),
        "CosineEmbeddingLoss": (nn.CosineEmbeddingLoss,
                                lambda: [r(2, 8), r(2, 8),
                                         torch.tensor([1.0, -1.0])]),
        "CTCLoss": (nn.CTCLoss, lambda: [
            r(6, 2, 5).log_softmax(2), torch.randint(1, 5, (2, 3)),
            torch.tensor([6, 6]), torch.tensor([3, 2])]),
        "HingeEmbeddingLoss": (nn.HingeEmbeddingLoss, sign),
        "MarginRankingLoss": (nn.MarginRankingLoss, lambda: [
            r(4), r(4), torch.tensor([1.0, -1.0, 1.0, -1.0])]),
        "MultiLabelMarginLoss": (nn.MultiLabelMarginLoss, lambda: [
            r(2, 4), torch.tensor([[3, 0, -1, 1], [0, 1, 2, 3]])]),
        "MultiLabelSoftMarginLoss": (nn.MultiLabelSoftMarginLoss, prob),
        "MultiMarginLoss": (nn.MultiMarginLoss, cls),
        "SmoothL1Loss": (nn.SmoothL1Loss, target),
        "GaussianNLLLoss": (nn.GaussianNLLLoss, lambda: [
            r(2, 8), r(2, 8), torch.rand(2, 8) + 0.1]),
        "HuberLoss": (nn.HuberLoss, target),
        "SoftMarginLoss": (nn.SoftMarginLoss, sign),
        "CrossEntropyLoss": (nn.CrossEntropyLoss, cls),
        "Sequential": (lambda: nn.Sequential(nn.Linear(8, 8), nn.ReLU()), x2),
        "AvgPool1d": (lambda: nn.AvgPool1d(2), x3),
        "AvgPool2d": (lambda: nn.AvgPool2d(2), x4),
        "AvgPool3d": (lambda: nn.AvgPool3d(2), x5),
        "MaxPool1d": (lambda: nn.MaxPool1d(2), x3),
        "MaxPool2d": (lambda: nn.MaxPool2d(2), x4),
        "MaxPool3d": (lambda: nn.MaxPool3d(2), x5),
        "MaxUnpool1d": (lambda: Unpool(1), x3),
        "MaxUnpool2d": (lambda: Unpool(2), x4),
        "MaxUnpool3d": (lambda: Unpool(3), x5),
        "FractionalMaxPool2d": (lambda: nn.FractionalMaxPool2d(
            2, output_size=4, _random_samples=torch.rand(2, 4, 2)), x4),
        "FractionalMaxPool3d": (lambda: nn.FractionalMaxPool3d(
            2, output_size=2, _random_samples=torch.rand(2, 4, 3)), x5),
        "LPPool1d": (lambda: nn.LPPool1d(2, 2), x3),
        "LPPool2d": (lambda: nn.LPPool2d(2, 2), x4),
        "LocalResponseNorm": (lambda: nn.LocalResponseNorm(2), x4),
        "BatchNorm1d": (lambda: nn.BatchNorm1d(4), x3),
        "BatchNorm2d": (lambda: nn.BatchNorm2d(4), x4),
        "BatchNorm3d": (lambda: nn.BatchNorm3d(4), x5),
        "InstanceNorm1d": (lambda: nn.InstanceNorm1d(4), x3),
        "InstanceNorm2d": (lambda: nn.InstanceNorm2d(4), x4),
        "InstanceNorm3d": (lambda: nn.InstanceNorm3d(4), x5),
        "LayerNorm": (lambda: nn.LayerNorm(8), x3),
        "GroupNorm": (lambda: nn.GroupNorm(2, 4), x4),
        "SyncBatchNorm": (lambda: nn.SyncBatchNorm(4), x4),
        "Dropout": (nn.Dropout, x2), "Dropout1d": (nn.Dropout1d, x3),
        "Dropout2d": (nn.Dropout2d, x4), "Dropout3d": (nn.Dropout3d, x5),
        "AlphaDropout": (nn.AlphaDropout, x2),
        "FeatureAlphaDropout": (nn.FeatureAlphaDropout, x4),
        "ReflectionPad1d": (lambda: nn.ReflectionPad1d(2), x3),
        "ReflectionPad2d": (lambda: nn.ReflectionPad2d(2), x4),
        "ReflectionPad3d": (lambda: nn.ReflectionPad3d(2), x5),
        "ReplicationPad1d": (lambda: nn.ReplicationPad1d(2), x3),
        "ReplicationPad2d": (lambda: nn.ReplicationPad2d(2), x4),
        "ReplicationPad3d": (lambda: nn.ReplicationPad3d(2), x5),
        "CrossMapLRN2d": (lambda: nn.CrossMapLRN2d(3), x4),
        "Embedding": (lambda: nn.Embedding(10, 4),
                      lambda: [torch.randint(0, 10, (2, 3))]),
        "EmbeddingBag": (lambda: nn.EmbeddingBag(10, 4),
                         lambda: [torch.randint(0, 10, (2, 3))]),
        "RNN": (lambda: nn.RNN(8, 6, num_layers=2), x3),
        "LSTM": (lambda: nn.LSTM(8, 6, bidirectional=True), x3),
        "GRU": (lambda: nn.GRU(8, 6, batch_first=True), x3),
        "RNNCell": (lambda: nn.RNNCell(8, 6), x2),
        "LSTMCell": (lambda: nn.LSTMCell(8, 6), x2),
        "GRUCell": (lambda: nn.GRUCell(8, 6), x2),
        "PixelShuffle": (lambda: nn.PixelShuffle(2), x4),
        "PixelUnshuffle": (lambda: nn.PixelUnshuffle(2), x4),
        "Upsample": (lambda: nn.Upsample(scale_factor=2), x4),
        "UpsamplingNearest2d": (lambda: nn.UpsamplingNearest2d(
            scale_factor=2), x4),
        "UpsamplingBilinear2d": (lambda: nn.UpsamplingBilinear2d(
            scale_factor=2), x4),
        "PairwiseDistance": (nn.PairwiseDistance, target),
        "AdaptiveMaxPool1d": (lambda: nn.AdaptiveMaxPool1d(3), x3),
        "AdaptiveMaxPool2d": (lambda: nn.AdaptiveMaxPool2d(3), x4),
        "AdaptiveMaxPool3d": (lambda: nn.AdaptiveMaxPool3d(3), x5),
        "AdaptiveAvgPool1d": (lambda: nn.AdaptiveAvgPool1d(3), x3),
        "AdaptiveAvgPool2d": (lambda: nn.AdaptiveAvgPool2d(3), x4),
        "AdaptiveAvgPool3d": (lambda: nn.AdaptiveAvgPool3d(3), x5),
        "TripletMarginLoss": (nn.TripletMarginLoss,
                              lambda: [r(2, 8), r(2, 8), r(2, 8)]),
        "ZeroPad2d": (lambda: nn.ZeroPad2d(1), x4),
        "ConstantPad1d": (lambda: nn.ConstantPad1d(1, 0.5), x3),
        "ConstantPad2d": (lambda: nn.ConstantPad2d(1, 0.5), x4),
        "ConstantPad3d": (lambda: nn.ConstantPad3d(1, 0.5), x5),
        "Bilinear": (lambda: nn.Bilinear(8, 8, 4), target),
        "CosineSimilarity": (nn.CosineSimilarity, target),
        "Unfold": (lambda: nn.Unfold(2), x4),
        "Fold": (lambda: nn.Fold((4, 4), 2), lambda: [r(2, 16, 9)]),
        "AdaptiveLogSoftmaxWithLoss": (lambda: ALSM(), cls),
        "TransformerEncoder": (lambda: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(8, 2, 16), 1), x3),
        "TransformerDecoder": (lambda: Decoder(nn.TransformerDecoder(
            nn.TransformerDecoderLayer(8, 2, 16), 1)), x3),
        "TransformerEncoderLayer": (lambda: nn.TransformerEncoderLayer(
            8, 2, 16), x3),
        "TransformerDecoderLayer": (lambda: Decoder(
            nn.TransformerDecoderLayer(8, 2, 16)), x3),
        "Transformer": (lambda: Decoder(nn.Transformer(
            8, 2, 1, 1, 16)), x3),
        "LazyLinear": (lambda: nn.LazyLinear(4), x2),
        "LazyConv1d": (lambda: nn.LazyConv1d(4, 3), x3),
        "LazyConv2d": (lambda: nn.LazyConv2d(4, 3), x4),
        "LazyConv3d": (lambda: nn.LazyConv3d(4, 3), x5),
        "LazyConvTranspose1d": (lambda: nn.LazyConvTranspose1d(4, 3), x3),
        "LazyConvTranspose2d": (lambda: nn.LazyConvTranspose2d(4, 3), x4),
        "LazyConvTranspose3d": (lambda: nn.LazyConvTranspose3d(4, 3), x5),
        "LazyBatchNorm1d": (nn.LazyBatchNorm1d, x3),
        "LazyBatchNorm2d": (nn.LazyBatchNorm2d, x4),
        "LazyBatchNorm3d": (nn.LazyBatchNorm3d, x5),
        "LazyInstanceNorm1d": (nn.LazyInstanceNorm1d, x3),
        "LazyInstanceNorm2d": (nn.LazyInstanceNorm2d, x4),
        "LazyInstanceNorm3d": (nn.LazyInstanceNorm3d, x5),
        "Flatten": (nn.Flatten, x4),
        "Unflatten": (lambda: nn.Unflatten(1, (2, 4)), x2),
        "Hardsigmoid": (nn.Hardsigmoid, x2),
        "Hardswish": (nn.Hardswish, x2), "SiLU": (nn.SiLU, x2),
        "Mish": (nn.Mish, x2),
        "TripletMarginWithDistanceLoss": (nn.TripletMarginWithDistanceLoss,
                                          lambda: [r(2, 8), r(2, 8), r(2, 8)]),
        "ChannelShuffle": (lambda: nn.ChannelShuffle(2), x4),
    }
    no_forward = {"Module", "Container", "ModuleList", "ModuleDict",
                  "ParameterList", "ParameterDict", "RNNBase", "RNNCellBase"}
    cases = []
    for name in nn.modules.__all__:
        if name in no_forward:
            continue
        if name not in table:
            print(f"nn.{name}: NOT IN SWEEP TABLE", flush=True)
            continue
        build, inputs = table[name]
        # As the traced root, the layer's body is inlined (its aten ops are
        # looked up); wrapped, a leaf layer is one call_module (its class is
        # looked up).
        cases.append(("nn." + name, build, inputs))
        cases.append(("nn." + name + ".wrapped",
                      lambda b=build: Wrapped(b()), inputs))
    return cases


def Wrapped(inner):
    import torch.nn as nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = inner

        def forward(self, *xs):
            return self.inner(*xs)
    return M()


def MHA():
    import torch.nn as nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(8, 2)

        def forward(self, x):
            return self.attn(x, x, x)[0]
    return M()


def Unpool(rank):
    import torch.nn as nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.pool = getattr(nn, f"MaxPool{rank}d")(2, return_indices=True)
            self.unpool = getattr(nn, f"MaxUnpool{rank}d")(2)

        def forward(self, x):
            y, i = self.pool(x)
            return self.unpool(y, i)
    return M()


def ALSM():
    import torch.nn as nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.m = nn.AdaptiveLogSoftmaxWithLoss(8, 6, [2, 4])

        def forward(self, x, y):
            return self.m(x, y).loss
    return M()


def Decoder(inner):
    import torch.nn as nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = inner

        def forward(self, x):
            return self.inner(x, x)
    return M()


def run_case(name, build, inputs, args):
    import torch
    torch.manual_seed(0)
    model = build().eval()
    xs = inputs()
    with torch.no_grad():
        model(*xs)  # materializes lazy modules
    path = os.path.join(args.work, name + ".pt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced = torch.jit.trace(model, tuple(xs), check_trace=False,
                                 strict=False)
    torch.jit.save(traced, path)
    mlir = os.path.join(args.work, name + ".mlir")
    run = subprocess.run(
        [os.path.join(args.bin, "mav-translate"), "--import-torchscript", path,
         *["--input-shape=" + shape_spec(t) for t in xs], "--emit-bytecode",
         "-o", mlir], capture_output=True, text=True)
    if run.returncode != 0:
        return "import", run.stderr
    run = subprocess.run(
        [os.path.join(args.bin, "mav-opt"), mlir, "-mav-raise",
         "--mav-elide-weights", "-o", os.devnull],
        capture_output=True, text=True)
    if run.returncode != 0:
        return "raise", run.stderr
    return None, ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--skip-torchvision", action="store_true")
    parser.add_argument("--skip-nn", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    import torch
    torch.set_num_threads(1)
    cases = []
    if not args.skip_torchvision:
        cases += torchvision_cases()
    if not args.skip_nn:
        cases += nn_cases()
    if args.only:
        cases = [c for c in cases if c[0] in args.only]
    unknown = collections.defaultdict(list)
    ok = failed = 0
    for name, build, inputs in cases:
        try:
            stage, stderr = run_case(name, build, inputs, args)
        except Exception as e:  # a model PyTorch cannot build or trace
            print(f"{name}: SKIP: {type(e).__name__}: {str(e)[:200]}",
                  flush=True)
            continue
        if stage is None:
            ok += 1
            print(f"{name}: OK", flush=True)
            continue
        failed += 1
        lines = [line for line in stderr.splitlines() if "error" in line]
        for target in re.findall(r"unknown operator '([^']*)'", stderr):
            if name not in unknown[target]:
                unknown[target].append(name)
        first = (lines or stderr.splitlines() or [""])[0]
        print(f"{name}: FAIL ({stage}): {first[:400]}", flush=True)
    print(f"\n{ok} OK, {failed} failed")
    for target, names in sorted(unknown.items()):
        print(f"unknown {target}: {', '.join(names)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The model builders of torchvision, torchaudio and torchtext, traced.

trace_all() yields (source, node kinds, seconds) for each builder: every
public builder of torchvision's classification, segmentation, video and
optical-flow modules (torchvision.models.list_models), every builder
function of torchaudio.models, and torchtext's model classes (RoBERTa, and
the prototype T5 encoder-decoder), each in eval mode on a small input. The
builders are unchanged but for two: MViT's fix its input at 16x224x224,
so the same classes are built for 4x32x32 clips; RAFT runs two flow updates
instead of twelve. Each model is traced as a function (torch.jit.trace of a
lambda calling it), which records the same operators without compiling the
module's methods: WaveRNN's exported `infer` does not compile in torch 1.13.
A builder torch.jit.trace itself fails on (hubert_pretrain_*, whose masking
calls torch.full with a bool, an alias-analysis assertion in 1.13) is
reported with the reason.

Random initialisation is skipped while a model is built (torch.nn.init's
functions return their tensor untouched): the trace records which
operators run, not their values, and initialising resnet152 or swin_v2
takes longer than tracing them. Detection and quantized models are left out:
they call torchvision's custom operators (torchvision::nms) or quantized
kernels, which mav refuses by design (docs/Import.md).

torchtext's classes are loaded without its package __init__
(test/models/torchtext_loader.py).
"""

import contextlib
import os
import sys
import time
import warnings

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
from torchtext_loader import load_torchtext_module  # noqa: E402


@contextlib.contextmanager
def no_initialisation():
    saved = {}
    for name in dir(nn.init):
        function = getattr(nn.init, name)
        if callable(function) and name.endswith("_") and \
                not name.startswith("_"):
            saved[name] = function
            setattr(nn.init, name, lambda tensor, *a, **k: tensor)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(nn.init, name, function)


def _image(size):
    return lambda: (torch.randn(1, 3, size, size),)


def _small_mvit(builder):
    """An MViT builder's model for 4x32x32 clips: the builders fix
    MViT's input at 16x224x224, which takes minutes to trace; the classes
    and blocks are the same."""
    import torchvision.models.video.mvit as mvit
    original = mvit.MViT

    def small(**kwargs):
        kwargs.update(spatial_size=(32, 32), temporal_size=4)
        return original(**kwargs)
    mvit.MViT = small
    try:
        return builder(weights=None, num_classes=10)
    finally:
        mvit.MViT = original


def torchvision_builders():
    import torchvision.models as tvm
    cases = []
    for module, kind in ((tvm, "classification"),
                         (tvm.segmentation, "segmentation"),
                         (tvm.video, "video"), (tvm.optical_flow, "flow")):
        for name in tvm.list_models(module=module):
            kwargs, inputs = {}, _image(32)
            if kind == "classification":
                kwargs["num_classes"] = 10
                if name.startswith("vit_"):  # a multiple of the patch size
                    size = 28 if name.endswith("_14") else 32
                    kwargs["image_size"], inputs = size, _image(size)
                if name in ("inception_v3", "googlenet"):
                    kwargs["aux_logits"], kwargs["init_weights"] = False, False
                    inputs = _image(80)
                if name == "alexnet":  # its features need 63 pixels
                    inputs = _image(64)
                if name == "maxvit_t":  # each stage's side divisible by 7
                    kwargs["input_size"] = (224, 224)
                    inputs = _image(224)
            elif kind == "segmentation":
                kwargs = {"num_classes": 3, "aux_loss": False,
                          "weights_backbone": None}
            elif kind == "video":
                kwargs["num_classes"] = 10
                inputs = lambda: (torch.randn(1, 3, 4, 32, 32),)
                if name == "s3d":
                    inputs = lambda: (torch.randn(1, 3, 16, 224, 224),)
                if name.startswith("mvit"):
                    cases.append(("torchvision:" + name,
                                  lambda b=getattr(module, name):
                                  _small_mvit(b),
                                  inputs))
                    continue
            elif kind == "flow":
                inputs = lambda: (torch.randn(1, 3, 64, 64),
                                  torch.randn(1, 3, 64, 64))
                cases.append(("torchvision:" + name,
                              lambda b=getattr(module, name):
                              FewFlowUpdates(b(weights=None)), inputs))
                continue
            builder = getattr(module, name)
            cases.append(("torchvision:" + name,
                          lambda b=builder, k=kwargs: b(weights=None, **k),
                          inputs))
    return cases


def torchaudio_builders():
    import torchaudio.models as am
    wave = lambda: (torch.randn(1, 1600),)
    lengths = lambda frames, features: (torch.randn(2, frames, features),
                                        torch.tensor([frames, frames - 3]))
    cases = [
        ("conv_tasnet_base", lambda: am.conv_tasnet_base(),
         lambda: (torch.randn(1, 1, 800),)),
        ("deepspeech", lambda: am.DeepSpeech(n_feature=16, n_hidden=32,
                                             n_class=10),
         lambda: (torch.randn(1, 1, 8, 16),)),
        ("wav2letter", lambda: am.Wav2Letter(num_classes=10),
         lambda: (torch.randn(1, 1, 1600),)),
        ("wavernn", lambda: am.WaveRNN(upsample_scales=[5, 5, 8], n_classes=16,
                                       hop_length=200, n_res_block=1,
                                       n_rnn=16, n_fc=16, n_hidden=16,
                                       n_output=16),
         lambda: (torch.randn(1, 1, 1200), torch.randn(1, 1, 128, 10))),
        ("conformer", lambda: am.Conformer(input_dim=16, num_heads=2,
                                           ffn_dim=32, num_layers=1,
                                           depthwise_conv_kernel_size=3),
         lambda: lengths(12, 16)),
        ("emformer", lambda: am.Emformer(input_dim=16, num_heads=2,
                                         ffn_dim=32, num_layers=1,
                                         segment_length=4),
         lambda: lengths(12, 16)),
        ("emformer_rnnt_base", lambda: am.emformer_rnnt_base(num_symbols=16),
         lambda: (torch.randn(1, 16, 80), torch.tensor([16]),
                  torch.randint(0, 16, (1, 3)), torch.tensor([3]))),
        ("hdemucs_low", lambda: am.hdemucs_low(sources=["a", "b"]),
         lambda: (torch.randn(1, 2, 4096),)),
        ("tacotron2", lambda: am.Tacotron2(n_symbol=10, n_mels=16,
                                           decoder_max_step=4),
         lambda: (torch.randint(1, 10, (1, 5)), torch.tensor([5]),
                  torch.randn(1, 16, 6), torch.tensor([6]))),
    ]
    for name in ("wav2vec2_base", "wav2vec2_large", "wav2vec2_large_lv60k",
                 "hubert_base", "hubert_large", "hubert_xlarge"):
        cases.append((name, lambda n=name: getattr(am, n)(), wave))
    for name in ("hubert_pretrain_base",):
        cases.append((name, lambda n=name: getattr(am, n)(),
                      lambda: (torch.randn(1, 1600),
                               torch.randint(0, 10, (1, 4)))))
    return [("torchaudio:" + n, m, i) for n, m, i in cases]


def torchtext_builders():
    roberta = load_torchtext_module("torchtext.models.roberta.model")
    t5 = load_torchtext_module("torchtext.prototype.models.t5.model")
    tokens = lambda: (torch.randint(2, 50, (2, 7)),)
    encoder = roberta.RobertaEncoderConf(vocab_size=50, embedding_dim=16,
                                         ffn_dimension=32, num_attention_heads=2,
                                         num_encoder_layers=1)
    t5_conf = t5.T5Conf(encoder_only=False, vocab_size=50, embedding_dim=16,
                        ffn_dimension=32, qkv_dim=8, num_attention_heads=2,
                        num_encoder_layers=1, num_decoder_layers=1)
    return [("torchtext:RobertaModel",
             lambda: roberta.RobertaModel(encoder), tokens),
            ("torchtext:T5Model", lambda: T5Wrapper(t5.T5Model(t5_conf)),
             lambda: (torch.randint(2, 50, (2, 7)),
                      torch.randint(2, 50, (2, 5))))]


class FewFlowUpdates(nn.Module):
    """RAFT with two flow updates instead of twelve: its last estimate."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, first, second):
        return self.model(first, second, num_flow_updates=2)[-1]


class T5Wrapper(nn.Module):
    """T5Model returns a dict of outputs: the decoder's output."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, encoder_tokens, decoder_tokens):
        return self.model(encoder_tokens, decoder_tokens)["decoder_output"]


def all_builders():
    return torchvision_builders() + torchaudio_builders() + \
        torchtext_builders()


def tensors(value):
    """The tensors in a model's outputs, in order, as one tuple (RNNT
    returns lists of lists, T5 a dict)."""
    if isinstance(value, torch.Tensor):
        return (value,)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return tuple(t for item in value for t in tensors(item))
    return ()


def trace_all(only=None):
    """(source, node kinds, seconds) per builder; (source, None, why) for a
    builder that torch.jit.trace fails on."""
    for source, make, inputs in all_builders():
        if only and source not in only:
            continue
        start = time.time()
        try:
            torch.manual_seed(0)
            with no_initialisation():
                model = make().eval().requires_grad_(False)
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # A function trace: the operators are the same, the module
                # methods are not compiled (WaveRNN's exported `infer`
                # does not compile in torch 1.13), and it is faster.
                traced = torch.jit.trace(lambda *args: tensors(model(*args)),
                                         inputs(), check_trace=False,
                                         strict=False)
            graph = traced.graph
        except Exception as error:  # PyTorch cannot trace it
            yield source, None, str(error).strip().splitlines()[0][:300]
            continue
        kinds = set()
        for node in graph.nodes():
            kinds.add(node.kind())
        yield source, kinds, time.time() - start

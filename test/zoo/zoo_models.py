#!/usr/bin/python3
"""The model zoo: small configurations of real torchvision and torch.nn models.

Usage:
    /usr/bin/python3 test/zoo/zoo_models.py --out DIR [--only NAME ...] [--list] [--force]

Each model is generated exactly as test/models/generate.py generates its
fixtures (the same functions: NAME.pt, NAME.json, NAME.io.pt, NAME.eval.pt
for train-mode models, written atomically under a per-model lock, and skipped
when up to date); only the registry differs. A model is stale when one of its
files is older than this script or generate.py.

Every reference value comes from PyTorch, in generate.py's `generate`.
Besides the builder, a zoo entry records the zoo family and the options the
zoo driver (run_zoo.py) passes to `mav-translate --import-torchscript`
(`--leaf-module=...`). torch is imported only when something is generated.
"""

import argparse
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "models"))
import generate as gen  # noqa: E402  (test/models/generate.py)
from generate import Spec, _randn, _shrink_classifier  # noqa: E402

Entry = collections.namedtuple("Entry", "builder description family import_args")
ZOO = collections.OrderedDict()

# The class of the custom leaf (see `custom_leaf`), as mav demangles it.
CUSTOM_MODULE = "mav_zoo_models"


def zoo(name, family, description, import_args=()):
    def deco(fn):
        ZOO[name] = Entry(fn, description, family, list(import_args))
        return fn
    return deco


def _pin(*classes):
    """Pins the qualified names of the classes defined here, so that they do
    not depend on how this script is run."""
    for c in classes:
        c.__module__ = CUSTOM_MODULE
        c.__qualname__ = c.__name__
    return classes


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------

@zoo("resnet_basic", "classification",
     "ResNet(BasicBlock, [1,1,1,1], num_classes=10), input 1x3x32x32")
def _resnet_basic():
    from torchvision.models.resnet import ResNet, BasicBlock
    return Spec(ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10), _randn(1, 3, 32, 32))


@zoo("resnext", "classification",
     "ResNet(Bottleneck, [1,1,1,1], groups=4, width_per_group=4, num_classes=10) "
     "(resnext), input 1x3x32x32")
def _resnext():
    from torchvision.models.resnet import ResNet, Bottleneck
    return Spec(ResNet(Bottleneck, [1, 1, 1, 1], groups=4, width_per_group=4,
                       num_classes=10), _randn(1, 3, 32, 32))


def _first_two_stages(model, channels):
    """Keeps a ResNet-style model's stem, layer1 and layer2: layer3 and layer4
    become Identity, and fc reads layer2's `channels`. Their widths are fixed
    by the class, and whole they would weigh tens of MB."""
    import torch.nn as nn
    model.layer3 = nn.Identity()
    model.layer4 = nn.Identity()
    model.fc = nn.Linear(channels, 10)
    return model


@zoo("wide_resnet", "classification",
     "ResNet(Bottleneck, [1,1,1,1], width_per_group=128, num_classes=10) "
     "(wide_resnet), its layer3 and layer4 replaced by Identity, fc 512->10; "
     "input 1x3x32x32")
def _wide_resnet():
    from torchvision.models.resnet import ResNet, Bottleneck
    m = ResNet(Bottleneck, [1, 1, 1, 1], width_per_group=128, num_classes=10)
    return Spec(_first_two_stages(m, 512), _randn(1, 3, 32, 32),
                notes="layer3 and layer4 replaced by Identity")


@zoo("regnet_x", "classification",
     "RegNet(BlockParams.from_init_params(depth=4, w_0=8, w_a=8, w_m=2, "
     "group_width=8), stem_width=8, num_classes=10); weight names hold "
     "`block1-0`; input 1x3x32x32")
def _regnet_x():
    from torchvision.models.regnet import RegNet, BlockParams
    bp = BlockParams.from_init_params(depth=4, w_0=8, w_a=8.0, w_m=2.0, group_width=8)
    return Spec(RegNet(bp, stem_width=8, num_classes=10), _randn(1, 3, 32, 32))


@zoo("regnet_y", "classification",
     "RegNet(BlockParams.from_init_params(depth=4, w_0=8, w_a=8, w_m=2, "
     "group_width=8, se_ratio=0.25), stem_width=8, num_classes=10) "
     "(squeeze-excitation), input 1x3x32x32")
def _regnet_y():
    from torchvision.models.regnet import RegNet, BlockParams
    bp = BlockParams.from_init_params(depth=4, w_0=8, w_a=8.0, w_m=2.0, group_width=8,
                                      se_ratio=0.25)
    return Spec(RegNet(bp, stem_width=8, num_classes=10), _randn(1, 3, 32, 32))


@zoo("densenet", "classification",
     "DenseNet(growth_rate=8, block_config=(2,2), num_init_features=16, "
     "bn_size=2, num_classes=10), input 1x3x32x32")
def _densenet():
    from torchvision.models.densenet import DenseNet
    return Spec(DenseNet(growth_rate=8, block_config=(2, 2), num_init_features=16,
                         bn_size=2, num_classes=10), _randn(1, 3, 32, 32))


@zoo("googlenet", "classification",
     "GoogLeNet(num_classes=10, aux_logits=False, init_weights=True), input 1x3x64x64")
def _googlenet():
    from torchvision.models.googlenet import GoogLeNet
    return Spec(GoogLeNet(num_classes=10, aux_logits=False, init_weights=True),
                _randn(1, 3, 64, 64))


@zoo("inception_v3", "classification",
     "Inception3(num_classes=10, aux_logits=False, init_weights=True), its "
     "Mixed_6c..Mixed_7c replaced by Identity, fc 768->10; input 1x3x75x75 "
     "(the smallest it takes)")
def _inception_v3():
    import torch.nn as nn
    from torchvision.models.inception import Inception3
    m = Inception3(num_classes=10, aux_logits=False, init_weights=True)
    for block in ("Mixed_6c", "Mixed_6d", "Mixed_6e", "Mixed_7a", "Mixed_7b", "Mixed_7c"):
        setattr(m, block, nn.Identity())
    m.fc = nn.Linear(768, 10)
    return Spec(m, _randn(1, 3, 75, 75),
                notes="Mixed_6c..Mixed_7c replaced by Identity (22M -> %d parameters)"
                      % sum(p.numel() for p in m.parameters()))


@zoo("mnasnet", "classification", "MNASNet(alpha=0.5, num_classes=10), input 1x3x32x32")
def _mnasnet():
    from torchvision.models.mnasnet import MNASNet
    return Spec(MNASNet(0.5, num_classes=10), _randn(1, 3, 32, 32))


@zoo("shufflenet_v2", "classification",
     "ShuffleNetV2([2,2,2], [24,24,48,96,256], num_classes=10), input 1x3x32x32")
def _shufflenet_v2():
    from torchvision.models.shufflenetv2 import ShuffleNetV2
    return Spec(ShuffleNetV2([2, 2, 2], [24, 24, 48, 96, 256], num_classes=10),
                _randn(1, 3, 32, 32))


@zoo("squeezenet1_1", "classification",
     "torchvision squeezenet1_1, num_classes=10, input 1x3x64x64")
def _squeezenet1_1():
    from torchvision.models import squeezenet1_1
    return Spec(squeezenet1_1(weights=None, num_classes=10), _randn(1, 3, 64, 64))


@zoo("mobilenet_v2_w025", "classification",
     "torchvision mobilenet_v2(width_mult=0.25, num_classes=10), input 1x3x32x32")
def _mobilenet_v2():
    from torchvision.models import mobilenet_v2
    return Spec(mobilenet_v2(weights=None, width_mult=0.25, num_classes=10),
                _randn(1, 3, 32, 32))


@zoo("mobilenet_v3_large", "classification",
     "torchvision mobilenet_v3_large(width_mult=0.25, reduced_tail=True, "
     "num_classes=10), input 1x3x32x32")
def _mobilenet_v3_large():
    from torchvision.models import mobilenet_v3_large
    return Spec(mobilenet_v3_large(weights=None, width_mult=0.25, reduced_tail=True,
                                   num_classes=10), _randn(1, 3, 32, 32))


@zoo("efficientnet_small", "classification",
     "EfficientNet with efficientnet_b0's settings at width_mult=0.25, "
     "depth_mult=0.25 (Dropout, StochasticDepth, SqueezeExcitation), "
     "num_classes=10, input 1x3x32x32")
def _efficientnet_small():
    from torchvision.models.efficientnet import EfficientNet, _efficientnet_conf
    setting, last = _efficientnet_conf("efficientnet_b0", width_mult=0.25, depth_mult=0.25)
    return Spec(EfficientNet(setting, dropout=0.2, num_classes=10, last_channel=last),
                _randn(1, 3, 32, 32))


@zoo("efficientnet_v2", "classification",
     "EfficientNet([FusedMBConvConfig(1,3,1,8,8,1), FusedMBConvConfig(4,3,2,8,16,1), "
     "MBConvConfig(4,3,2,16,24,1)], dropout=0.2, last_channel=64, num_classes=10) "
     "(efficientnet_v2's blocks, BatchNorm eps 1e-3), input 1x3x32x32")
def _efficientnet_v2():
    import functools
    import torch.nn as nn
    from torchvision.models.efficientnet import (EfficientNet, FusedMBConvConfig,
                                                 MBConvConfig)
    setting = [FusedMBConvConfig(1, 3, 1, 8, 8, 1), FusedMBConvConfig(4, 3, 2, 8, 16, 1),
               MBConvConfig(4, 3, 2, 16, 24, 1)]
    return Spec(EfficientNet(setting, dropout=0.2, num_classes=10, last_channel=64,
                             norm_layer=functools.partial(nn.BatchNorm2d, eps=1e-3)),
                _randn(1, 3, 32, 32))


@zoo("convnext_small", "classification",
     "ConvNeXt([CNBlockConfig(8,16,1), CNBlockConfig(16,32,1), CNBlockConfig(32,None,1)], "
     "stochastic_depth_prob=0.1, num_classes=10), input 1x3x32x32")
def _convnext():
    from torchvision.models.convnext import ConvNeXt, CNBlockConfig
    return Spec(ConvNeXt([CNBlockConfig(8, 16, 1), CNBlockConfig(16, 32, 1),
                          CNBlockConfig(32, None, 1)], stochastic_depth_prob=0.1,
                         num_classes=10), _randn(1, 3, 32, 32))


@zoo("vit_dropout", "classification",
     "VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, "
     "hidden_dim=16, mlp_dim=32, dropout=0.1, attention_dropout=0.1, "
     "num_classes=10), input 1x3x32x32")
def _vit():
    from torchvision.models.vision_transformer import VisionTransformer
    return Spec(VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                                  hidden_dim=16, mlp_dim=32, dropout=0.1,
                                  attention_dropout=0.1, num_classes=10),
                _randn(1, 3, 32, 32))


@zoo("swin_v2", "classification",
     "SwinTransformer(patch_size=[4,4], embed_dim=16, depths=[2,2], num_heads=[2,2], "
     "window_size=[4,4], block=SwinTransformerBlockV2, "
     "downsample_layer=PatchMergingV2, num_classes=10) (swin_v2), input 1x3x32x32")
def _swin_v2():
    from torchvision.models.swin_transformer import (SwinTransformer, PatchMergingV2,
                                                     SwinTransformerBlockV2)
    return Spec(SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[2, 2],
                                num_heads=[2, 2], window_size=[4, 4],
                                block=SwinTransformerBlockV2,
                                downsample_layer=PatchMergingV2, num_classes=10),
                _randn(1, 3, 32, 32))


@zoo("maxvit", "classification",
     "MaxVit(input_size=(32,32), stem_channels=8, partition_size=2, "
     "block_channels=[16,32], block_layers=[1,1], head_dim=8, "
     "stochastic_depth_prob=0.1, num_classes=10), input 1x3x32x32")
def _maxvit():
    from torchvision.models.maxvit import MaxVit
    return Spec(MaxVit(input_size=(32, 32), stem_channels=8, partition_size=2,
                       block_channels=[16, 32], block_layers=[1, 1], head_dim=8,
                       stochastic_depth_prob=0.1, num_classes=10),
                _randn(1, 3, 32, 32))


@zoo("alexnet", "classification",
     "torchvision alexnet, num_classes=10, classifier hidden width 4096 -> 64, "
     "input 1x3x64x64")
def _alexnet():
    from torchvision.models import alexnet
    m = alexnet(weights=None, num_classes=10)
    _shrink_classifier(m.classifier, gen.CLASSIFIER_HIDDEN)
    return Spec(m, _randn(1, 3, 64, 64), notes="classifier hidden width 4096 -> 64")


@zoo("vgg_bn", "classification",
     "VGG(make_layers([8,M,16,M,32,M,512,M], batch_norm=True), num_classes=10), "
     "classifier hidden width 4096 -> 64, input 1x3x32x32")
def _vgg_bn():
    from torchvision.models.vgg import VGG, make_layers
    m = VGG(make_layers([8, "M", 16, "M", 32, "M", 512, "M"], batch_norm=True),
            num_classes=10)
    _shrink_classifier(m.classifier, gen.CLASSIFIER_HIDDEN)
    return Spec(m, _randn(1, 3, 32, 32), notes="classifier hidden width 4096 -> 64")


# --------------------------------------------------------------------------
# Segmentation (the models return a dict: {"out": ...})
# --------------------------------------------------------------------------

def _resnet_backbone():
    from torchvision.models.resnet import ResNet, BasicBlock
    from torchvision.models._utils import IntermediateLayerGetter
    # IntermediateLayerGetter keeps the layers up to the last one returned.
    return IntermediateLayerGetter(ResNet(BasicBlock, [1, 1, 1, 1]),
                                   return_layers={"layer1": "aux", "layer2": "out"})


@zoo("fcn", "segmentation",
     "FCN(IntermediateLayerGetter(ResNet(BasicBlock,[1,1,1,1]), up to layer2), "
     "FCNHead(128,3), aux_classifier=FCNHead(64,3)); returns a dict {out, aux}; "
     "input 1x3x32x32")
def _fcn():
    from torchvision.models.segmentation.fcn import FCN, FCNHead
    return Spec(FCN(_resnet_backbone(), FCNHead(128, 3), FCNHead(64, 3)),
                _randn(1, 3, 32, 32), strict=False)


@zoo("deeplabv3", "segmentation",
     "DeepLabV3(IntermediateLayerGetter(mobilenet_v3_small(width_mult=0.25)."
     "features), DeepLabHead(in,3)) (ASPP); returns a dict {out}; input 1x3x32x32")
def _deeplabv3():
    from torchvision.models import mobilenet_v3_small
    from torchvision.models._utils import IntermediateLayerGetter
    from torchvision.models.segmentation.deeplabv3 import DeepLabV3, DeepLabHead
    features = mobilenet_v3_small(weights=None, width_mult=0.25).features
    channels = features[-1].out_channels
    backbone = IntermediateLayerGetter(features, return_layers={str(len(features) - 1): "out"})
    return Spec(DeepLabV3(backbone, DeepLabHead(channels, 3)), _randn(1, 3, 32, 32),
                strict=False)


@zoo("lraspp", "segmentation",
     "torchvision lraspp_mobilenet_v3_large(num_classes=3), no pretrained "
     "backbone; returns a dict {out}; input 1x3x64x64")
def _lraspp():
    from torchvision.models.segmentation import lraspp_mobilenet_v3_large
    return Spec(lraspp_mobilenet_v3_large(weights=None, weights_backbone=None,
                                          num_classes=3),
                _randn(1, 3, 64, 64), strict=False)


# --------------------------------------------------------------------------
# Detection: their graphs call torchvision::nms (and torchvision::roi_align),
# custom operators that mav must refuse at import.
# --------------------------------------------------------------------------

def _det_backbone(out_channels=16):
    import torch.nn as nn
    backbone = nn.Sequential(
        nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(8, out_channels, 3, stride=2, padding=1), nn.ReLU())
    backbone.out_channels = out_channels
    return backbone


def _det_anchors():
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    return AnchorGenerator(sizes=((16, 32),), aspect_ratios=((0.5, 1.0),))


def _det_roi_pool(size=7):
    from torchvision.ops import MultiScaleRoIAlign
    return MultiScaleRoIAlign(featmap_names=["0"], output_size=size, sampling_ratio=2)


def _det_spec(model):
    import torch.nn as nn

    class FirstImageDetections(nn.Module):
        """The tracer takes no list of dicts as an output: returns the first
        image's dict of detections (boxes, labels, scores, ...) as a tuple."""

        def __init__(self, detector):
            super().__init__()
            self.detector = detector

        def forward(self, images):
            return tuple(self.detector(images)[0].values())

    _pin(FirstImageDetections)
    # generate.py's entry/exit walk does not follow these graphs.
    return Spec(FirstImageDetections(model), _randn(1, 3, 64, 64), entry_exit=False,
                notes="the detector, wrapped to return the first image's "
                      "detections as a tuple")


def _rcnn_kwargs():
    from torchvision.models.detection.faster_rcnn import TwoMLPHead, FastRCNNPredictor
    return dict(num_classes=None, min_size=64, max_size=64,
                rpn_anchor_generator=_det_anchors(), box_roi_pool=_det_roi_pool(),
                box_head=TwoMLPHead(16 * 7 * 7, 32), box_predictor=FastRCNNPredictor(32, 3),
                rpn_pre_nms_top_n_test=50, rpn_post_nms_top_n_test=20,
                box_detections_per_img=10)


@zoo("fasterrcnn", "detection",
     "FasterRCNN(2-conv backbone, 16 channels, AnchorGenerator(((16,32),),((0.5,1),)), "
     "TwoMLPHead(784,32), FastRCNNPredictor(32,3), min_size=max_size=64), input 1x3x64x64")
def _fasterrcnn():
    from torchvision.models.detection import FasterRCNN
    return _det_spec(FasterRCNN(_det_backbone(), **_rcnn_kwargs()))


@zoo("maskrcnn", "detection",
     "MaskRCNN: fasterrcnn's configuration plus MaskRCNNHeads(16,(16,16),1), "
     "MaskRCNNPredictor(16,16,3), input 1x3x64x64")
def _maskrcnn():
    from torchvision.models.detection import MaskRCNN
    from torchvision.models.detection.mask_rcnn import MaskRCNNHeads, MaskRCNNPredictor
    return _det_spec(MaskRCNN(_det_backbone(), mask_roi_pool=_det_roi_pool(14),
                              mask_head=MaskRCNNHeads(16, (16, 16), 1),
                              mask_predictor=MaskRCNNPredictor(16, 16, 3),
                              **_rcnn_kwargs()))


@zoo("keypointrcnn", "detection",
     "KeypointRCNN: fasterrcnn's configuration plus KeypointRCNNHeads(16,(16,16)), "
     "KeypointRCNNPredictor(16,3), input 1x3x64x64")
def _keypointrcnn():
    from torchvision.models.detection import KeypointRCNN
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor
    from torchvision.models.detection.keypoint_rcnn import (KeypointRCNNHeads,
                                                            KeypointRCNNPredictor)
    kw = _rcnn_kwargs()
    kw["box_predictor"] = FastRCNNPredictor(32, 2)
    return _det_spec(KeypointRCNN(_det_backbone(), keypoint_roi_pool=_det_roi_pool(14),
                                  keypoint_head=KeypointRCNNHeads(16, (16, 16)),
                                  keypoint_predictor=KeypointRCNNPredictor(16, 3),
                                  **kw))


@zoo("retinanet", "detection",
     "RetinaNet(2-conv backbone, num_classes=3, AnchorGenerator, min_size=max_size=64), "
     "classification bias zeroed, input 1x3x64x64")
def _retinanet():
    from torchvision.models.detection import RetinaNet
    import torch
    model = RetinaNet(_det_backbone(), num_classes=3, min_size=64, max_size=64,
                      anchor_generator=_det_anchors(), topk_candidates=20,
                      detections_per_img=10)
    # Its classification bias starts at the prior -log(99): every score is
    # then about 0.01 whatever the image, below score_thresh (0.05), and
    # nothing is detected. Zeroed, the scores are of order 1.
    with torch.no_grad():
        model.head.classification_head.cls_logits.bias.zero_()
    return _det_spec(model)


@zoo("fcos", "detection",
     "FCOS(2-conv backbone, 32 channels (its head has GroupNorm(32)), num_classes=3, AnchorGenerator(((16,),),((1.0,),)), "
     "min_size=max_size=64), classification bias zeroed, input 1x3x64x64")
def _fcos():
    import torch
    from torchvision.models.detection import FCOS
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    model = FCOS(_det_backbone(32), num_classes=3, min_size=64, max_size=64,
                 anchor_generator=AnchorGenerator(((16,),), ((1.0,),)),
                 topk_candidates=20, detections_per_img=10)
    # As for retinanet: with the prior, every score is about 0.07, below
    # score_thresh (0.2), and nothing is detected.
    with torch.no_grad():
        model.head.classification_head.cls_logits.bias.zero_()
    return _det_spec(model)


@zoo("ssdlite", "detection",
     "torchvision ssdlite320_mobilenet_v3_large(num_classes=3, width_mult=0.25), "
     "no pretrained backbone, input 1x3x64x64 (resized to 320 inside)")
def _ssdlite():
    from torchvision.models.detection import ssdlite320_mobilenet_v3_large
    return _det_spec(ssdlite320_mobilenet_v3_large(
        weights=None, weights_backbone=None, num_classes=3, width_mult=0.25,
        topk_candidates=20, detections_per_img=10))


# --------------------------------------------------------------------------
# Refused at import: quantized models and scripted control flow
# --------------------------------------------------------------------------

@zoo("quantized_mobilenet_v2", "quantized",
     "torchvision QuantizableMobileNetV2(width_mult=0.25, num_classes=10), fused, "
     "prepared and converted with the fbgemm qconfig after one calibration batch; "
     "the float model is made meaningful first (generate.py's make_meaningful); "
     "input 1x3x32x32")
def _quantized_mobilenet_v2():
    import torch
    from torchvision.models.quantization import mobilenet_v2
    model = mobilenet_v2(weights=None, quantize=False, width_mult=0.25, num_classes=10)
    # generate() calibrates the quantized model, where nothing is left to
    # calibrate: the float model's BatchNorms are fused away by then.
    draw = _randn(1, 3, 32, 32)
    torch.manual_seed(gen.INPUT_SEED)
    inputs = draw()
    torch.manual_seed(gen.CHECK_SEED)
    model, record = gen.make_meaningful(model, draw, inputs, draw())
    model.eval()
    model.fuse_model(is_qat=False)
    model.qconfig = torch.ao.quantization.get_default_qconfig("fbgemm")
    torch.ao.quantization.prepare(model, inplace=True)
    with torch.no_grad():
        model(torch.randn(2, 3, 32, 32))
    torch.ao.quantization.convert(model, inplace=True)
    return Spec(model, _randn(1, 3, 32, 32), entry_exit=False,
                notes="the float model was made meaningful before it was fused "
                      "and quantized: %d BatchNorms calibrated, %d modules "
                      "rescaled" % (len(record["batchnorm_statistics"]),
                                    len(record["rescaled"])))


@zoo("scripted_control_flow", "control_flow",
     "torch.jit.script of Linear(8,8) followed by `if y.sum() > 0` choosing "
     "relu or tanh: a data-dependent branch the tracer would bake in; input 2x8")
def _scripted_control_flow():
    return Spec(_nn_classes()["Branchy"](), _randn(2, 8), entry_exit=False, script=True)


@zoo("sparse_graph_conv", "unsupported",
     "a graph convolution, Linear(8,8) then a product with a 4x4 adjacency "
     "built by torch.sparse_coo_tensor and made dense; input 4x8")
def _sparse_graph_conv():
    return Spec(_nn_classes()["SparseGraphConv"](), _randn(4, 8),
                entry_exit=False)


# --------------------------------------------------------------------------
# Video
# --------------------------------------------------------------------------

def _video_resnet(conv_makers, stem):
    from torchvision.models.video.resnet import VideoResNet, BasicBlock
    m = VideoResNet(BasicBlock, conv_makers, [1, 1, 1, 1], stem, num_classes=10)
    return _first_two_stages(m, 128)


@zoo("r3d", "video",
     "VideoResNet(BasicBlock, [Conv3DSimple]*4, [1,1,1,1], BasicStem, num_classes=10) "
     "(r3d_18's blocks), layer3 and layer4 replaced by Identity, fc 128->10; input 1x3x4x32x32")
def _r3d():
    from torchvision.models.video.resnet import Conv3DSimple, BasicStem
    return Spec(_video_resnet([Conv3DSimple] * 4, BasicStem), _randn(1, 3, 4, 32, 32))


@zoo("mc3", "video",
     "VideoResNet(BasicBlock, [Conv3DSimple]+[Conv3DNoTemporal]*3, [1,1,1,1], "
     "BasicStem, num_classes=10) (mc3_18's blocks), layer3 and layer4 replaced by Identity, fc 128->10; input 1x3x4x32x32")
def _mc3():
    from torchvision.models.video.resnet import Conv3DSimple, Conv3DNoTemporal, BasicStem
    return Spec(_video_resnet([Conv3DSimple] + [Conv3DNoTemporal] * 3, BasicStem),
                _randn(1, 3, 4, 32, 32))


@zoo("r2plus1d", "video",
     "VideoResNet(BasicBlock, [Conv2Plus1D]*4, [1,1,1,1], R2Plus1dStem, "
     "num_classes=10) (r2plus1d_18's blocks), layer3 and layer4 replaced by Identity, fc 128->10; input 1x3x4x32x32")
def _r2plus1d():
    from torchvision.models.video.resnet import Conv2Plus1D, R2Plus1dStem
    return Spec(_video_resnet([Conv2Plus1D] * 4, R2Plus1dStem), _randn(1, 3, 4, 32, 32))


@zoo("s3d", "video",
     "S3D(num_classes=10) with its final AvgPool3d((2,7,7)) replaced by "
     "AdaptiveAvgPool3d(1), so that it takes a small clip; input 1x3x8x32x32")
def _s3d():
    import torch.nn as nn
    from torchvision.models.video import S3D
    m = S3D(num_classes=10)
    m.avgpool = nn.AdaptiveAvgPool3d(1)
    return Spec(m, _randn(1, 3, 8, 32, 32),
                notes="avgpool replaced: the original needs 224x224 frames")


@zoo("mvit", "video",
     "MViT(spatial_size=(32,32), temporal_size=4, two MSBlockConfig (8 then 16 "
     "channels, 1 then 2 heads, pooled q/kv), residual_pool, rel_pos_embed "
     "(mvit_v2), num_classes=10), input 1x3x4x32x32")
def _mvit():
    from torchvision.models.video.mvit import MViT, MSBlockConfig
    blocks = [MSBlockConfig(1, 8, 8, [3, 3, 3], [3, 3, 3], [1, 1, 1], [1, 2, 2]),
              MSBlockConfig(2, 8, 16, [3, 3, 3], [3, 3, 3], [1, 2, 2], [1, 1, 1])]
    return Spec(MViT(spatial_size=(32, 32), temporal_size=4, block_setting=blocks,
                     residual_pool=True, residual_with_cls_embed=False,
                     rel_pos_embed=True, proj_after_attn=True, dropout=0.5,
                     stochastic_depth_prob=0.1, num_classes=10),
                _randn(1, 3, 4, 32, 32))


# --------------------------------------------------------------------------
# Optical flow
# --------------------------------------------------------------------------

@zoo("raft_small", "optical_flow",
     "torchvision raft_small(), random weights, two frames 1x3x128x128, "
     "12 flow updates (returns the 12 flow estimates)")
def _raft_small():
    import torch
    from torchvision.models.optical_flow import raft_small
    # 128x128, the smallest square frames it takes: its correlation pyramid
    # has 4 levels below the 1/8 feature map, and a 1x1 level (64x64 frames)
    # normalises its sampling grid by width - 1 = 0, which makes every flow NaN.
    return Spec(raft_small(weights=None),
                lambda: [torch.randn(1, 3, 128, 128), torch.randn(1, 3, 128, 128)])


# --------------------------------------------------------------------------
# torch.nn
# --------------------------------------------------------------------------

def _nn_classes():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    class PackedRNN(nn.Module):
        """An RNN over a padded batch through pack_padded_sequence."""

        def __init__(self, rnn):
            super().__init__()
            self.rnn = rnn
            self.head = nn.Linear(rnn.hidden_size * (2 if rnn.bidirectional else 1), 4)

        def forward(self, x):  # (batch=3, seq=6, 8)
            lengths = torch.tensor([6, 4, 2])
            packed = pack_padded_sequence(x, lengths, batch_first=True,
                                          enforce_sorted=False)
            out, _ = self.rnn(packed)
            out, _ = pad_packed_sequence(out, batch_first=True)
            return self.head(out)

    class ScaledSoftsign(nn.Module):
        """A custom class, made a leaf with --leaf-module."""

        def __init__(self, features):
            super().__init__()
            self.alpha = nn.Parameter(torch.ones(features))

        def forward(self, x):
            return self.alpha * x / (1 + x.abs())

    class CustomLeafNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(16, 32)
            self.act = ScaledSoftsign(32)
            self.fc2 = nn.Linear(32, 4)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))

    class Branchy(nn.Module):
        """A branch on a value: scripting keeps it as prim::If."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x):
            y = self.fc(x)
            if bool(y.sum() > 0):
                return torch.relu(y)
            return torch.tanh(y)

    class SparseGraphConv(nn.Module):
        """A graph convolution whose adjacency is a sparse COO tensor, made
        dense before the product: mav refuses sparse layouts by name."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)
            self.register_buffer("edges", torch.tensor([[0, 1, 2, 3, 1],
                                                        [1, 2, 3, 0, 3]]))

        def forward(self, x):
            weights = torch.ones(self.edges.shape[1])
            adjacency = torch.sparse_coo_tensor(self.edges, weights, (4, 4))
            return adjacency.to_dense() @ self.fc(x)

    class DataDependent(nn.Module):
        """Shapes that depend on values: a mask index and nonzero."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x):
            y = self.fc(x)
            positive = y[y > 0]
            indices = torch.nonzero(y > 0.5)
            return positive * 2, indices

    class EmbeddingBags(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(50, 8, padding_idx=0)
            self.bag = nn.EmbeddingBag(50, 8, mode="mean")
            self.fc = nn.Linear(16, 4)

        def forward(self, tokens):  # (batch, seq) int64
            a = self.embed(tokens).sum(1)
            b = self.bag(tokens)
            return self.fc(torch.cat([a, b], 1))

    class Resampling(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 12, 3, padding=1)
            self.shuffle = nn.PixelShuffle(2)
            self.unshuffle = nn.PixelUnshuffle(2)
            self.up_bilinear = nn.Upsample(scale_factor=2, mode="bilinear",
                                           align_corners=False)
            self.up_nearest = nn.Upsample(size=(20, 20), mode="nearest")
            self.convt = nn.ConvTranspose2d(3, 4, 2, stride=2)

        def forward(self, x):  # 1x3x8x8
            y = self.shuffle(self.conv(x))            # 1x3x16x16
            z = self.up_bilinear(x)                   # 1x3x16x16
            w = self.unshuffle(y + z)                 # 1x12x8x8
            return self.up_nearest(self.convt(x)), w

    class BilinearNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.bilinear = nn.Bilinear(8, 6, 4)

        def forward(self, a, b):
            return self.bilinear(a, b)

    class Activations(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(4, 8, 3, padding=1)
            self.lrn = nn.LocalResponseNorm(3)
            self.mish = nn.Mish()
            self.softmin = nn.Softmin(dim=1)
            self.gn = nn.GroupNorm(2, 8)
            self.inorm = nn.InstanceNorm2d(8, affine=True)
            self.prelu = nn.PReLU(8)
            self.pool = nn.AdaptiveMaxPool2d(2)

        def forward(self, x):
            y = self.mish(self.lrn(self.conv(x)))
            y = self.prelu(self.inorm(self.gn(y)))
            return self.softmin(self.pool(y).flatten(1)), F.hardswish(y).mean()

    class TensorOps(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Parameter(torch.randn(8, 6))

        def forward(self, x):  # (4, 8)
            y = torch.einsum("bi,ij->bj", x, self.proj)
            c = torch.cumsum(y, dim=1)
            order = torch.argsort(y, dim=1)
            g = torch.gather(c, 1, order)
            s = torch.zeros_like(y).scatter(1, order[:, :2], 1.0)
            values, idx = torch.topk(y, 3, dim=1)
            sorted_values, _ = torch.sort(x, dim=0, descending=True)
            f = torch.flip(g, [1])
            n = torch.norm(x, dim=1, keepdim=True)
            return f + s, values, idx, sorted_values / n, torch.linalg.norm(y)

    class Seq2SeqTransformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.transformer = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1,
                                              num_decoder_layers=1, dim_feedforward=32)

        def forward(self, src, tgt):
            mask = self.transformer.generate_square_subsequent_mask(tgt.size(0))
            return self.transformer(src, tgt, tgt_mask=mask)

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            layer = nn.TransformerDecoderLayer(d_model=16, nhead=2, dim_feedforward=32,
                                               norm_first=True, activation="gelu")
            self.decoder = nn.TransformerDecoder(layer, num_layers=2)

        def forward(self, tgt, memory):
            return self.decoder(tgt, memory)

    class CrossAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(16, 2, dropout=0.1, kdim=8, vdim=12)

        def forward(self, q, k, v):
            out, weights = self.attn(q, k, v)
            return out, weights

    return {c.__name__: c for c in _pin(
        PackedRNN, ScaledSoftsign, CustomLeafNet, Branchy, DataDependent, EmbeddingBags,
        Resampling, BilinearNet, Activations, TensorOps, Seq2SeqTransformer, Decoder,
        CrossAttention, SparseGraphConv)}


def _packed(rnn, notes=""):
    return Spec(_nn_classes()["PackedRNN"](rnn), _randn(3, 6, 8), notes=notes)


# --------------------------------------------------------------------------
# Text (torchtext 0.14, python3-torchtext; its classes load without the
# package's __init__: test/models/torchtext_loader.py)
# --------------------------------------------------------------------------

def _roberta(training):
    import torch
    from torchtext_loader import load_torchtext_module
    roberta = load_torchtext_module("torchtext.models.roberta.model")
    conf = roberta.RobertaEncoderConf(
        vocab_size=50, embedding_dim=16, ffn_dimension=32,
        num_attention_heads=2, num_encoder_layers=2, padding_idx=1,
        max_seq_len=32, dropout=0.1)
    model = roberta.RobertaModel(conf)

    def tokens():
        # Sequences of 6, 4 and 5 tokens, padded with padding_idx 1.
        drawn = torch.randint(2, 50, (3, 7), dtype=torch.int64)
        for row, length in enumerate((6, 4, 5)):
            drawn[row, length:] = 1
        return [drawn]
    return Spec(model.train() if training else model.eval(), tokens,
                training=training, no_grad=not training,
                input_generators=["torch.randint(0, 50, shape, "
                                  "dtype=torch.int64)"])


@zoo("roberta_padded_eval", "text",
     "torchtext RobertaModel(RobertaEncoderConf(vocab_size=50, "
     "embedding_dim=16, ffn_dimension=32, num_attention_heads=2, "
     "num_encoder_layers=2)), eval mode under no_grad: a padding mask from "
     "padding_idx 1 sends nn.TransformerEncoder down its nested-tensor fast "
     "path; input int64 tokens 3x7 (sequences of 6, 4, 5)")
def _roberta_padded_eval():
    return _roberta(training=False)


@zoo("t5_encoder_decoder", "text",
     "torchtext prototype T5Model(T5Conf(encoder_only=False, vocab_size=50, "
     "embedding_dim=16, ffn_dimension=32, qkv_dim=8, num_attention_heads=2, "
     "num_encoder_layers=2, num_decoder_layers=2)): an encoder-decoder with "
     "relative position buckets and padding masks from token 0, eval mode "
     "(its q/k/v projections, left uninitialised by torchtext, drawn with "
     "xavier_uniform_); "
     "inputs int64 encoder tokens 2x7 and decoder tokens 2x5; returns the "
     "decoder's output")
def _t5_encoder_decoder():
    import torch
    from torchtext_loader import load_torchtext_module
    t5 = load_torchtext_module("torchtext.prototype.models.t5.model")
    conf = t5.T5Conf(encoder_only=False, vocab_size=50, embedding_dim=16,
                     ffn_dimension=32, qkv_dim=8, num_attention_heads=2,
                     num_encoder_layers=2, num_decoder_layers=2)
    model = t5.T5Model(conf)
    # T5's attention leaves its q/k/v projections as torch.empty: drawn here
    # as nn.MultiheadAttention draws its own.
    for name, parameter in model.named_parameters():
        if name.endswith(("q_proj_weight", "k_proj_weight", "v_proj_weight")):
            torch.nn.init.xavier_uniform_(parameter)
    return Spec(_text_classes()["DecoderOutput"](model),
                lambda: [torch.randint(1, 50, (2, 7), dtype=torch.int64),
                         torch.randint(1, 50, (2, 5), dtype=torch.int64)],
                input_generators=["torch.randint(0, 50, shape, "
                                  "dtype=torch.int64)"] * 2)


def _text_classes():
    import torch.nn as nn

    class DecoderOutput(nn.Module):
        """T5Model returns a dict; this is its decoder's output."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, encoder_tokens, decoder_tokens):
            return self.model(encoder_tokens, decoder_tokens)["decoder_output"]

    _pin(DecoderOutput)
    return {"DecoderOutput": DecoderOutput}


@zoo("roberta_padded_train", "text",
     "the same RobertaModel traced in train mode: dropout, and the padding "
     "mask as attention's key_padding_mask; input int64 tokens 3x7")
def _roberta_padded_train():
    return _roberta(training=True)


# --------------------------------------------------------------------------
# Speech (torchaudio 0.13, python3-torchaudio)
# --------------------------------------------------------------------------

@zoo("wav2letter", "speech",
     "torchaudio.models.Wav2Letter(num_classes=10, input_type='waveform', "
     "num_features=1): a convolutional speech encoder on the raw waveform; "
     "input 1x1x4000")
def _wav2letter():
    import torchaudio
    return Spec(torchaudio.models.Wav2Letter(num_classes=10,
                                             input_type="waveform",
                                             num_features=1),
                _randn(1, 1, 4000))


@zoo("conformer", "speech",
     "torchaudio.models.Conformer(input_dim=16, num_heads=2, ffn_dim=32, "
     "num_layers=2, depthwise_conv_kernel_size=3) on frames with lengths "
     "10,7 (a buffer); input 2x10x16")
def _conformer():
    import torch
    import torchaudio
    return Spec(_speech_classes()["WithLengths"](
        torchaudio.models.Conformer(input_dim=16, num_heads=2, ffn_dim=32,
                                    num_layers=2,
                                    depthwise_conv_kernel_size=3),
        torch.tensor([10, 7])), _randn(2, 10, 16))


# Spectral front ends and separation: complex tensors (stft, istft,
# view_as_real, view_as_complex).

@zoo("spectrogram_complex", "speech",
     "torchaudio.transforms.Spectrogram(n_fft=16, hop_length=4, power=None): "
     "a complex spectrogram (complex64 output); input 1x64")
def _spectrogram_complex():
    import torchaudio
    return Spec(torchaudio.transforms.Spectrogram(n_fft=16, hop_length=4,
                                                  power=None),
                _randn(1, 64))


@zoo("spectrogram_power", "speech",
     "torchaudio.transforms.Spectrogram(n_fft=16, hop_length=4, power=2): "
     "a power spectrogram (abs of a complex stft); input 1x64")
def _spectrogram_power():
    import torchaudio
    return Spec(torchaudio.transforms.Spectrogram(n_fft=16, hop_length=4,
                                                  power=2.0),
                _randn(1, 64))


@zoo("inverse_spectrogram", "speech",
     "torchaudio.transforms.InverseSpectrogram(n_fft=16, hop_length=4) fed a "
     "complex spectrogram; input 1x9x17 complex64")
def _inverse_spectrogram():
    import torch
    import torchaudio
    return Spec(torchaudio.transforms.InverseSpectrogram(n_fft=16,
                                                         hop_length=4),
                lambda: [torch.randn(1, 9, 17, dtype=torch.complex64)],
                input_generators=["torch.randn(shape, dtype=torch.complex64)"])


@zoo("mel_spectrogram", "speech",
     "torchaudio.transforms.MelSpectrogram(sample_rate=8000, n_fft=32, "
     "hop_length=8, n_mels=8); input 1x128")
def _mel_spectrogram():
    import torchaudio
    return Spec(torchaudio.transforms.MelSpectrogram(
        sample_rate=8000, n_fft=32, hop_length=8, n_mels=8), _randn(1, 128))


@zoo("mfcc", "speech",
     "torchaudio.transforms.MFCC(sample_rate=8000, n_mfcc=6, melkwargs: "
     "n_fft=32, hop_length=8, n_mels=8); input 1x128")
def _mfcc():
    import torchaudio
    return Spec(torchaudio.transforms.MFCC(
        sample_rate=8000, n_mfcc=6,
        melkwargs={"n_fft": 32, "hop_length": 8, "n_mels": 8}), _randn(1, 128))


@zoo("lfcc", "speech",
     "torchaudio.transforms.LFCC(sample_rate=8000, n_filter=8, n_lfcc=6, "
     "speckwargs: n_fft=32, hop_length=8); input 1x128")
def _lfcc():
    import torchaudio
    return Spec(torchaudio.transforms.LFCC(
        sample_rate=8000, n_filter=8, n_lfcc=6,
        speckwargs={"n_fft": 32, "hop_length": 8}), _randn(1, 128))


@zoo("spectral_centroid", "speech",
     "torchaudio.transforms.SpectralCentroid(sample_rate=8000, n_fft=16, "
     "hop_length=4); input 1x64")
def _spectral_centroid():
    import torchaudio
    return Spec(torchaudio.transforms.SpectralCentroid(
        sample_rate=8000, n_fft=16, hop_length=4), _randn(1, 64))


@zoo("time_stretch", "speech",
     "torchaudio.transforms.TimeStretch(hop_length=4, n_freq=9, "
     "fixed_rate=1.3): a phase vocoder on a complex spectrogram (angle, "
     "polar); input 1x9x17 complex64")
def _time_stretch():
    import torch
    import torchaudio
    return Spec(torchaudio.transforms.TimeStretch(hop_length=4, n_freq=9,
                                                  fixed_rate=1.3),
                lambda: [torch.randn(1, 9, 17, dtype=torch.complex64)],
                input_generators=["torch.randn(shape, dtype=torch.complex64)"])


@zoo("psd", "speech",
     "torchaudio.transforms.PSD(): the power spectral density matrices of a "
     "2-channel complex spectrogram (einsum of complex tensors, conj); input "
     "1x2x9x17 complex64")
def _psd():
    import torch
    import torchaudio
    return Spec(torchaudio.transforms.PSD(),
                lambda: [torch.randn(1, 2, 9, 17, dtype=torch.complex64)],
                input_generators=["torch.randn(shape, dtype=torch.complex64)"])


@zoo("griffin_lim", "speech",
     "torchaudio.transforms.GriffinLim(n_fft=16, hop_length=4, n_iter=2, "
     "power=1, rand_init=False): phase recovery, stft and istft twice; input "
     "1x9x17 magnitudes (power 1, so that mav-run's normal draws, negative "
     "ones included, are valid)")
def _griffin_lim():
    import torchaudio
    return Spec(torchaudio.transforms.GriffinLim(n_fft=16, hop_length=4,
                                                 n_iter=2, power=1.0,
                                                 rand_init=False),
                _randn(1, 9, 17))


@zoo("hdemucs", "speech",
     "torchaudio.models.HDemucs(sources=[drums, bass], audio_channels=1, "
     "channels=4, nfft=64, depth=2, freq_emb=0): hybrid time and spectrogram "
     "source separation (stft, view_as_real, view_as_complex, istft); input "
     "1x1x256")
def _hdemucs():
    import torchaudio
    return Spec(torchaudio.models.HDemucs(sources=["drums", "bass"],
                                          audio_channels=1, channels=4,
                                          nfft=64, depth=2, freq_emb=0.0),
                _randn(1, 1, 256))


@zoo("complex_filter", "speech",
     "torchaudio.transforms.Spectrogram(n_fft=16, hop_length=4, power=None) "
     "times a complex64 parameter (9x1 gains), returned as view_as_real: "
     "complex weights in checkpoints; input 1x64")
def _complex_filter():
    import torch
    import torchaudio
    return Spec(_speech_classes()["ComplexFilter"](
        torchaudio.transforms.Spectrogram(n_fft=16, hop_length=4, power=None),
        torch.randn(9, 1, dtype=torch.complex64)), _randn(1, 64))

@zoo("wav2vec2", "speech",
     "torchaudio.models.wav2vec2_model(extractor_mode='group_norm', "
     "extractor_conv_layer_config=[(16,10,5),(16,3,2),(16,2,2)], "
     "encoder_embed_dim=32, encoder_pos_conv_kernel=16, "
     "encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4, "
     "encoder_ff_interm_features=64, aux_num_out=10): a speech encoder with "
     "a convolutional feature extractor and a positional convolution (its "
     "weight norm folded: TorchScript 1.13 cannot trace the hook), dropout "
     "0.1; input waveform 1x1600")
def _wav2vec2():
    import torch
    import torchaudio
    model = torchaudio.models.wav2vec2_model(
        extractor_mode="group_norm",
        extractor_conv_layer_config=[(16, 10, 5), (16, 3, 2), (16, 2, 2)],
        extractor_conv_bias=False, encoder_embed_dim=32,
        encoder_projection_dropout=0.1, encoder_pos_conv_kernel=16,
        encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4,
        encoder_attention_dropout=0.1, encoder_ff_interm_features=64,
        encoder_ff_interm_dropout=0.1, encoder_dropout=0.1,
        encoder_layer_norm_first=False, encoder_layer_drop=0.0,
        aux_num_out=10)
    # torch.jit.trace in 1.13 cannot trace a module with a WeightNorm hook
    # (it has no __name__): the positional convolution's weight is folded,
    # which computes the same.
    for module in model.modules():
        if any(type(hook).__name__ == "WeightNorm"
               for hook in module._forward_pre_hooks.values()):
            torch.nn.utils.remove_weight_norm(module)
    return Spec(_speech_classes()["FirstOutput"](model), _randn(1, 1600))


@zoo("emformer", "speech",
     "torchaudio.models.Emformer(input_dim=16, num_heads=2, ffn_dim=32, "
     "num_layers=2, segment_length=4, right_context_length=1): a streaming "
     "transformer over segments with memory, on frames with lengths 13,9 (a "
     "buffer); input 2x13x16")
def _emformer():
    import torch
    import torchaudio
    return Spec(_speech_classes()["WithLengths"](
        torchaudio.models.Emformer(input_dim=16, num_heads=2, ffn_dim=32,
                                   num_layers=2, segment_length=4,
                                   right_context_length=1),
        torch.tensor([13, 9])), _randn(2, 13, 16))


@zoo("conv_tasnet", "speech",
     "torchaudio.models.ConvTasNet(num_sources=2, enc_kernel_size=16, "
     "enc_num_feats=32, msk_kernel_size=3, msk_num_feats=16, "
     "msk_num_hidden_feats=32, msk_num_layers=2, msk_num_stacks=1): source "
     "separation in the time domain; input 1x1x800, output 1x2x800")
def _conv_tasnet():
    import torchaudio
    return Spec(torchaudio.models.ConvTasNet(
        num_sources=2, enc_kernel_size=16, enc_num_feats=32, msk_kernel_size=3,
        msk_num_feats=16, msk_num_hidden_feats=32, msk_num_layers=2,
        msk_num_stacks=1), _randn(1, 1, 800))


def _speech_classes():
    import torch
    import torch.nn as nn

    class WithLengths(nn.Module):
        """A model called as model(frames, lengths), with the lengths a
        buffer, so that random inputs keep them valid."""

        def __init__(self, model, lengths):
            super().__init__()
            self.model = model
            self.register_buffer("lengths", lengths)

        def forward(self, frames):
            output, _ = self.model(frames, self.lengths)
            return output

    class ComplexFilter(nn.Module):
        """A complex spectrogram scaled by complex gains, one per bin."""

        def __init__(self, spectrogram, gains):
            super().__init__()
            self.spectrogram = spectrogram
            self.gains = nn.Parameter(gains)

        def forward(self, waveform):
            return torch.view_as_real(self.spectrogram(waveform) * self.gains)

    class FirstOutput(nn.Module):
        """A model returning (output, lengths) without lengths given: its
        output."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, waveform):
            output, _ = self.model(waveform)
            return output

    _pin(WithLengths, ComplexFilter, FirstOutput)
    return {"WithLengths": WithLengths, "ComplexFilter": ComplexFilter,
            "FirstOutput": FirstOutput}


@zoo("lstm_packed", "torch.nn",
     "LSTM(8,16,num_layers=2,batch_first=True) over pack_padded_sequence(lengths "
     "6,4,2, enforce_sorted=False), pad_packed_sequence, Linear(16,4); input 3x6x8")
def _lstm_packed():
    import torch.nn as nn
    return _packed(nn.LSTM(8, 16, num_layers=2, batch_first=True))


@zoo("gru_packed", "torch.nn",
     "GRU(8,16,batch_first=True,bidirectional=True) over pack_padded_sequence, "
     "Linear(32,4); input 3x6x8")
def _gru_packed():
    import torch.nn as nn
    return _packed(nn.GRU(8, 16, batch_first=True, bidirectional=True))


@zoo("rnn_packed", "torch.nn",
     "RNN(8,16,nonlinearity=relu,batch_first=True) over pack_padded_sequence, "
     "Linear(16,4); input 3x6x8")
def _rnn_packed():
    import torch.nn as nn
    return _packed(nn.RNN(8, 16, nonlinearity="relu", batch_first=True))


@zoo("lstm", "torch.nn", "LSTM(8,16,num_layers=2,dropout=0.2) without packing, "
     "eval mode; input 6x3x8 (seq, batch, feature)")
def _lstm():
    import torch.nn as nn
    return Spec(nn.LSTM(8, 16, num_layers=2, dropout=0.2), _randn(6, 3, 8))


def _seq2seq(training):
    import torch
    return Spec(_nn_classes()["Seq2SeqTransformer"](),
                lambda: [torch.randn(5, 2, 16), torch.randn(4, 2, 16)], training=training)


@zoo("transformer_train", "torch.nn",
     "nn.Transformer(d_model=16, nhead=2, 1 encoder and 1 decoder layer, "
     "dim_feedforward=32) with a causal tgt_mask, traced in train mode; inputs "
     "src 5x2x16, tgt 4x2x16")
def _transformer_train():
    return _seq2seq(True)


@zoo("transformer_eval", "torch.nn",
     "the nn.Transformer of transformer_train, traced in eval mode")
def _transformer_eval():
    return _seq2seq(False)


def _decoder(training):
    import torch
    return Spec(_nn_classes()["Decoder"](),
                lambda: [torch.randn(4, 2, 16), torch.randn(5, 2, 16)], training=training)


@zoo("transformer_decoder_train", "torch.nn",
     "nn.TransformerDecoder(TransformerDecoderLayer(16, 2, 32, norm_first=True, "
     "activation=gelu), 2 layers), traced in train mode; inputs tgt 4x2x16, "
     "memory 5x2x16")
def _transformer_decoder_train():
    return _decoder(True)


@zoo("transformer_decoder_eval", "torch.nn",
     "the nn.TransformerDecoder of transformer_decoder_train, traced in eval mode")
def _transformer_decoder_eval():
    return _decoder(False)


@zoo("transformer_encoder_normfirst_train", "torch.nn",
     "nn.TransformerEncoder(TransformerEncoderLayer(16, 2, 32, norm_first=True, "
     "batch_first=True, activation=gelu), 2 layers, norm=LayerNorm(16)), traced "
     "in train mode; input 2x5x16")
def _encoder_normfirst_train():
    import torch.nn as nn
    layer = nn.TransformerEncoderLayer(16, 2, 32, norm_first=True, batch_first=True,
                                       activation="gelu")
    return Spec(nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(16)), _randn(2, 5, 16),
                training=True)


@zoo("multihead_attention_train", "torch.nn",
     "nn.MultiheadAttention(16, 2, dropout=0.1, kdim=8, vdim=12), returning the "
     "averaged attention weights, traced in train mode; inputs q 4x2x16, "
     "k 5x2x8, v 5x2x12")
def _mha_train():
    import torch
    return Spec(_nn_classes()["CrossAttention"](),
                lambda: [torch.randn(4, 2, 16), torch.randn(5, 2, 8), torch.randn(5, 2, 12)],
                training=True)


@zoo("multihead_attention_eval", "torch.nn",
     "the cross-attention of multihead_attention_train, traced in eval mode")
def _mha_eval():
    import torch
    return Spec(_nn_classes()["CrossAttention"](),
                lambda: [torch.randn(4, 2, 16), torch.randn(5, 2, 8), torch.randn(5, 2, 12)])


@zoo("custom_leaf", "torch.nn",
     "Linear(16,32) -> ScaledSoftsign(32) (a custom class with a Parameter, "
     "imported as a leaf with --leaf-module=ScaledSoftsign) -> Linear(32,4); input 2x16",
     import_args=["--leaf-module=ScaledSoftsign"])
def _custom_leaf():
    import torch
    m = _nn_classes()["CustomLeafNet"]()
    with torch.no_grad():
        m.act.alpha.copy_(torch.rand(32) + 0.5)
    return Spec(m, _randn(2, 16))


@zoo("sequential_root", "torch.nn",
     "nn.Sequential(Conv2d(3,8,3), ReLU, MaxPool2d(2), Flatten, Linear(392,10)) as "
     "the root: weight names `0.weight`, `4.bias`; input 1x3x16x16")
def _sequential_root():
    import torch.nn as nn
    return Spec(nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(8 * 7 * 7, 10)), _randn(1, 3, 16, 16))


@zoo("data_dependent", "torch.nn",
     "Linear(8,8), then y[y > 0] and nonzero(y > 0.5): output sizes depend on "
     "the values; input 4x8")
def _data_dependent():
    return Spec(_nn_classes()["DataDependent"](), _randn(4, 8))


@zoo("embedding_bag", "torch.nn",
     "Embedding(50,8,padding_idx=0) summed, EmbeddingBag(50,8,mode=mean), "
     "concatenated, Linear(16,4); input int64 tokens 2x7 in [0,50)")
def _embedding_bag():
    import torch
    return Spec(_nn_classes()["EmbeddingBags"](),
                lambda: [torch.randint(0, 50, (2, 7), dtype=torch.int64)],
                input_generators=["torch.randint(0, 50, shape, dtype=torch.int64)"])


@zoo("resampling", "torch.nn",
     "Conv2d -> PixelShuffle(2), Upsample(x2, bilinear), PixelUnshuffle(2), "
     "ConvTranspose2d(3,4,2,stride 2) -> Upsample(size 20, nearest); input 1x3x8x8")
def _resampling():
    return Spec(_nn_classes()["Resampling"](), _randn(1, 3, 8, 8))


@zoo("bilinear", "torch.nn", "nn.Bilinear(8,6,4) of two inputs 3x8 and 3x6")
def _bilinear():
    import torch
    return Spec(_nn_classes()["BilinearNet"](),
                lambda: [torch.randn(3, 8), torch.randn(3, 6)])


@zoo("activations", "torch.nn",
     "Conv2d -> LocalResponseNorm(3) -> Mish -> GroupNorm(2,8) -> InstanceNorm2d"
     "(affine) -> PReLU(8) -> AdaptiveMaxPool2d(2) -> Softmin, and F.hardswish; "
     "input 1x4x8x8")
def _activations():
    return Spec(_nn_classes()["Activations"](), _randn(1, 4, 8, 8))


@zoo("tensor_ops", "torch.nn",
     "einsum, cumsum, argsort, gather, scatter, topk, sort, flip, norm and "
     "linalg.norm on a 4x8 input and an 8x6 Parameter")
def _tensor_ops():
    return Spec(_nn_classes()["TensorOps"](), _randn(4, 8))


# --------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Generate the zoo's TorchScript models and PyTorch reference values.")
    parser.add_argument("--out", metavar="DIR", help="output directory (created if missing)")
    parser.add_argument("--only", metavar="NAME", nargs="+", action="append", default=[],
                        help="generate only these models (repeatable)")
    parser.add_argument("--list", action="store_true",
                        help="print the models (name, family) and exit")
    parser.add_argument("--force", action="store_true",
                        help="regenerate even if the files are up to date")
    args = parser.parse_args(argv)
    if args.list:
        for name, entry in ZOO.items():
            print(name, entry.family)
        return 0
    if not args.out:
        parser.error("--out DIR is required")
    names = [n for group in args.only for n in group] or list(ZOO)
    unknown = [n for n in names if n not in ZOO]
    if unknown:
        parser.error("unknown model(s): %s (see --list)" % ", ".join(unknown))
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    registry = {n: (e.builder, e.description) for n, e in ZOO.items()}
    return gen.generate_stale(list(collections.OrderedDict.fromkeys(names)), out_dir,
                              args.force, script_mtime(), registry, prog="zoo_models.py")


def script_mtime():
    """Models are stale when older than this script or generate.py."""
    return max(os.path.getmtime(os.path.realpath(__file__)),
               os.path.getmtime(os.path.realpath(gen.__file__)))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Export dispatchlab's model zoo to ONNX (a dev-time tool, not part of the build).

Needs Debian 12's python3-torch (1.13), python3-torchvision (0.14), python3-onnx
(1.12) and python3-numpy; run it with /usr/bin/python3. Nothing is downloaded:
torchvision models are built with random initialisation and the BERT-like
encoders, MobileNetV1/PoseNet and the small models are defined below.

Every model is exported with static shapes (batch 1) at ONNX opset 14 (the
default opset of torch 1.13). The export is then cleaned up: initializers that
torch shared through Identity nodes get one copy per use, and the shape
arithmetic torch leaves in static graphs is folded. Then, except for the models marked keep_weights,
the weights are stripped: every floating-point initializer larger than
STRIP_ABOVE_BYTES keeps its name, dims and data type but loses its data, so the
committed files hold graphs only. Integer initializers (shapes, indices,
position ids) and tiny float ones are kept because they carry structure, not
weights. The two models that keep their (seeded random) weights also get a
fixed input and torch's output saved as .npy beside them.

onnx.checker refuses a tensor without data ("should contain one and only one
value field"), so the checker (full_check: also strict shape inference) runs on
each model before its weights are stripped.

Usage: /usr/bin/python3 experiments/models/export_zoo.py [--out DIR] [--only NAME ...]
The zoo index is written to DIR/zoo.json (DIR defaults to this script's folder).
"""

import argparse
import collections
import hashlib
import io
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Tuple

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from onnx import TensorProto, numpy_helper

OPSET = 14

# Same as dispatchlab's --inline-constant-bytes default (IREE's
# --iree-flow-inline-constants-max-byte-length): constants up to this size are
# the ones whose values may matter to dispatch formation, so they are kept.
STRIP_ABOVE_BYTES = 256

FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE,
               TensorProto.BFLOAT16}

# Every data-holding field of a TensorProto (fp16/bf16 live in int32_data).
DATA_FIELDS = ("raw_data", "float_data", "double_data", "int32_data",
               "int64_data", "uint64_data", "string_data")


# ---------------------------------------------------------------------------
# MobileNetV1 and PoseNet (not in torchvision).
# ---------------------------------------------------------------------------

def conv_bn_relu6(cin: int, cout: int, kernel: int, stride: int,
                  groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups,
                  bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU6(inplace=True))


class MobileNetV1Features(nn.Module):
    """MobileNetV1 (Howard et al. 2017), width 1.0: a 3x3 stride-2 conv then 13
    depthwise-separable blocks (3x3 depthwise + 1x1 pointwise, BN, ReLU6)."""

    # (output channels, stride) of each depthwise-separable block.
    BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2),
              (512, 1), (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2),
              (1024, 1)]

    def __init__(self):
        super().__init__()
        layers = [conv_bn_relu6(3, 32, 3, 2)]
        cin = 32
        for cout, stride in self.BLOCKS:
            layers.append(conv_bn_relu6(cin, cin, 3, stride, groups=cin))
            layers.append(conv_bn_relu6(cin, cout, 1, 1))
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.out_channels = cin

    def forward(self, x):
        return self.layers(x)


class MobileNetV1(nn.Module):
    """Classifier as in TF-slim's mobilenet_v1 (1001 classes, 1x1 conv logits)."""

    def __init__(self, num_classes: int = 1001):
        super().__init__()
        self.features = MobileNetV1Features()
        self.logits = nn.Conv2d(self.features.out_channels, num_classes, 1)

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.features(x), 1)
        return torch.softmax(torch.flatten(self.logits(x), 1), dim=1)


class PoseNet(nn.Module):
    """PoseNet-like: MobileNetV1 (output stride 32) with the four 1x1-conv heads
    of the multi-person TFLite PoseNet: heatmaps (17 keypoints), offsets (2x17),
    forward and backward displacements (2x16 edges each)."""

    def __init__(self):
        super().__init__()
        self.backbone = MobileNetV1Features()
        c = self.backbone.out_channels
        self.heatmap = nn.Conv2d(c, 17, 1)
        self.offset = nn.Conv2d(c, 34, 1)
        self.displacement_fwd = nn.Conv2d(c, 32, 1)
        self.displacement_bwd = nn.Conv2d(c, 32, 1)

    def forward(self, x):
        f = self.backbone(x)
        return (self.heatmap(f), self.offset(f), self.displacement_fwd(f),
                self.displacement_bwd(f))


# ---------------------------------------------------------------------------
# DeepLabV3.
# ---------------------------------------------------------------------------

class DeepLabV3MobileNetV3(nn.Module):
    """torchvision's deeplabv3_mobilenet_v3_large, returning the 'out' tensor."""

    def __init__(self):
        super().__init__()
        self.net = torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(
            weights=None, weights_backbone=None, num_classes=21, aux_loss=False)

    def forward(self, x):
        return self.net(x)["out"]


class DeepLabV3MobileNetV2(nn.Module):
    """DeepLabV3 as in TF's mobile DeepLab (deeplabv3_mnv2): MobileNetV2 with
    depth multiplier 0.5 (torchvision's block definitions), output stride 16
    (the last stride-2 block runs at stride 1, later depthwise convs dilated by
    2), no final 1280-channel conv, and the mobile ASPP: a 1x1 conv branch and
    an image-pooling branch, concatenated, projected to 256 channels, 1x1
    logits and a bilinear upsample to the input size."""

    def __init__(self, num_classes: int = 21):
        super().__init__()
        features = torchvision.models.mobilenet_v2(weights=None,
                                                   width_mult=0.5).features
        blocks = list(features.children())[:-1]  # drop the 1280-channel conv
        depthwise = [[m for m in block.modules()
                      if isinstance(m, nn.Conv2d) and m.groups > 1][0]
                     for block in blocks[1:]]
        last_strided = max(i for i, conv in enumerate(depthwise)
                           if conv.stride == (2, 2))
        depthwise[last_strided].stride = (1, 1)  # output stride 32 -> 16
        for conv in depthwise[last_strided + 1:]:
            conv.dilation, conv.padding = (2, 2), (2, 2)
        self.backbone = nn.Sequential(*blocks)
        c = blocks[-1].out_channels
        self.aspp_conv = nn.Sequential(nn.Conv2d(c, 256, 1, bias=False),
                                       nn.BatchNorm2d(256), nn.ReLU())
        self.aspp_pool = nn.Sequential(nn.Conv2d(c, 256, 1, bias=False),
                                       nn.BatchNorm2d(256), nn.ReLU())
        self.project = nn.Sequential(nn.Conv2d(512, 256, 1, bias=False),
                                     nn.BatchNorm2d(256), nn.ReLU())
        self.logits = nn.Conv2d(256, num_classes, 1)

    def forward(self, x):
        f = self.backbone(x)
        pooled = self.aspp_pool(F.adaptive_avg_pool2d(f, 1))
        pooled = F.interpolate(pooled, size=f.shape[-2:], mode="bilinear",
                               align_corners=False)
        y = self.project(torch.cat([self.aspp_conv(f), pooled], dim=1))
        return F.interpolate(self.logits(y), size=x.shape[-2:],
                             mode="bilinear", align_corners=False)


# ---------------------------------------------------------------------------
# BERT family (written from the architecture, without `transformers`).
# ---------------------------------------------------------------------------

@dataclass
class BertConfig:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int = 30522
    max_positions: int = 512
    type_vocab: int = 2


def extended_attention_mask(attention_mask: torch.Tensor) -> torch.Tensor:
    """[1, S] 0/1 mask -> additive [1, 1, 1, S] mask, as HF BERT does."""
    mask = attention_mask[:, None, None, :].to(torch.float32)
    return (1.0 - mask) * -10000.0


def attention(q, k, v, mask, heads: int, seq: int, head_dim: int):
    """Multi-head scaled dot-product attention on [1, S, heads*head_dim]."""
    def split(t):
        return t.reshape(1, seq, heads, head_dim).permute(0, 2, 1, 3)

    scores = torch.matmul(split(q), split(k).transpose(-1, -2))
    scores = scores / math.sqrt(head_dim) + mask
    ctx = torch.matmul(torch.softmax(scores, dim=-1), split(v))
    return ctx.permute(0, 2, 1, 3).reshape(1, seq, heads * head_dim)


class BertLayer(nn.Module):
    """Post-LN transformer layer of BERT: self-attention, add & LayerNorm,
    GELU feed-forward, add & LayerNorm."""

    def __init__(self, cfg: BertConfig, seq: int):
        super().__init__()
        self.cfg, self.seq = cfg, seq
        h = cfg.hidden
        self.query, self.key, self.value = (nn.Linear(h, h) for _ in range(3))
        self.attn_out = nn.Linear(h, h)
        self.attn_norm = nn.LayerNorm(h, eps=1e-12)
        self.intermediate = nn.Linear(h, cfg.ffn)
        self.output = nn.Linear(cfg.ffn, h)
        self.out_norm = nn.LayerNorm(h, eps=1e-12)

    def forward(self, x, mask):
        cfg = self.cfg
        ctx = attention(self.query(x), self.key(x), self.value(x), mask,
                        cfg.heads, self.seq, cfg.hidden // cfg.heads)
        x = self.attn_norm(self.attn_out(ctx) + x)
        y = self.output(F.gelu(self.intermediate(x)))
        return self.out_norm(y + x)


class Bert(nn.Module):
    """BERT encoder with embeddings (word + position + token type, LayerNorm)
    and either the masked-LM head (BertForMaskedLM: dense, GELU, LayerNorm,
    decoder tied to the word embeddings) or the pooler (BertModel: last hidden
    state and tanh-pooled first token)."""

    def __init__(self, cfg: BertConfig, seq: int, head: str):
        super().__init__()
        self.seq, self.head = seq, head
        h = cfg.hidden
        self.word = nn.Embedding(cfg.vocab, h)
        self.position = nn.Embedding(cfg.max_positions, h)
        self.token_type = nn.Embedding(cfg.type_vocab, h)
        self.emb_norm = nn.LayerNorm(h, eps=1e-12)
        self.register_buffer("position_ids", torch.arange(seq)[None, :])
        self.layers = nn.ModuleList(BertLayer(cfg, seq)
                                    for _ in range(cfg.layers))
        if head == "mlm":
            self.transform = nn.Linear(h, h)
            self.transform_norm = nn.LayerNorm(h, eps=1e-12)
            self.decoder = nn.Linear(h, cfg.vocab)
            self.decoder.weight = self.word.weight  # tied, as in BERT
        else:
            self.pooler = nn.Linear(h, h)

    def forward(self, input_ids, attention_mask, token_type_ids):
        x = (self.word(input_ids) + self.position(self.position_ids)
             + self.token_type(token_type_ids))
        x = self.emb_norm(x)
        mask = extended_attention_mask(attention_mask)
        for layer in self.layers:
            x = layer(x, mask)
        if self.head == "mlm":
            x = self.transform_norm(F.gelu(self.transform(x)))
            return self.decoder(x)
        return x, torch.tanh(self.pooler(x[:, 0]))


class NoNorm(nn.Module):
    """MobileBERT's replacement for LayerNorm: an elementwise x * w + b."""

    def __init__(self, size: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.bias = nn.Parameter(torch.zeros(size))

    def forward(self, x):
        return x * self.weight + self.bias


class LinearNoNorm(nn.Module):
    """Linear, optional residual add, NoNorm (MobileBERT's recurring unit)."""

    def __init__(self, cin: int, cout: int):
        super().__init__()
        self.dense = nn.Linear(cin, cout)
        self.norm = NoNorm(cout)

    def forward(self, x, residual=None):
        y = self.dense(x)
        return self.norm(y if residual is None else y + residual)


class MobileBertLayer(nn.Module):
    """One MobileBERT layer (google/mobilebert-uncased configuration: hidden
    512, bottleneck 128, key/query-shared bottleneck, 4 heads, 4 stacked
    ReLU feed-forward networks of width 512, NoNorm)."""

    HIDDEN, BOTTLENECK, HEADS, FFN, NUM_FFN = 512, 128, 4, 512, 4

    def __init__(self, seq: int):
        super().__init__()
        self.seq = seq
        h, b = self.HIDDEN, self.BOTTLENECK
        self.bottleneck_input = LinearNoNorm(h, b)      # layer input, 512->128
        self.bottleneck_attention = LinearNoNorm(h, b)  # shared query/key input
        self.query = nn.Linear(b, b)
        self.key = nn.Linear(b, b)
        self.value = nn.Linear(h, b)  # values come from the 512-wide input
        self.attn_out = LinearNoNorm(b, b)
        # NUM_FFN - 1 extra feed-forward networks, then the final one whose
        # output goes back up through the output bottleneck.
        self.ffn_in = nn.ModuleList(nn.Linear(b, self.FFN)
                                    for _ in range(self.NUM_FFN))
        self.ffn_out = nn.ModuleList(LinearNoNorm(self.FFN, b)
                                     for _ in range(self.NUM_FFN))
        self.output_bottleneck = LinearNoNorm(b, h)

    def forward(self, x, mask):
        layer_input = self.bottleneck_input(x)
        shared = self.bottleneck_attention(x)
        ctx = attention(self.query(shared), self.key(shared), self.value(x),
                        mask, self.HEADS, self.seq, self.BOTTLENECK // self.HEADS)
        y = self.attn_out(ctx, layer_input)
        for ffn_in, ffn_out in zip(self.ffn_in, self.ffn_out):
            y = ffn_out(F.relu(ffn_in(y)), y)
        return self.output_bottleneck(y, x)


class MobileBertForQuestionAnswering(nn.Module):
    """MobileBERT with trigram input embeddings (128-wide word embeddings of
    tokens i+1, i, i-1 concatenated and projected to 512), 24 layers and the
    SQuAD span head (start and end logits)."""

    LAYERS, EMBEDDING, HIDDEN, VOCAB = 24, 128, 512, 30522

    def __init__(self, seq: int):
        super().__init__()
        self.word = nn.Embedding(self.VOCAB, self.EMBEDDING)
        self.embedding_transformation = nn.Linear(3 * self.EMBEDDING,
                                                  self.HIDDEN)
        self.position = nn.Embedding(512, self.HIDDEN)
        self.token_type = nn.Embedding(2, self.HIDDEN)
        self.emb_norm = NoNorm(self.HIDDEN)
        self.register_buffer("position_ids", torch.arange(seq)[None, :])
        self.layers = nn.ModuleList(MobileBertLayer(seq)
                                    for _ in range(self.LAYERS))
        self.qa_outputs = nn.Linear(self.HIDDEN, 2)

    def forward(self, input_ids, attention_mask, token_type_ids):
        e = self.word(input_ids)
        trigram = torch.cat([F.pad(e[:, 1:], (0, 0, 0, 1)), e,
                             F.pad(e[:, :-1], (0, 0, 1, 0))], dim=2)
        x = (self.embedding_transformation(trigram)
             + self.position(self.position_ids)
             + self.token_type(token_type_ids))
        x = self.emb_norm(x)
        mask = extended_attention_mask(attention_mask)
        for layer in self.layers:
            x = layer(x, mask)
        start, end = self.qa_outputs(x).split(1, dim=-1)
        return start.squeeze(-1), end.squeeze(-1)


# ---------------------------------------------------------------------------
# Small models.
# ---------------------------------------------------------------------------

class MnistCnn(nn.Module):
    """Two conv + ReLU + 2x2 max-pool stages, two dense layers, softmax."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 7 * 7, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return torch.softmax(self.fc2(x), dim=1)


class MnistMlp(nn.Module):
    """The architecture of IREE's end-to-end MNIST test model (the `mnist` row
    of seed 003's tables; tests/e2e/models/mnist_fake_weights.mlir, removed
    from IREE in fd9cd2fc91): a 28x28x1 image flattened, dense 784->128 with
    ReLU, dense 128->10, and the softmax spelled out as that model has it
    (reduce-max, subtract, exp, reduce-sum, divide)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        logits = self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))
        shifted = torch.exp(logits - logits.amax(dim=1, keepdim=True))
        return shifted / shifted.sum(dim=1, keepdim=True)


class Mlp(nn.Module):
    """Fully connected 784-128-64-10 with ReLU and a softmax."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.fc2(F.relu(self.fc1(x))))
        return torch.softmax(self.fc3(x), dim=1)


class FullyConnected(nn.Module):
    """The architecture of IREE's end-to-end `fullyconnected` test model (the
    `fullyconnected` row of seed 003's tables; tests/e2e/models/
    fullyconnected.mlir): a 1x5x3x1 input reordered to 5x3, three dense
    layers 3->5->5->5 each with ReLU, and after each one the positions where
    the 1x5 second input is positive zeroed through a select (the graph
    reshapes each 5x5 result to 5x1x5 for it)."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(
            [nn.Linear(3, 5), nn.Linear(5, 5), nn.Linear(5, 5)])

    def forward(self, x, mask_source):
        mask = (mask_source.reshape(5, 1, 1) * 1.0 > 0).expand(5, 1, 5)
        h = x.reshape(1, 5, 3).transpose(0, 1).reshape(5, 3)
        for layer in self.layers:
            h = torch.where(mask, torch.zeros(()), F.relu(layer(h)).reshape(5, 1, 5))
            h = h.reshape(5, 5)
        return h.reshape(5, 1, 5)


LSTM_STEPS, LSTM_INPUT, LSTM_HIDDEN = 28, 28, 64


class UnidirectionalLstm(nn.Module):
    """One-layer unidirectional LSTM over the whole sequence (ONNX LSTM op)."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(LSTM_INPUT, LSTM_HIDDEN, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0]


class UnrolledLstm(nn.Module):
    """The same LSTM as UnidirectionalLstm (same parameters, same outputs)
    written as its cell equations unrolled over the time steps, so the graph
    has only MatMul/Add/Sigmoid/Tanh/Mul/Split-style ops."""

    def __init__(self, lstm: nn.LSTM):
        super().__init__()
        self.w_ih = nn.Parameter(lstm.weight_ih_l0.detach().t().contiguous())
        self.w_hh = nn.Parameter(lstm.weight_hh_l0.detach().t().contiguous())
        self.bias = nn.Parameter((lstm.bias_ih_l0 + lstm.bias_hh_l0).detach())

    def forward(self, x):
        h = torch.zeros(1, LSTM_HIDDEN)
        c = torch.zeros(1, LSTM_HIDDEN)
        outputs = []
        for t in range(LSTM_STEPS):
            gates = x[:, t] @ self.w_ih + h @ self.w_hh + self.bias
            # PyTorch's gate order: input, forget, cell, output.
            i, f, g, o = (gates[:, k * LSTM_HIDDEN:(k + 1) * LSTM_HIDDEN]
                          for k in range(4))
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
            outputs.append(h)
        return torch.stack(outputs, dim=1)


def build_unrolled_lstm() -> nn.Module:
    """Unrolled LSTM built from UnidirectionalLstm's parameters; checks that
    both compute the same thing before the unrolled one is exported."""
    torch.manual_seed(0)
    reference = UnidirectionalLstm().eval()
    unrolled = UnrolledLstm(reference.lstm).eval()
    x = torch.randn(1, LSTM_STEPS, LSTM_INPUT)
    with torch.no_grad():
        torch.testing.assert_close(unrolled(x), reference(x))
    return unrolled


# ---------------------------------------------------------------------------
# The zoo.
# ---------------------------------------------------------------------------

@dataclass
class Input:
    name: str
    shape: Tuple[int, ...]
    dtype: str  # "float32" or "int64"


@dataclass
class ZooModel:
    name: str
    build: Callable[[], nn.Module]
    inputs: List[Input]
    outputs: List[str]
    source: str
    # Published table -> row name (see experiments/published/README.md).
    published: Dict[str, str]
    notes: str = ""
    keep_weights: bool = False


# Keys of ZooModel.published -> the CSV files of experiments/published that
# use those row names.
PUBLISHED_TABLES = {
    "pr8723": ["pr8723_base_f0f64ca23.csv", "pr8723_modified_v1.csv",
               "pr8723_modified_v2_no_redundant.csv"],
    "aggressive_cpu": ["aggressive_fusion_cpu.csv"],
    "aggressive_stream": ["aggressive_fusion_stream_dispatches.csv"],
}


def image(h: int, w: int, channels: int = 3) -> List[Input]:
    return [Input("input", (1, channels, h, w), "float32")]


def tokens(seq: int) -> List[Input]:
    return [Input(n, (1, seq), "int64")
            for n in ("input_ids", "attention_mask", "token_type_ids")]


def tv(name: str, **kwargs) -> Callable[[], nn.Module]:
    """A torchvision classification model with random initialisation."""
    return lambda: getattr(torchvision.models, name)(weights=None, **kwargs)


class Probabilities(nn.Module):
    """A classifier's logits through a softmax, as the Keras and TFLite image
    classifiers of the published tables end (`classifier_activation`)."""

    def __init__(self, classifier: nn.Module):
        super().__init__()
        self.classifier = classifier

    def forward(self, x):
        return torch.softmax(self.classifier(x), dim=1)


def tv_probabilities(name: str) -> Callable[[], nn.Module]:
    """A torchvision classifier with random initialisation and a softmax."""
    return lambda: Probabilities(tv(name)())


BERT_BASE = BertConfig(hidden=768, layers=12, heads=12, ffn=3072)
MINILM_L12_H384 = BertConfig(hidden=384, layers=12, heads=12, ffn=1536)
BERT_SEQ, MOBILEBERT_SEQ = 128, 384

ZOO = [
    ZooModel("resnet50", tv_probabilities("resnet50"), image(224, 224),
             ["probabilities"],
             "torchvision.models.resnet50 (0.14), random init, softmax",
             {"pr8723": "resnet50", "aggressive_cpu": "resnet50",
              "aggressive_stream": "Resnet50TF"},
             "torchvision's ResNet50 is v1.5 (stride on the 3x3 conv); the "
             "published TF model is presumably Keras's v1 (stride on the "
             "first 1x1 conv). Both end in a softmax."),
    ZooModel("mobilenet_v2", tv_probabilities("mobilenet_v2"), image(224, 224),
             ["probabilities"],
             "torchvision.models.mobilenet_v2 (0.14), width 1.0, random init, "
             "softmax",
             {"pr8723": "mobilenetv2", "aggressive_cpu": "mobilenetv2",
              "aggressive_stream": "MobileNetV2_fp32"}),
    ZooModel("mobilenet_v3_small", tv_probabilities("mobilenet_v3_small"),
             image(224, 224), ["probabilities"],
             "torchvision.models.mobilenet_v3_small (0.14), random init, "
             "softmax",
             {"pr8723": "mobilenetv3",
              "aggressive_stream": "MobileNetV3Small_fp32"},
             "The pr8723 tables say only 'mobilenetv3'; its aggressive-fusion "
             "count (96) equals MobileNetV3Small_fp32's, so it is taken to be "
             "the Small variant."),
    ZooModel("mobilenet_v1", MobileNetV1, image(224, 224), ["probabilities"],
             "MobileNetV1 width 1.0 (export_zoo.py), TF-slim head: 1001 "
             "classes, 1x1 conv logits, softmax; random init",
             {"aggressive_stream": "MobileNetV1_fp32"}),
    ZooModel("efficientnet_b0", tv_probabilities("efficientnet_b0"),
             image(224, 224), ["probabilities"],
             "torchvision.models.efficientnet_b0 (0.14), random init, softmax",
             {"aggressive_cpu": "efficientnet",
              "aggressive_stream": "EfficientNet_int8"},
             "fp32 here; the published EfficientNet_int8 row is a quantized "
             "TFLite model (extra quantize/dequantize ops in IREE)."),
    ZooModel("efficientnet_v2_s", tv_probabilities("efficientnet_v2_s"),
             image(384, 384), ["probabilities"],
             "torchvision.models.efficientnet_v2_s (0.14), random init, "
             "softmax",
             {"aggressive_stream": "EfficientNetV2STF"}),
    ZooModel("deeplabv3_mnv3", DeepLabV3MobileNetV3, image(257, 257), ["out"],
             "torchvision.models.segmentation.deeplabv3_mobilenet_v3_large "
             "(0.14), 21 classes, no aux head, random init",
             {"pr8723": "deeplab", "aggressive_cpu": "deeplab",
              "aggressive_stream": "DeepLabV3_fp32"},
             "MobileNetV3-Large backbone with torchvision's full ASPP; the "
             "published model is closer to deeplabv3_mnv2_050."),
    ZooModel("deeplabv3_mnv2_050", DeepLabV3MobileNetV2, image(257, 257),
             ["out"],
             "DeepLabV3 mobile (export_zoo.py): torchvision mobilenet_v2 "
             "width 0.5 features at output stride 16, image-pooling + 1x1 "
             "ASPP, 21 classes, random init",
             {"pr8723": "deeplab", "aggressive_cpu": "deeplab",
              "aggressive_stream": "DeepLabV3_fp32"},
             "Matches the shapes in the seed's DeepLab IR excerpts (257x257 "
             "input, 65x65 = 4225-row matmuls of 48->12 and 72->12 channels, "
             "i.e. MobileNetV2 x0.5). The head follows TF DeepLab's MobileNet "
             "config from memory; not checked against the TFLite file."),
    ZooModel("posenet", PoseNet, image(257, 257),
             ["heatmap", "offsets", "displacement_fwd", "displacement_bwd"],
             "PoseNet-like (export_zoo.py): MobileNetV1 width 1.0, output "
             "stride 32, 1x1 conv heads 17/34/32/32; random init",
             {"pr8723": "posenet", "aggressive_cpu": "posenet",
              "aggressive_stream": "PoseNet_fp32"},
             "Head layout of the TFLite multi-person PoseNet "
             "(posenet_mobilenet_v1_100_257x257); no sigmoid on the heatmap."),
    ZooModel("bert_base_mlm",
             lambda: Bert(BERT_BASE, BERT_SEQ, head="mlm"), tokens(BERT_SEQ),
             ["logits"],
             "BERT-base BertForMaskedLM shape (export_zoo.py): 12 layers, "
             "hidden 768, 12 heads, FFN 3072, GELU (erf), vocab 30522, MLM "
             "head tied to the word embeddings; random init",
             {"aggressive_stream": "BertForMaskedLMTF"},
             "Written without transformers, following HF's BertForMaskedLM. "
             "Sequence length 128 chosen here (the published input length is "
             "not in the seed). The pr8723 'bert_encoder' rows are a different "
             "BERT encoder benchmark (585 dispatches), not this model."),
    ZooModel("minilm_l12_h384",
             lambda: Bert(MINILM_L12_H384, BERT_SEQ, head="pooler"),
             tokens(BERT_SEQ), ["last_hidden_state", "pooler_output"],
             "MiniLM-L12-H384 (BertModel shape, export_zoo.py): 12 layers, "
             "hidden 384, 12 heads, FFN 1536, GELU, vocab 30522, pooler; "
             "random init",
             {"aggressive_cpu": "minilm",
              "aggressive_stream": "MiniLML12H384Uncased"},
             "Written without transformers, following HF's BertModel."),
    ZooModel("mobilebert_squad",
             lambda: MobileBertForQuestionAnswering(MOBILEBERT_SEQ),
             tokens(MOBILEBERT_SEQ), ["start_logits", "end_logits"],
             "MobileBERT-like (export_zoo.py): 24 layers, hidden 512, "
             "bottleneck 128, shared key/query bottleneck, 4 heads, 4 stacked "
             "ReLU FFNs (512), NoNorm, trigram embeddings (128), SQuAD head; "
             "random init",
             {"pr8723": "mobilebert", "aggressive_cpu": "mobilebert-fp32",
              "aggressive_stream": "MobileBertSquad_fp32"},
             "Written without transformers from the google/mobilebert-uncased "
             "configuration and HF's MobileBertForQuestionAnswering; not "
             "checked op-for-op against it. Sequence length 384 (SQuAD)."),
    ZooModel("mnist_cnn", MnistCnn, image(28, 28, channels=1),
             ["probabilities"],
             "MNIST CNN (export_zoo.py): conv3x3(8)-relu-maxpool, "
             "conv3x3(16)-relu-maxpool, dense 784->64 relu, dense 64->10, "
             "softmax; seed-0 init, weights kept",
             {},
             "Not a stand-in for the published 'mnist' (mnist_mlp is); a "
             "small CNN for end-to-end numerics.", keep_weights=True),
    ZooModel("mnist_mlp", MnistMlp,
             [Input("input", (1, 28, 28, 1), "float32")], ["probabilities"],
             "IREE's e2e MNIST model's architecture (export_zoo.py): NHWC "
             "28x28x1 flattened, dense 784->128 ReLU, dense 128->10, softmax "
             "spelled out; seed-0 init",
             {"pr8723": "mnist", "aggressive_cpu": "mnist"},
             "The published 'mnist' is IREE's tests/e2e/models/"
             "mnist_fake_weights.mlir (in IREE until fd9cd2fc91, Nov 2023); "
             "same layers and the same unraised softmax."),
    ZooModel("mlp", Mlp, [Input("input", (1, 784), "float32")],
             ["probabilities"],
             "Fully connected MLP (export_zoo.py): 784-128-64-10, ReLU, "
             "softmax; seed-0 init, weights kept",
             {},
             "Not a stand-in for the published 'fullyconnected' (the "
             "fullyconnected model is).",
             keep_weights=True),
    ZooModel("fullyconnected", FullyConnected,
             [Input("input", (1, 5, 3, 1), "float32"),
              Input("mask_source", (1, 5), "float32")],
             ["output"],
             "IREE's e2e fullyconnected model's architecture (export_zoo.py): "
             "dense 3->5->5->5 with ReLU, each masked by a select on the "
             "second input; seed-0 init",
             {"pr8723": "fullyconnected", "aggressive_cpu": "fullyconnected"},
             "The published row is IREE's tests/e2e/models/fullyconnected.mlir; "
             "same layers and selects, written in torch."),
    ZooModel("unidirectional_lstm", UnidirectionalLstm,
             [Input("input", (1, LSTM_STEPS, LSTM_INPUT), "float32")],
             ["output"],
             "torch.nn.LSTM(28, 64, batch_first=True), one layer, over 28 "
             "steps (one ONNX LSTM op); random init",
             {"pr8723": "unidirectional_lstm",
              "aggressive_cpu": "unidirectional_lstm"},
             "Sizes chosen here; the published model's are not given."),
    ZooModel("unidirectional_lstm_unrolled", build_unrolled_lstm,
             [Input("input", (1, LSTM_STEPS, LSTM_INPUT), "float32")],
             ["output"],
             "unidirectional_lstm's cell equations unrolled over 28 steps "
             "(export_zoo.py), same parameters; random init",
             {"pr8723": "unidirectional_lstm",
              "aggressive_cpu": "unidirectional_lstm"},
             "For importers without the ONNX LSTM op; IREE compiles the "
             "published LSTM as a loop, so this one has ~28x its ops."),
]


# ---------------------------------------------------------------------------
# Export, strip, index.
# ---------------------------------------------------------------------------

def example_inputs(model: ZooModel) -> List[torch.Tensor]:
    """Deterministic inputs: uniform [0, 1) images/features, token ids from a
    seeded generator, an all-ones attention mask and zero token types."""
    rng = np.random.default_rng(0)
    tensors = []
    for spec in model.inputs:
        if spec.dtype == "float32":
            array = rng.random(spec.shape, dtype=np.float32)
        elif spec.name == "input_ids":
            array = rng.integers(1000, 30000, spec.shape, dtype=np.int64)
        elif spec.name == "attention_mask":
            array = np.ones(spec.shape, dtype=np.int64)
        else:
            array = np.zeros(spec.shape, dtype=np.int64)
        tensors.append(torch.from_numpy(array))
    return tensors


def export_onnx(net: nn.Module, model: ZooModel,
                inputs: List[torch.Tensor]) -> onnx.ModelProto:
    buffer = io.BytesIO()
    torch.onnx.export(net, tuple(inputs), buffer, opset_version=OPSET,
                      input_names=[i.name for i in model.inputs],
                      output_names=model.outputs, do_constant_folding=True,
                      training=torch.onnx.TrainingMode.EVAL)
    return onnx.load_from_string(buffer.getvalue())


def undo_initializer_dedup(proto: onnx.ModelProto) -> None:
    """torch.onnx shares identical initializers (with random init, e.g. every
    zero conv bias left by BatchNorm folding) through Identity nodes. Give each
    Identity output its own copy, as an export of trained weights would have."""
    graph = proto.graph
    initializers = {t.name: t for t in graph.initializer}
    for node in list(graph.node):
        if node.op_type == "Identity" and node.input[0] in initializers:
            copy = graph.initializer.add()
            copy.CopyFrom(initializers[node.input[0]])
            copy.name = node.output[0]
            graph.node.remove(node)


def _slice(data, starts, ends, axes=None, steps=None):
    axes = range(len(starts)) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * data.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps):
        index[axis] = slice(int(start), int(end), int(step))
    return data[tuple(index)]


def _unsqueeze(data, axes):
    rank = data.ndim + len(axes)
    for axis in sorted(int(a) % rank for a in axes):
        data = np.expand_dims(data, axis)
    return data


def _reshape(data, shape):
    shape = [data.shape[i] if d == 0 else int(d) for i, d in enumerate(shape)]
    return data.reshape(shape)


def _div(a, b):
    if np.issubdtype(a.dtype, np.integer):
        return np.trunc(a / b).astype(a.dtype)
    return a / b


# numpy evaluation of the ops torch.onnx emits for shape arithmetic:
# op type -> f(inputs, attributes) -> output.
FOLDERS = {
    "Gather": lambda i, a: np.take(i[0], i[1], axis=a.get("axis", 0)),
    "Slice": lambda i, a: _slice(*i),
    "Concat": lambda i, a: np.concatenate(i, axis=a["axis"]),
    "Unsqueeze": lambda i, a: _unsqueeze(*i),
    "Squeeze": lambda i, a: (np.squeeze(i[0]) if len(i) == 1
                             else np.squeeze(i[0], axis=tuple(i[1]))),
    "Cast": lambda i, a: i[0].astype(
        onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[a["to"]]),
    "ConstantOfShape": lambda i, a: np.full(
        tuple(i[0]), numpy_helper.to_array(a["value"]).reshape(())),
    "Reshape": lambda i, a: _reshape(*i),
    "Expand": lambda i, a: np.broadcast_to(
        i[0], np.broadcast_shapes(i[0].shape, tuple(i[1]))).copy(),
    "Add": lambda i, a: i[0] + i[1],
    "Sub": lambda i, a: i[0] - i[1],
    "Mul": lambda i, a: i[0] * i[1],
    "Div": lambda i, a: _div(*i),
}
FOLD_MAX_ELEMENTS = 1024


def fold_static_shapes(proto: onnx.ModelProto) -> None:
    """Every shape is static, but torch.onnx leaves some shape arithmetic in
    the graph (Shape -> Gather/Slice/Concat -> Resize sizes, Pad pads, LSTM
    initial states, chunk offsets). Replace Shape of a statically shaped value
    by its value, evaluate the ops of FOLDERS whose inputs are all known (Constant
    nodes, integer or tiny initializers, folded values) into initializers when
    the result is small, then drop the nodes nothing uses any more. Large float
    initializers are never read, so weights are never folded."""
    graph = proto.graph
    inferred = onnx.shape_inference.infer_shapes(proto, strict_mode=True)
    shapes = {}
    for info in list(inferred.graph.value_info) + list(graph.input):
        tensor_type = info.type.tensor_type
        if tensor_type.HasField("shape") and all(
                d.HasField("dim_value") for d in tensor_type.shape.dim):
            shapes[info.name] = [d.dim_value for d in tensor_type.shape.dim]

    known = {}
    for tensor in graph.initializer:
        if (tensor.data_type not in FLOAT_TYPES
                or tensor_bytes(tensor) <= STRIP_ABOVE_BYTES):
            known[tensor.name] = numpy_helper.to_array(tensor)
    for node in graph.node:
        attrs = {a.name: onnx.helper.get_attribute_value(a)
                 for a in node.attribute}
        if node.op_type == "Constant" and "value" in attrs:
            known[node.output[0]] = numpy_helper.to_array(attrs["value"])
            continue
        if node.op_type == "Shape" and node.input[0] in shapes:
            value = np.array(shapes[node.input[0]], dtype=np.int64)
        elif (node.op_type in FOLDERS and len(node.output) == 1
              and all(name in known for name in node.input if name)):
            inputs = [known[name] if name else None for name in node.input]
            while inputs and inputs[-1] is None:  # trailing optional inputs
                inputs.pop()
            value = np.asarray(FOLDERS[node.op_type](inputs, attrs))
        else:
            continue
        if value.size > FOLD_MAX_ELEMENTS:
            continue
        known[node.output[0]] = value
        graph.initializer.append(
            numpy_helper.from_array(value, node.output[0]))
    folded = {t.name for t in graph.initializer}
    remove_dead_nodes(proto, folded)


def remove_dead_nodes(proto: onnx.ModelProto, folded) -> None:
    """Drops nodes whose outputs were folded or are unused, then unused
    initializers."""
    graph = proto.graph
    live = {o.name for o in graph.output}
    kept = []
    for node in reversed(graph.node):
        if any(o in live and o not in folded for o in node.output):
            kept.append(node)
            live.update(node.input)
    del graph.node[:]
    graph.node.extend(reversed(kept))
    unused = [t for t in graph.initializer if t.name not in live]
    for tensor in unused:
        graph.initializer.remove(tensor)
    used_info = [v for v in graph.value_info if v.name in live]
    del graph.value_info[:]
    graph.value_info.extend(used_info)


def tensor_bytes(tensor: onnx.TensorProto) -> int:
    itemsize = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tensor.data_type].itemsize
    return itemsize * int(np.prod(tensor.dims, dtype=np.int64))


def strip_weights(proto: onnx.ModelProto) -> Tuple[int, int]:
    """Clears the data of every float initializer above STRIP_ABOVE_BYTES.
    Returns (number stripped, bytes stripped)."""
    stripped = stripped_bytes = 0
    for tensor in proto.graph.initializer:
        size = tensor_bytes(tensor)
        if tensor.data_type in FLOAT_TYPES and size > STRIP_ABOVE_BYTES:
            for name in DATA_FIELDS:
                tensor.ClearField(name)
            tensor.doc_string = "stripped"
            stripped += 1
            stripped_bytes += size
    # Large constants must all be initializers, or they would stay in the file.
    for node in proto.graph.node:
        if node.op_type == "Constant":
            for attr in node.attribute:
                if attr.t.ByteSize() > 4 * STRIP_ABOVE_BYTES:
                    sys.exit(f"{node.name}: large Constant node not stripped")
    return stripped, stripped_bytes


def value_info_json(info: onnx.ValueInfoProto) -> dict:
    t = info.type.tensor_type
    return {"name": info.name,
            "dtype": onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type].name,
            "shape": [d.dim_value for d in t.shape.dim]}


def export_model(model: ZooModel, out_dir: str) -> dict:
    torch.manual_seed(0)
    net = model.build().eval()
    inputs = example_inputs(model)
    proto = export_onnx(net, model, inputs)
    undo_initializer_dedup(proto)
    fold_static_shapes(proto)
    onnx.checker.check_model(proto, full_check=True)

    params = sum(p.numel() for p in net.parameters())
    initializer_names = {t.name for t in proto.graph.initializer}
    graph_inputs = [i for i in proto.graph.input
                    if i.name not in initializer_names]
    entry = {
        "name": model.name,
        "file": f"{model.name}.onnx",
        "source": model.source,
        "published": model.published,
        "inputs": [value_info_json(i) for i in graph_inputs],
        "outputs": [value_info_json(o) for o in proto.graph.output],
        "opset": OPSET,
        "weights": "kept" if model.keep_weights else "stripped",
        "parameters": params,
    }
    if model.keep_weights:
        with torch.no_grad():
            outputs = net(*inputs)
        arrays = {"input": inputs[0].numpy(), "output": outputs.numpy()}
        for kind, array in arrays.items():
            name = f"{model.name}.{kind}.npy"
            np.save(os.path.join(out_dir, name), array)
            entry[f"{kind}_npy"] = name
    else:
        stripped, stripped_bytes = strip_weights(proto)
        entry["stripped_initializers"] = stripped
        entry["stripped_bytes"] = stripped_bytes

    meta = proto.metadata_props.add()
    meta.key, meta.value = "dispatchlab.weights", entry["weights"]
    meta = proto.metadata_props.add()
    meta.key, meta.value = "dispatchlab.source", model.source

    data = proto.SerializeToString()
    with open(os.path.join(out_dir, entry["file"]), "wb") as f:
        f.write(data)
    entry["file_bytes"] = len(data)
    entry["sha256"] = hashlib.sha256(data).hexdigest()
    ops = collections.Counter(node.op_type for node in proto.graph.node)
    entry["nodes"] = sum(ops.values())
    entry["op_types"] = dict(sorted(ops.items()))
    if model.notes:
        entry["notes"] = model.notes
    return entry


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=here, help="output directory")
    parser.add_argument("--only", nargs="*", metavar="NAME",
                        help="export only these models (zoo.json is then "
                             "updated, not rewritten)")
    args = parser.parse_args()

    names = {m.name for m in ZOO}
    unknown = set(args.only or []) - names
    if unknown:
        parser.error(f"unknown model(s): {', '.join(sorted(unknown))}")
    os.makedirs(args.out, exist_ok=True)
    index_path = os.path.join(args.out, "zoo.json")
    entries = {}
    if args.only and os.path.exists(index_path):
        with open(index_path) as f:
            entries = {e["name"]: e for e in json.load(f)["models"]}

    for model in ZOO:
        if args.only and model.name not in args.only:
            continue
        entry = export_model(model, args.out)
        entries[model.name] = entry
        print(f"{model.name:30s} {entry['file_bytes']:>10,d} bytes  "
              f"{entry['nodes']:>5d} nodes  {entry['weights']}", flush=True)

    index = {
        "generator": "experiments/models/export_zoo.py",
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "onnx": onnx.__version__,
        "opset": OPSET,
        "strip_above_bytes": STRIP_ABOVE_BYTES,
        "published_tables": {key: [f"experiments/published/{f}" for f in files]
                             for key, files in PUBLISHED_TABLES.items()},
        "models": [entries[m.name] for m in ZOO if m.name in entries],
    }
    text = json.dumps(index, indent=2)
    # Keep shapes on one line: [1, 3, 224, 224] rather than one dim a line.
    text = re.sub(r"\[\s+([\d,\s]+?)\s+\]",
                  lambda m: "[" + ", ".join(re.findall(r"\d+", m.group(1)))
                  + "]", text)
    with open(index_path, "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()

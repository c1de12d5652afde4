#!/usr/bin/env python3
"""Convert EasyOCR 1.7.2's English weights to ONNX without PyTorch.

    python convert_weights.py <weights_folder> <out_folder>

reads craft_mlt_25k.pth (CRAFT text detector, torch's legacy serialization) and
english_g2.pth (the "generation2" VGG + BiLSTM + CTC recognizer, torch's zip
serialization) from <weights_folder> and writes to <out_folder>:

    craft.onnx       image [1,3,H,W] float32, normalized as EasyOCR's
                     normalizeMeanVariance does (H, W multiples of 32 in the pipeline)
                     -> y [1,H/2,W/2,2]: (text score, link score), CRAFT.forward's first output
    recognizer.onnx  image [B,1,64,W] float32 in [-1,1] (AlignCollate + NormalizePAD)
                     -> logits [B,T,97] with T = W//4 - 1, vgg_model.Model.forward's output
    models.json      the sha256 of each input .pth and output .onnx

The .pth files are read with zipfile/pickle and a restricted Unpickler that maps
torch's tensor-rebuilding globals to numpy; torch is never imported. The graphs
are built with onnx.helper, opset 17, and their bytes depend only on the weights.
Needs numpy and onnx.
"""

from __future__ import annotations

import collections
import hashlib
import io
import json
import pickle
import struct
import sys
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8  # the IR version that goes with opset 17, for older ONNX Runtime builds too
BN_EPS = 1e-5  # torch.nn.BatchNorm2d's default eps, used by both networks
DETECTOR_FILE = "craft_mlt_25k.pth"
RECOGNIZER_FILE = "english_g2.pth"

# ---------------------------------------------------------------------------
# Reading torch checkpoints without torch
# ---------------------------------------------------------------------------

_STORAGE_DTYPES: dict[str, np.dtype] = {
    "FloatStorage": np.dtype("<f4"),
    "DoubleStorage": np.dtype("<f8"),
    "HalfStorage": np.dtype("<f2"),
    "LongStorage": np.dtype("<i8"),
    "IntStorage": np.dtype("<i4"),
    "ShortStorage": np.dtype("<i2"),
    "CharStorage": np.dtype("i1"),
    "ByteStorage": np.dtype("u1"),
    "BoolStorage": np.dtype("?"),
}
_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C  # torch.serialization.MAGIC_NUMBER
_LEGACY_PROTOCOL = 1001  # torch.serialization.PROTOCOL_VERSION


class _StorageType:
    """Stands for a class such as torch.FloatStorage: only its element type matters."""

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = dtype


class _Storage:
    """A torch storage: its element type and, once read, its raw bytes."""

    def __init__(self, dtype: np.dtype, numel: int) -> None:
        self.dtype = dtype
        self.numel = numel
        self.data: bytes | None = None


class _TensorRef:
    """What torch._utils._rebuild_tensor_v2 would build, kept until the storages are read."""

    def __init__(self, storage: _Storage, offset: int, size: tuple[int, ...], stride: tuple[int, ...]) -> None:
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def to_numpy(self) -> np.ndarray:
        if self.storage.data is None:
            raise ValueError("a tensor refers to a storage that the file does not hold")
        flat = np.frombuffer(self.storage.data, dtype=self.storage.dtype, count=self.storage.numel)
        item = flat.dtype.itemsize
        view = np.lib.stride_tricks.as_strided(
            flat[self.offset :], shape=self.size, strides=tuple(s * item for s in self.stride)
        )
        return np.array(view, dtype=flat.dtype.newbyteorder("="))


def _rebuild_tensor_v2(storage: _Storage, offset: int, size: tuple[int, ...], stride: tuple[int, ...],
                       requires_grad: bool, backward_hooks: Any, metadata: Any = None) -> _TensorRef:
    """Stands for torch._utils._rebuild_tensor_v2."""
    return _TensorRef(storage, offset, size, stride)


class _CheckpointUnpickler(pickle.Unpickler):
    """Unpickles a state dict, allowing only OrderedDict, tensor rebuilding and storage types."""

    def __init__(self, stream: io.BytesIO, persistent_load: Callable[[tuple], _Storage] | None = None) -> None:
        super().__init__(stream)
        self._persistent_load = persistent_load

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor_v2
        if module == "torch" and name in _STORAGE_DTYPES:
            return _StorageType(_STORAGE_DTYPES[name])
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a checkpoint")

    def persistent_load(self, pid: tuple) -> _Storage:
        if self._persistent_load is None:
            raise pickle.UnpicklingError("unexpected persistent id")
        return self._persistent_load(pid)


def _materialize(state: Any) -> dict[str, np.ndarray]:
    """The unpickled state dict with its tensors read into numpy arrays."""
    if not isinstance(state, dict):
        raise ValueError("the checkpoint is not a state dict")
    return {str(key): value.to_numpy() for key, value in state.items()}


def _load_zip(path: Path) -> dict[str, np.ndarray]:
    """Mirrors torch.serialization._load: a zip holding <prefix>/data.pkl and <prefix>/data/<key>."""
    with zipfile.ZipFile(path) as archive:
        pkl_name = next(name for name in archive.namelist() if name.endswith("/data.pkl"))
        prefix = pkl_name[: -len("data.pkl")]
        if f"{prefix}byteorder" in archive.namelist() and archive.read(f"{prefix}byteorder") != b"little":
            raise ValueError(f"{path}: big-endian checkpoints are not supported")
        storages: dict[str, _Storage] = {}

        def persistent_load(pid: tuple) -> _Storage:
            kind, storage_type, key, _location, numel = pid
            if kind != "storage":
                raise pickle.UnpicklingError(f"unexpected persistent id {kind!r}")
            if key not in storages:
                storage = _Storage(storage_type.dtype, int(numel))
                storage.data = archive.read(f"{prefix}data/{key}")
                storages[key] = storage
            return storages[key]

        state = _CheckpointUnpickler(io.BytesIO(archive.read(pkl_name)), persistent_load).load()
    return _materialize(state)


def _load_legacy(path: Path) -> dict[str, np.ndarray]:
    """Mirrors torch.serialization._legacy_load: magic number, protocol, sys info, the pickle
    with persistent ids, the storage keys, then each storage as an int64 count and raw data."""
    stream = io.BytesIO(path.read_bytes())
    if _CheckpointUnpickler(stream).load() != _LEGACY_MAGIC:
        raise ValueError(f"{path}: not a torch checkpoint")
    if _CheckpointUnpickler(stream).load() != _LEGACY_PROTOCOL:
        raise ValueError(f"{path}: unknown legacy protocol version")
    sys_info = _CheckpointUnpickler(stream).load()
    if not sys_info.get("little_endian", True):
        raise ValueError(f"{path}: big-endian checkpoints are not supported")
    storages: dict[str, _Storage] = {}

    def persistent_load(pid: tuple) -> _Storage:
        kind, storage_type, key, _location, numel, view_metadata = pid
        if kind != "storage" or view_metadata is not None:
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        if key not in storages:
            storages[key] = _Storage(storage_type.dtype, int(numel))
        return storages[key]

    state = _CheckpointUnpickler(stream, persistent_load).load()
    for key in _CheckpointUnpickler(stream).load():
        storage = storages[key]
        (numel,) = struct.unpack("<q", stream.read(8))
        if numel != storage.numel:
            raise ValueError(f"{path}: storage {key} has {numel} elements, expected {storage.numel}")
        storage.data = stream.read(numel * storage.dtype.itemsize)
    return _materialize(state)


def load_state_dict(path: Path) -> dict[str, np.ndarray]:
    """torch.load(path) of a state dict as numpy arrays, with a leading 'module.' removed
    from the keys as EasyOCR's copyStateDict / get_recognizer do."""
    state = _load_zip(path) if zipfile.is_zipfile(path) else _load_legacy(path)
    return {key.removeprefix("module."): value for key, value in state.items()}


# ---------------------------------------------------------------------------
# Building ONNX graphs
# ---------------------------------------------------------------------------


class _Graph:
    """Collects nodes and initializers with stable, readable names."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.weights = weights
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(self, op_type: str, inputs: list[str], **attrs: Any) -> str:
        self._count += 1
        out = f"{op_type.lower()}_{self._count}"
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x: str, prefix: str, bn: str | None = None, relu: bool = True, pad: int = 0,
             dilation: int = 1) -> str:
        """nn.Conv2d `prefix` (stride 1), followed by nn.BatchNorm2d `bn` folded into it, and a ReLU."""
        weight = self.weights[f"{prefix}.weight"].astype(np.float64)
        bias = self.weights.get(f"{prefix}.bias", np.zeros(weight.shape[0])).astype(np.float64)
        if bn is not None:
            scale = self.weights[f"{bn}.weight"] / np.sqrt(self.weights[f"{bn}.running_var"].astype(np.float64) + BN_EPS)
            weight = weight * scale[:, None, None, None]
            bias = (bias - self.weights[f"{bn}.running_mean"]) * scale + self.weights[f"{bn}.bias"]
        w = self.const(f"{prefix}.weight", weight.astype(np.float32))
        b = self.const(f"{prefix}.bias", bias.astype(np.float32))
        kh, kw = weight.shape[2:]
        y = self.op("Conv", [x, w, b], kernel_shape=[kh, kw], pads=[pad] * 4, dilations=[dilation] * 2)
        return self.op("Relu", [y]) if relu else y

    def max_pool(self, x: str, kernel: tuple[int, int], stride: tuple[int, int], pad: int = 0) -> str:
        return self.op("MaxPool", [x], kernel_shape=list(kernel), strides=list(stride), pads=[pad] * 4)

    def linear(self, x: str, prefix: str) -> str:
        """nn.Linear on the last axis: x @ W.T + b."""
        w = self.const(f"{prefix}.weight_t", self.weights[f"{prefix}.weight"].T)
        b = self.const(f"{prefix}.bias", self.weights[f"{prefix}.bias"])
        return self.op("Add", [self.op("MatMul", [x, w]), b])

    def model(self, name: str, inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto]) -> onnx.ModelProto:
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
                                  producer_name="convert_weights.py")
        onnx.checker.check_model(model)
        return model


def build_craft(weights: dict[str, np.ndarray]) -> onnx.ModelProto:
    """craft.CRAFT.forward's first output, y.permute(0,2,3,1), with vgg16_bn's BatchNorms folded.

    vgg16_bn.forward returns the BatchNorm outputs of slices 1-4, but each slice after the
    first starts with an in-place ReLU that also rewrites the previous slice's output, so
    relu2_2, relu3_2 and relu4_3 reach the U-network rectified; relu5_3 is followed by
    slice5's MaxPool instead and stays as it is. F.interpolate(mode='bilinear',
    align_corners=False) is Resize linear with half_pixel coordinates: torch uses
    src = (dst + 0.5) * in / out - 0.5 clamped at 0 (ONNX Runtime clamps likewise), and
    unlike pytorch_half_pixel it keeps that formula when an output axis has length 1.
    """
    g = _Graph(weights)
    b = "basenet"
    h = g.conv("image", f"{b}.slice1.0", f"{b}.slice1.1", pad=1)
    h = g.conv(h, f"{b}.slice1.3", f"{b}.slice1.4", pad=1)
    h = g.max_pool(h, (2, 2), (2, 2))
    h = g.conv(h, f"{b}.slice1.7", f"{b}.slice1.8", pad=1)
    relu2_2 = g.conv(h, f"{b}.slice1.10", f"{b}.slice1.11", pad=1)
    h = g.max_pool(relu2_2, (2, 2), (2, 2))
    h = g.conv(h, f"{b}.slice2.14", f"{b}.slice2.15", pad=1)
    relu3_2 = g.conv(h, f"{b}.slice2.17", f"{b}.slice2.18", pad=1)
    h = g.conv(relu3_2, f"{b}.slice3.20", f"{b}.slice3.21", pad=1)
    h = g.max_pool(h, (2, 2), (2, 2))
    h = g.conv(h, f"{b}.slice3.24", f"{b}.slice3.25", pad=1)
    relu4_3 = g.conv(h, f"{b}.slice3.27", f"{b}.slice3.28", pad=1)
    h = g.conv(relu4_3, f"{b}.slice4.30", f"{b}.slice4.31", pad=1)
    h = g.max_pool(h, (2, 2), (2, 2))
    h = g.conv(h, f"{b}.slice4.34", f"{b}.slice4.35", pad=1)
    relu5_3 = g.conv(h, f"{b}.slice4.37", f"{b}.slice4.38", relu=False, pad=1)
    h = g.max_pool(relu5_3, (3, 3), (1, 1), pad=1)
    h = g.conv(h, f"{b}.slice5.1", relu=False, pad=6, dilation=6)
    fc7 = g.conv(h, f"{b}.slice5.2", relu=False)

    def double_conv(x: str, name: str) -> str:
        x = g.conv(x, f"{name}.conv.0", f"{name}.conv.1")
        return g.conv(x, f"{name}.conv.3", f"{name}.conv.4", pad=1)

    zero, two, four = (g.const(f"index_{i}", np.array([i])) for i in (0, 2, 4))

    def upsample_like(x: str, like: str) -> str:
        """F.interpolate(x, size=like.size()[2:], mode='bilinear', align_corners=False)."""
        batch_channels = g.op("Slice", [g.op("Shape", [x]), zero, two])
        height_width = g.op("Slice", [g.op("Shape", [like]), two, four])
        sizes = g.op("Concat", [batch_channels, height_width], axis=0)
        return g.op("Resize", [x, "", "", sizes], mode="linear", coordinate_transformation_mode="half_pixel")

    y = double_conv(g.op("Concat", [fc7, relu5_3], axis=1), "upconv1")
    y = double_conv(g.op("Concat", [upsample_like(y, relu4_3), relu4_3], axis=1), "upconv2")
    y = double_conv(g.op("Concat", [upsample_like(y, relu3_2), relu3_2], axis=1), "upconv3")
    feature = double_conv(g.op("Concat", [upsample_like(y, relu2_2), relu2_2], axis=1), "upconv4")
    y = g.conv(feature, "conv_cls.0", pad=1)
    y = g.conv(y, "conv_cls.2", pad=1)
    y = g.conv(y, "conv_cls.4", pad=1)
    y = g.conv(y, "conv_cls.6")
    y = g.conv(y, "conv_cls.8", relu=False)
    g.nodes.append(helper.make_node("Transpose", [y], ["y"], name="transpose_y", perm=[0, 2, 3, 1]))
    return g.model(
        "craft",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "height", "width"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "height_2", "width_2", 2])],
    )


def _lstm_weights(weights: dict[str, np.ndarray], prefix: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """nn.LSTM(bidirectional) parameters as ONNX LSTM's W, R, B.

    torch stacks the gates as i, f, g, o; ONNX as i, o, f, c (c being torch's g).
    ONNX's B is [Wb, Rb] per direction, i.e. bias_ih then bias_hh.
    """
    def gates(a: np.ndarray) -> np.ndarray:
        i, f, c, o = np.split(a, 4, axis=0)
        return np.concatenate([i, o, f, c], axis=0)

    ws, rs, bs = [], [], []
    for suffix in ("l0", "l0_reverse"):
        ws.append(gates(weights[f"{prefix}.weight_ih_{suffix}"]))
        rs.append(gates(weights[f"{prefix}.weight_hh_{suffix}"]))
        bs.append(np.concatenate([gates(weights[f"{prefix}.bias_ih_{suffix}"]),
                                  gates(weights[f"{prefix}.bias_hh_{suffix}"])]))
    return np.stack(ws), np.stack(rs), np.stack(bs)


def build_recognizer(weights: dict[str, np.ndarray]) -> onnx.ModelProto:
    """vgg_model.Model.forward: VGG_FeatureExtractor -> permute(0,3,1,2) + AdaptiveAvgPool2d((None,1))
    (a mean over the height axis) -> 2 x BidirectionalLSTM (LSTM + Linear) -> Prediction (Linear)."""
    g = _Graph(weights)
    c = "FeatureExtraction.ConvNet"
    x = g.conv("image", f"{c}.0", pad=1)
    x = g.max_pool(x, (2, 2), (2, 2))
    x = g.conv(x, f"{c}.3", pad=1)
    x = g.max_pool(x, (2, 2), (2, 2))
    x = g.conv(x, f"{c}.6", pad=1)
    x = g.conv(x, f"{c}.8", pad=1)
    x = g.max_pool(x, (2, 1), (2, 1))
    x = g.conv(x, f"{c}.11", f"{c}.12", pad=1)
    x = g.conv(x, f"{c}.14", f"{c}.15", pad=1)
    x = g.max_pool(x, (2, 1), (2, 1))
    x = g.conv(x, f"{c}.18")  # [B, 256, 3, T]
    x = g.op("ReduceMean", [x], axes=[2], keepdims=0)  # [B, 256, T]
    x = g.op("Transpose", [x], perm=[2, 0, 1])  # [T, B, 256]: ONNX LSTM's sequence-first layout
    for layer in ("SequenceModeling.0", "SequenceModeling.1"):
        w, r, b = _lstm_weights(weights, f"{layer}.rnn")
        hidden = r.shape[2]
        y = g.op("LSTM", [x, g.const(f"{layer}.rnn.W", w), g.const(f"{layer}.rnn.R", r), g.const(f"{layer}.rnn.B", b)],
                 direction="bidirectional", hidden_size=hidden)  # [T, 2, B, H]
        y = g.op("Transpose", [y], perm=[0, 2, 1, 3])  # [T, B, 2, H]
        y = g.op("Reshape", [y, g.const(f"{layer}.concat_shape", np.array([0, 0, 2 * hidden]))])
        x = g.linear(y, f"{layer}.linear")
    x = g.linear(x, "Prediction")  # [T, B, num_class]
    g.nodes.append(helper.make_node("Transpose", [x], ["logits"], name="transpose_logits", perm=[1, 0, 2]))
    num_class = weights["Prediction.weight"].shape[0]
    return g.model(
        "easyocr_english_g2",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["batch", 1, 64, "width"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "steps", num_class])],
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def convert(weights_folder: Path, out_folder: Path) -> dict[str, dict[str, str]]:
    """Writes craft.onnx, recognizer.onnx and models.json; returns what models.json holds."""
    out_folder.mkdir(parents=True, exist_ok=True)
    jobs = [(DETECTOR_FILE, "craft.onnx", build_craft), (RECOGNIZER_FILE, "recognizer.onnx", build_recognizer)]
    manifest: dict[str, dict[str, str]] = {"inputs": {}, "outputs": {}}
    for source, target, build in jobs:
        source_path, target_path = weights_folder / source, out_folder / target
        model = build(load_state_dict(source_path))
        target_path.write_bytes(model.SerializeToString(deterministic=True))
        manifest["inputs"][source] = _sha256(source_path)
        manifest["outputs"][target] = _sha256(target_path)
    (out_folder / "models.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: python convert_weights.py <weights_folder> <out_folder>", file=sys.stderr)
        return 2
    print(json.dumps(convert(Path(argv[1]), Path(argv[2])), indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

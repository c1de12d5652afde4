#!/usr/bin/env python3
"""Development check of the ONNX port against torch and easyocr 1.7.2 themselves.

Run only with the reference environment (torch, easyocr, Pillow, onnxruntime):

    <python with torch and easyocr 1.7.2> verify_port.py <weights_folder> <onnx_folder> [--parts ...] [--images ...]

--parts (default all):
  models   convert_weights' checkpoint reader against torch.load, and the ONNX models
           against torch's CRAFT and vgg_model.Model on random inputs
  helpers  pipeline's Pillow bicubic, AlignCollate and getDetBoxes ports against the originals
  images   readtext on the evaluation images (--images: names below, default all), each
           compared with easyocr.Reader(['en'], gpu=False, quantize=False).readtext: the
           pipeline on torch's own modules (the port of the algorithms alone), then on the
           ONNX models (with both networks' outputs compared on the real inputs), then
           batched recognition against box by box, and quantize=True against fp32.

Uses one thread in torch, OpenCV and ONNX Runtime.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np
import onnxruntime
import torch
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
import convert_weights  # noqa: E402
import pipeline  # noqa: E402

import easyocr  # noqa: E402
from easyocr import craft_utils, recognition, utils  # noqa: E402
from easyocr.craft import CRAFT  # noqa: E402
from easyocr.detection import copyStateDict  # noqa: E402
from easyocr.model.vgg_model import Model  # noqa: E402

EVALSET = Path("/work/shared/evalset")
IMAGES: dict[str, tuple[str, int | None]] = {  # name: (file, dpi when a PDF page 1 is rendered)
    "eurotext": ("image/tess_eurotext.tif", None),
    "8087": ("image/tess_8087_054.3B.tif", None),
    "webp": ("image/webp-test.webp", None),
    "scanned300": ("pdf/ocr_test_scanned.pdf", 300),
    "multi300": ("pdf/multi_page.pdf", 300),
    "multi150": ("pdf/multi_page.pdf", 150),
}


def ort_session(path: Path) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def torch_craft(weights: Path) -> CRAFT:
    net = CRAFT()
    net.load_state_dict(copyStateDict(torch.load(weights / "craft_mlt_25k.pth", map_location="cpu", weights_only=False)))
    return net.eval()


def torch_recognizer(weights: Path) -> Model:
    state = torch.load(weights / "english_g2.pth", map_location="cpu", weights_only=False)
    model = Model(input_channel=1, output_channel=256, hidden_size=256, num_class=len(pipeline.CHARACTERS) + 1)
    model.load_state_dict({key[7:]: value for key, value in state.items()})
    return model.eval()


def max_abs(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())


# ---------------------------------------------------------------------------


def check_models(weights: Path, onnx_folder: Path) -> None:
    print("## convert_weights.load_state_dict vs torch.load")
    for name in ("craft_mlt_25k.pth", "english_g2.pth"):
        expected = torch.load(weights / name, map_location="cpu", weights_only=False)
        got = convert_weights.load_state_dict(weights / name)
        same = [key[7:] for key in expected] == list(got) and all(
            np.array_equal(value.numpy(), got[key[7:]]) and value.numpy().dtype == got[key[7:]].dtype
            for key, value in expected.items())
        print(f"{name}: {len(got)} tensors, identical {same}")
    craft, recognizer = torch_craft(weights), torch_recognizer(weights)
    craft_onnx, recognizer_onnx = ort_session(onnx_folder / "craft.onnx"), ort_session(onnx_folder / "recognizer.onnx")
    rng = np.random.default_rng(0)
    print("## models on random inputs (max abs difference, torch fp32 vs ONNX Runtime)")
    for shape in [(1, 3, 320, 480), (1, 3, 96, 736)]:
        x = rng.standard_normal(shape, dtype=np.float32)
        with torch.no_grad():
            expected = craft(torch.from_numpy(x))[0].numpy()
        got = craft_onnx.run(None, {"image": x})[0]
        print(f"craft {shape}: y {got.shape}, |y| <= {np.abs(expected).max():.3g}, max diff {max_abs(expected, got):.3g}")
    for shape in [(1, 1, 64, 64), (4, 1, 64, 320), (2, 1, 64, 1280)]:
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        with torch.no_grad():
            expected = recognizer(torch.from_numpy(x), None).numpy()
        got = recognizer_onnx.run(None, {"image": x})[0]
        print(f"recognizer {shape}: logits {got.shape}, |logits| <= {np.abs(expected).max():.3g}, "
              f"max diff {max_abs(expected, got):.3g}")


def check_helpers() -> None:
    rng = np.random.default_rng(1)
    print("## helpers against the originals")
    cases, mismatches = 0, 0
    for _ in range(400):
        h, w = (int(v) for v in rng.integers(1, 160, 2))
        out_w, out_h = (int(v) for v in rng.integers(1, 160, 2))
        img = rng.integers(0, 256, (h, w), dtype=np.uint8)
        if rng.random() < 0.5:  # smooth images too, where the rounding matters most
            img = cv2.GaussianBlur(img, (5, 5), 2)
        expected = np.array(Image.fromarray(img, "L").resize((out_w, out_h), Image.BICUBIC))
        cases += 1
        mismatches += int(not np.array_equal(expected, pipeline.pil_bicubic_resize(img, out_w, out_h)))
    print(f"pil_bicubic_resize vs PIL resize(BICUBIC): {cases - mismatches}/{cases} identical")

    crops = [rng.integers(0, 256, (64, w), dtype=np.uint8) for w in (40, 64, 100, 250)]
    crops += [cv2.resize(rng.integers(60, 120, (h, 64), dtype=np.uint8), (64, h)) for h in (70, 150, 300)]
    worst = 0.0
    for adjust in (0.0, 0.5):
        for img_w in (256, 384):
            collate = recognition.AlignCollate(imgH=64, imgW=img_w, keep_ratio_with_pad=True, adjust_contrast=adjust)
            expected = collate([Image.fromarray(c, "L") for c in crops]).numpy()
            worst = max(worst, max_abs(expected, pipeline.align_collate(crops, 64, img_w, adjust)))
    print(f"align_collate vs AlignCollate (incl. tall crops and adjust_contrast): max diff {worst}")


# ---------------------------------------------------------------------------


class CachedTorchCraft:
    """Stands in for a Reader's detector: runs torch's CRAFT once per distinct input."""

    def __init__(self, net: CRAFT) -> None:
        self.net = net
        self.key: str | None = None
        self.y: torch.Tensor | None = None

    def __call__(self, x: torch.Tensor) -> tuple[torch.Tensor, None]:
        key = hashlib.sha1(x.numpy().tobytes()).hexdigest()
        if key != self.key:
            with torch.no_grad():
                self.y = self.net(x)[0]
            self.key = key
        return self.y, None


class Recorder:
    """Wraps an ONNX session as a pipeline model, caching its last output and recording the
    largest difference from a torch reference on the same inputs."""

    def __init__(self, session: onnxruntime.InferenceSession, reference: Callable[[np.ndarray], np.ndarray]) -> None:
        self.session, self.reference = session, reference
        self.key: str | None = None
        self.out: np.ndarray | None = None
        self.max_diff = 0.0
        self.calls = 0

    def __call__(self, x: np.ndarray) -> np.ndarray:
        key = hashlib.sha1(x.tobytes() + str(x.shape).encode()).hexdigest()
        if key != self.key:
            self.out = self.session.run(None, {"image": x})[0]
            self.max_diff = max(self.max_diff, max_abs(self.reference(x), self.out))
            self.key = key
            self.calls += 1
        return self.out


def compare(expected: list, got: list) -> dict[str, Any]:
    """Boxes, texts and confidences of two readtext results, entry by entry."""
    boxes = texts = 0
    conf = 0.0
    differences = []
    for a, b in zip(expected, got):
        same_box = np.array(a[0], dtype=np.float64).tolist() == np.array(b[0], dtype=np.float64).tolist()
        boxes += same_box
        texts += same_box and a[1] == b[1]
        if same_box and a[1] == b[1]:
            conf = max(conf, abs(float(a[2]) - float(b[2])))
        else:
            differences.append((a, b))
    return {"n": (len(expected), len(got)), "boxes_equal": boxes, "texts_equal": texts, "max_conf_diff": conf,
            "differences": differences}


def edit_distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def report(label: str, result: dict[str, Any]) -> None:
    n_expected, n_got = result["n"]
    print(f"  {label}: boxes {n_expected} vs {n_got}, boxes equal {result['boxes_equal']}, "
          f"texts equal {result['texts_equal']}, max confidence diff {result['max_conf_diff']:.3g}")
    for a, b in result["differences"][:8]:
        print(f"    {a[1]!r} {float(a[2]):.4f} {np.array(a[0]).tolist()}\n    {b[1]!r} {float(b[2]):.4f} {np.array(b[0]).tolist()}")


def load_image(name: str, workdir: Path) -> np.ndarray:
    file, dpi = IMAGES[name]
    path = EVALSET / file
    if dpi is not None:
        prefix = workdir / f"{name}"
        subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", "1", "-l", "1", str(path), str(prefix)], check=True)
        path = next(workdir.glob(f"{name}-*.pgm"))
    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise RuntimeError(f"cannot read {path}")
    return img


def check_images(weights: Path, onnx_folder: Path, names: list[str]) -> None:
    def reader(quantize: bool) -> easyocr.Reader:
        return easyocr.Reader(["en"], gpu=False, quantize=quantize, model_storage_directory=str(weights),
                              download_enabled=False, verbose=False)

    reader32, reader8 = reader(False), reader(True)
    craft = CachedTorchCraft(reader32.detector)
    reader32.detector = reader8.detector = craft  # the detector is fp32 in both (dynamic quantization skips convs)

    def torch_detector(x: np.ndarray) -> np.ndarray:
        return craft(torch.from_numpy(x))[0].numpy()

    def torch_recognizer(x: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return reader32.recognizer(torch.from_numpy(x), None).numpy()

    on_torch = pipeline.EasyOcrReader(torch_detector, torch_recognizer)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            img = load_image(name, Path(tmp))
            print(f"## {name} {img.shape[1]}x{img.shape[0]}")
            start = time.perf_counter()
            expected = reader32.readtext(img)
            print(f"  easyocr fp32 readtext: {time.perf_counter() - start:.1f}s")
            report("pipeline on torch modules vs easyocr fp32", compare(expected, on_torch.readtext(img)))

            detector = Recorder(ort_session(onnx_folder / "craft.onnx"), torch_detector)
            recognizer = Recorder(ort_session(onnx_folder / "recognizer.onnx"), torch_recognizer)
            on_onnx = pipeline.EasyOcrReader(detector, recognizer)
            start = time.perf_counter()
            got = on_onnx.readtext(img)
            elapsed = time.perf_counter() - start
            report("pipeline on ONNX vs easyocr fp32", compare(expected, got))
            print(f"  ONNX readtext {elapsed:.1f}s (incl. the torch reference calls); max abs diff on these inputs: "
                  f"craft y {detector.max_diff:.3g}, recognizer logits {recognizer.max_diff:.3g}")

            horizontal, free = on_onnx.detect(img)  # cached detector output
            on_onnx_plain = pipeline.EasyOcrReader(detector, ort_session(onnx_folder / "recognizer.onnx"))
            start = time.perf_counter()
            single = on_onnx_plain.recognize(img, horizontal, free)
            print(f"  recognition box by box: {len(single)} boxes in {time.perf_counter() - start:.2f}s")
            for ratio in (1.0, 1.25, 1.5):
                start = time.perf_counter()
                batched = on_onnx_plain.recognize(img, horizontal, free, batch_size=16, batch_width_ratio=ratio)
                elapsed = time.perf_counter() - start
                report(f"batch_size 16, batch_width_ratio {ratio} ({elapsed:.2f}s) vs box by box",
                       compare(single, batched))

            quantized = reader8.readtext(img)
            result = compare(expected, quantized)
            errors = sum(edit_distance(a[1], b[1]) for a, b in zip(expected, quantized))
            chars = sum(len(a[1]) for a in expected)
            print(f"  easyocr quantize=True vs fp32: texts equal {result['texts_equal']}/{len(expected)}, "
                  f"character edits {errors}/{chars}, max confidence diff (equal texts) {result['max_conf_diff']:.3g}")

            same = pipeline.get_paragraph(expected) == utils.get_paragraph(expected)
            print(f"  get_paragraph on easyocr's result equals easyocr's: {same}")

            heatmap = craft.y[0].numpy()
            args = (heatmap[:, :, 0], heatmap[:, :, 1], 0.7, 0.4, 0.4)
            start = time.perf_counter()
            original = craft_utils.getDetBoxes(*args)[0]
            t_original = time.perf_counter() - start
            start = time.perf_counter()
            ported = pipeline.get_det_boxes(*args)
            t_ported = time.perf_counter() - start
            identical = len(original) == len(ported) and all(np.array_equal(a, b) for a, b in zip(original, ported))
            print(f"  get_det_boxes vs getDetBoxes on the heatmap: {len(ported)} boxes, identical {identical}, "
                  f"{t_ported:.2f}s vs {t_original:.2f}s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("onnx", type=Path)
    parser.add_argument("--parts", nargs="+", choices=["models", "helpers", "images"],
                        default=["models", "helpers", "images"])
    parser.add_argument("--images", nargs="+", choices=list(IMAGES), default=list(IMAGES))
    args = parser.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    if "models" in args.parts:
        check_models(args.weights, args.onnx)
    if "helpers" in args.parts:
        check_helpers()
    if "images" in args.parts:
        check_images(args.weights, args.onnx, args.images)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The recognizer's input and output (recognition.py and utils.CTCLabelConverter of EasyOCR
1.7.2): contrast adjustment, Pillow's bicubic resampling as AlignCollate calls it, the batch
padded to one width, and the softmax and confidence of the greedy decoding (see pipeline.py
for the licences)."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

# ---------------------------------------------------------------------------
# Recognition (recognition.py, utils.CTCLabelConverter)
# ---------------------------------------------------------------------------


def contrast_grey(img: np.ndarray) -> tuple[float, float, float]:
    """recognition.contrast_grey."""
    high = np.percentile(img, 90)
    low = np.percentile(img, 10)
    return (high - low) / np.maximum(10, high + low), high, low


def adjust_contrast_grey(img: np.ndarray, target: float = 0.4) -> np.ndarray:
    """recognition.adjust_contrast_grey: stretches a low-contrast crop."""
    contrast, high, low = contrast_grey(img)
    if contrast < target:
        img = img.astype(int)
        ratio = 200. / np.maximum(10, high - low)
        img = (img - low + 25) * ratio
        img = np.maximum(np.full(img.shape, 0), np.minimum(np.full(img.shape, 255), img)).astype(np.uint8)
    return img


_PIL_PRECISION_BITS = 32 - 8 - 2  # Resample.c's PRECISION_BITS for 8-bit images


def _pil_bicubic_filter(x: float) -> float:
    """Resample.c's bicubic_filter (a = -0.5)."""
    a = -0.5
    if x < 0.0:
        x = -x
    if x < 1.0:
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1
    if x < 2.0:
        return (((x - 5) * x + 8) * x - 4) * a
    return 0.0


def _pil_bicubic_matrix(in_size: int, out_size: int) -> np.ndarray:
    """Resample.c's precompute_coeffs + normalize_coeffs_8bpc for BICUBIC, as an [in, out]
    matrix of fixed-point weights."""
    scale = in_size / out_size
    filterscale = max(scale, 1.0)
    support = 2.0 * filterscale
    matrix = np.zeros((in_size, out_size), dtype=np.int64)
    for xx in range(out_size):
        center = (xx + 0.5) * scale
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size)
        weights = [_pil_bicubic_filter((x - center + 0.5) * (1.0 / filterscale)) for x in range(xmin, xmax)]
        total = 0.0
        for weight in weights:
            total += weight
        for x, weight in zip(range(xmin, xmax), weights):
            if total != 0.0:
                weight /= total
            fixed = weight * (1 << _PIL_PRECISION_BITS)
            matrix[x, xx] = int(fixed - 0.5) if weight < 0 else int(fixed + 0.5)
    return matrix


def _pil_clip8(acc: np.ndarray) -> np.ndarray:
    """Resample.c's clip8 on accumulators that started at 1 << (PRECISION_BITS - 1)."""
    return np.clip((acc + (1 << (_PIL_PRECISION_BITS - 1))) >> _PIL_PRECISION_BITS, 0, 255).astype(np.uint8)


def pil_bicubic_resize(img: np.ndarray, width: int, height: int) -> np.ndarray:
    """PIL.Image.fromarray(img, 'L').resize((width, height), Image.BICUBIC) for a uint8 image, as
    Pillow 13 (the reference environment's) does it: a horizontal and a vertical pass, each only
    when that side changes, the vertical one first when the height shrinks by more than twice
    as many pixels as the width (older Pillow releases always ran the horizontal one first)."""
    in_h, in_w = img.shape
    horizontal_first = not (in_h - height > 0 and in_h - height > (in_w - width) * 2)
    out = img
    for horizontal in (True, False) if horizontal_first else (False, True):
        if horizontal and width != in_w:
            out = _pil_clip8(out.astype(np.int64) @ _pil_bicubic_matrix(in_w, width))
        elif not horizontal and height != in_h:
            out = _pil_clip8(_pil_bicubic_matrix(in_h, height).T @ out.astype(np.int64))
    return out.copy() if out is img else out


def align_collate(images: Sequence[np.ndarray], img_h: int, img_w: int, adjust_contrast: float = 0.) -> np.ndarray:
    """recognition.AlignCollate(keep_ratio_with_pad=True) with NormalizePAD: each crop
    contrast-adjusted when asked, resized (bicubic) to height img_h keeping its aspect ratio
    but at most img_w wide, scaled to [-1, 1] and padded on the right to img_w by repeating
    its last column. Returns float32 [N, 1, img_h, img_w]."""
    batch = np.empty((len(images), 1, img_h, img_w), dtype=np.float32)
    for index, image in enumerate(images):
        h, w = image.shape
        if adjust_contrast > 0:
            image = adjust_contrast_grey(image, target=adjust_contrast)
        ratio = w / float(h)
        resized_w = img_w if math.ceil(img_h * ratio) > img_w else math.ceil(img_h * ratio)
        resized = pil_bicubic_resize(image, resized_w, img_h)
        normalized = (resized.astype(np.float32) / np.float32(255) - np.float32(0.5)) / np.float32(0.5)
        batch[index, 0, :, :resized_w] = normalized
        batch[index, 0, :, resized_w:] = normalized[:, resized_w - 1:resized_w]
    return batch


def custom_mean(x: np.ndarray) -> Any:
    """recognition.custom_mean: the confidence of a text from its characters' probabilities."""
    return x.prod() ** (2.0 / np.sqrt(len(x)))


def softmax(x: np.ndarray) -> np.ndarray:
    """F.softmax(x, dim=2) in float32, computed as torch's CPU kernel does (times 1/sum)."""
    e = np.exp(x - x.max(axis=2, keepdims=True))
    return e * (np.float32(1) / e.sum(axis=2, keepdims=True))

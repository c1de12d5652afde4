"""CRAFT's text detection around the detector network: the image normalised and resized for it,
and its text and link maps turned into boxes (imgproc.py, craft_utils.py, detection.py of
EasyOCR 1.7.2 and CRAFT; see pipeline.py for the licences and the deliberate differences)."""

from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

# ---------------------------------------------------------------------------
# Detection (imgproc.py, craft_utils.py, detection.py)
# ---------------------------------------------------------------------------


def normalize_mean_variance(in_img: np.ndarray, mean: Sequence[float] = (0.485, 0.456, 0.406),
                            variance: Sequence[float] = (0.229, 0.224, 0.225)) -> np.ndarray:
    """imgproc.normalizeMeanVariance."""
    img = in_img.copy().astype(np.float32)
    img -= np.array([mean[0] * 255.0, mean[1] * 255.0, mean[2] * 255.0], dtype=np.float32)
    img /= np.array([variance[0] * 255.0, variance[1] * 255.0, variance[2] * 255.0], dtype=np.float32)
    return img


def resize_aspect_ratio(img: np.ndarray, square_size: int, interpolation: int,
                        mag_ratio: float = 1) -> tuple[np.ndarray, float]:
    """imgproc.resize_aspect_ratio without its unused heatmap size: the image scaled so that its
    longer side is mag_ratio times itself but at most square_size, zero-padded to multiples of 32."""
    height, width, channel = img.shape
    target_size = mag_ratio * max(height, width)
    if target_size > square_size:
        target_size = square_size
    ratio = target_size / max(height, width)
    target_h, target_w = int(height * ratio), int(width * ratio)
    proc = cv2.resize(img, (target_w, target_h), interpolation=interpolation)

    target_h32, target_w32 = target_h, target_w
    if target_h % 32 != 0:
        target_h32 = target_h + (32 - target_h % 32)
    if target_w % 32 != 0:
        target_w32 = target_w + (32 - target_w % 32)
    resized = np.zeros((target_h32, target_w32, channel), dtype=np.float32)
    resized[0:target_h, 0:target_w, :] = proc
    return resized, ratio


def get_det_boxes(textmap: np.ndarray, linkmap: np.ndarray, text_threshold: float, link_threshold: float,
                  low_text: float) -> list[np.ndarray]:
    """craft_utils.getDetBoxes(poly=False, estimate_num_chars=False), i.e. getDetBoxes_core.

    The original builds a full-size segmentation map per connected component; this one
    builds it on the component's bounding box grown by the dilation margin, which holds
    every pixel the original's map can have set, and offsets the coordinates back, so
    cv2.minAreaRect gets the same points in the same order.
    """
    img_h, img_w = textmap.shape
    _, text_score = cv2.threshold(textmap, low_text, 1, 0)
    _, link_score = cv2.threshold(linkmap, link_threshold, 1, 0)
    text_score_comb = np.clip(text_score + link_score, 0, 1)
    n_labels, labels, stats, _ = cv2.connectedComponentsWithStats(text_score_comb.astype(np.uint8), connectivity=4)
    link_area = np.logical_and(link_score == 1, text_score == 0)

    det = []
    for k in range(1, n_labels):
        size = stats[k, cv2.CC_STAT_AREA]
        if size < 10:
            continue
        x, y = stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_TOP]
        w, h = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        if np.max(textmap[y:y + h, x:x + w][labels[y:y + h, x:x + w] == k]) < text_threshold:
            continue

        niter = int(math.sqrt(size * min(w, h) / (w * h)) * 2)
        sx, ex, sy, ey = x - niter, x + w + niter + 1, y - niter, y + h + niter + 1
        if sx < 0:
            sx = 0
        if sy < 0:
            sy = 0
        if ex >= img_w:
            ex = img_w
        if ey >= img_h:
            ey = img_h
        segmap = np.zeros((ey - sy, ex - sx), dtype=np.uint8)
        segmap[labels[sy:ey, sx:ex] == k] = 255
        segmap[link_area[sy:ey, sx:ex]] = 0  # remove link area
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (1 + niter, 1 + niter))
        segmap = cv2.dilate(segmap, kernel)

        # make box
        rows, cols = np.where(segmap != 0)
        np_contours = np.array((cols + sx, rows + sy)).transpose().reshape(-1, 2)
        rectangle = cv2.minAreaRect(np_contours)
        box = cv2.boxPoints(rectangle)

        # align diamond-shape
        w, h = np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[1] - box[2])
        box_ratio = max(w, h) / (min(w, h) + 1e-5)
        if abs(1 - box_ratio) <= 0.1:
            left, right = min(np_contours[:, 0]), max(np_contours[:, 0])
            top, bottom = min(np_contours[:, 1]), max(np_contours[:, 1])
            box = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], dtype=np.float32)

        # make clock-wise order
        startidx = box.sum(axis=1).argmin()
        box = np.roll(box, 4 - startidx, 0)
        det.append(np.array(box))
    return det


def adjust_result_coordinates(polys: list[np.ndarray], ratio_w: float, ratio_h: float,
                              ratio_net: int = 2) -> list | np.ndarray:
    """craft_utils.adjustResultCoordinates: heatmap coordinates back to image coordinates."""
    if len(polys) > 0:
        polys = np.array(polys)
        for k in range(len(polys)):
            polys[k] *= (ratio_w * ratio_net, ratio_h * ratio_net)
    return polys

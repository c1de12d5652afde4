"""EasyOCR 1.7.2's Reader(['en']).readtext on ONNX models, without PyTorch.

A re-implementation of what easyocr.Reader.readtext does for the English model
(CRAFT detector + english_g2 recognizer, greedy decoding, CPU path) on an 8-bit
greyscale image, with the two networks given as callables or ONNX Runtime sessions
(see convert_weights.py for the models). Needs only numpy and opencv; onnxruntime
only for EasyOcrReader.from_onnx.

Ported code:
- EasyOCR 1.7.2 (easyocr.py, detection.py, recognition.py, utils.py),
  Copyright JaidedAI, Apache License 2.0.
- craft_utils.py and imgproc.py of CRAFT, Copyright (c) 2019-present NAVER Corp.,
  MIT License (normalize_mean_variance, resize_aspect_ratio, get_det_boxes,
  adjust_result_coordinates).
- Pillow 13's bicubic resampling (src/libImaging/Resample.c, MIT-CMU licence), which
  EasyOCR's AlignCollate calls through PIL.Image.resize.

Each function's docstring names the EasyOCR function it mirrors. Deliberate
differences: get_det_boxes works on each component's bounding box instead of
full-size maps (same boxes); batch_size > 1 reads several boxes per recognizer
call (see EasyOcrReader.readtext).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, Sequence

import cv2
import numpy as np

Model = Callable[[np.ndarray], np.ndarray]
HorizontalBox = list  # [x_min, x_max, y_min, y_max]
FreeBox = list  # [[x1, y1], [x2, y2], [x3, y3], [x4, y4]], clockwise from the top left
Result = tuple  # (box as 4 corner points, text, confidence)

# config.py: recognition_models['gen2']['english_g2'] and character/en_char.txt
CHARACTERS = "0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ €ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SYMBOLS = "0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ €"
EN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
MODEL_HEIGHT = 64  # config.imgH


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


# ---------------------------------------------------------------------------
# Grouping and cropping (utils.py)
# ---------------------------------------------------------------------------


def group_text_box(polys: list[np.ndarray], slope_ths: float = 0.1, ycenter_ths: float = 0.5,
                   height_ths: float = 0.5, width_ths: float = 1.0,
                   add_margin: float = 0.05) -> tuple[list[HorizontalBox], list[FreeBox]]:
    """utils.group_text_box(sort_output=True): near-horizontal boxes merged into lines and
    words, the others kept as free quadrilaterals, both grown by a margin."""
    horizontal_list, free_list, combined_list, merged_list = [], [], [], []

    for poly in polys:
        slope_up = (poly[3] - poly[1]) / np.maximum(10, (poly[2] - poly[0]))
        slope_down = (poly[5] - poly[7]) / np.maximum(10, (poly[4] - poly[6]))
        if max(abs(slope_up), abs(slope_down)) < slope_ths:
            x_max = max([poly[0], poly[2], poly[4], poly[6]])
            x_min = min([poly[0], poly[2], poly[4], poly[6]])
            y_max = max([poly[1], poly[3], poly[5], poly[7]])
            y_min = min([poly[1], poly[3], poly[5], poly[7]])
            horizontal_list.append([x_min, x_max, y_min, y_max, 0.5 * (y_min + y_max), y_max - y_min])
        else:
            height = np.linalg.norm([poly[6] - poly[0], poly[7] - poly[1]])
            width = np.linalg.norm([poly[2] - poly[0], poly[3] - poly[1]])
            margin = int(1.44 * add_margin * min(width, height))
            theta13 = abs(np.arctan((poly[1] - poly[5]) / np.maximum(10, (poly[0] - poly[4]))))
            theta24 = abs(np.arctan((poly[3] - poly[7]) / np.maximum(10, (poly[2] - poly[6]))))
            x1 = poly[0] - np.cos(theta13) * margin
            y1 = poly[1] - np.sin(theta13) * margin
            x2 = poly[2] + np.cos(theta24) * margin
            y2 = poly[3] - np.sin(theta24) * margin
            x3 = poly[4] + np.cos(theta13) * margin
            y3 = poly[5] + np.sin(theta13) * margin
            x4 = poly[6] - np.cos(theta24) * margin
            y4 = poly[7] + np.sin(theta24) * margin
            free_list.append([[x1, y1], [x2, y2], [x3, y3], [x4, y4]])
    horizontal_list = sorted(horizontal_list, key=lambda item: item[4])

    # combine boxes of comparable height and y centre into lines
    new_box: list = []
    for poly in horizontal_list:
        if len(new_box) == 0:
            b_height = [poly[5]]
            b_ycenter = [poly[4]]
            new_box.append(poly)
        elif abs(np.mean(b_ycenter) - poly[4]) < ycenter_ths * np.mean(b_height):
            b_height.append(poly[5])
            b_ycenter.append(poly[4])
            new_box.append(poly)
        else:
            b_height = [poly[5]]
            b_ycenter = [poly[4]]
            combined_list.append(new_box)
            new_box = [poly]
    combined_list.append(new_box)

    # merge neighbours within a line
    for boxes in combined_list:
        if len(boxes) == 1:
            box = boxes[0]
            margin = int(add_margin * min(box[1] - box[0], box[5]))
            merged_list.append([box[0] - margin, box[1] + margin, box[2] - margin, box[3] + margin])
            continue
        boxes = sorted(boxes, key=lambda item: item[0])
        merged_box, new_box = [], []
        for box in boxes:
            if len(new_box) == 0:
                b_height = [box[5]]
                x_max = box[1]
                new_box.append(box)
            elif (abs(np.mean(b_height) - box[5]) < height_ths * np.mean(b_height)) and (
                    (box[0] - x_max) < width_ths * (box[3] - box[2])):
                b_height.append(box[5])
                x_max = box[1]
                new_box.append(box)
            else:
                b_height = [box[5]]
                x_max = box[1]
                merged_box.append(new_box)
                new_box = [box]
        if len(new_box) > 0:
            merged_box.append(new_box)

        for mbox in merged_box:
            if len(mbox) != 1:  # adjacent boxes in the same line
                x_min = min(mbox, key=lambda x: x[0])[0]
                x_max = max(mbox, key=lambda x: x[1])[1]
                y_min = min(mbox, key=lambda x: x[2])[2]
                y_max = max(mbox, key=lambda x: x[3])[3]
                margin = int(add_margin * (min(x_max - x_min, y_max - y_min)))
                merged_list.append([x_min - margin, x_max + margin, y_min - margin, y_max + margin])
            else:  # a lone box in the line
                box = mbox[0]
                margin = int(add_margin * (min(box[1] - box[0], box[3] - box[2])))
                merged_list.append([box[0] - margin, box[1] + margin, box[2] - margin, box[3] + margin])
    return merged_list, free_list


def diff(input_list: Sequence[Any]) -> Any:
    """utils.diff."""
    return max(input_list) - min(input_list)


def four_point_transform(image: np.ndarray, rect: np.ndarray) -> np.ndarray:
    """utils.four_point_transform: the quadrilateral `rect` warped to an upright rectangle."""
    (tl, tr, br, bl) = rect
    width_a = np.sqrt(((br[0] - bl[0]) ** 2) + ((br[1] - bl[1]) ** 2))
    width_b = np.sqrt(((tr[0] - tl[0]) ** 2) + ((tr[1] - tl[1]) ** 2))
    max_width = max(int(width_a), int(width_b))
    height_a = np.sqrt(((tr[0] - br[0]) ** 2) + ((tr[1] - br[1]) ** 2))
    height_b = np.sqrt(((tl[0] - bl[0]) ** 2) + ((tl[1] - bl[1]) ** 2))
    max_height = max(int(height_a), int(height_b))
    dst = np.array([[0, 0], [max_width - 1, 0], [max_width - 1, max_height - 1], [0, max_height - 1]],
                   dtype="float32")
    matrix = cv2.getPerspectiveTransform(rect, dst)
    return cv2.warpPerspective(image, matrix, (max_width, max_height))


def calculate_ratio(width: float, height: float) -> float:
    """utils.calculate_ratio: the aspect ratio of the longer side to the shorter."""
    ratio = width / height
    if ratio < 1.0:
        ratio = 1. / ratio
    return ratio


def compute_ratio_and_resize(img: np.ndarray, width: int, height: int, model_height: int) -> tuple[np.ndarray, float]:
    """utils.compute_ratio_and_resize. EasyOCR passes PIL's Image.Resampling.LANCZOS (1) as
    cv2.resize's interpolation, where 1 means cv2.INTER_LINEAR."""
    ratio = width / height
    if ratio < 1.0:
        ratio = calculate_ratio(width, height)
        img = cv2.resize(img, (model_height, int(model_height * ratio)), interpolation=cv2.INTER_LINEAR)
    else:
        img = cv2.resize(img, (int(model_height * ratio), model_height), interpolation=cv2.INTER_LINEAR)
    return img, ratio


def get_image_list(horizontal_list: list[HorizontalBox], free_list: list[FreeBox], img: np.ndarray,
                   model_height: int = MODEL_HEIGHT) -> tuple[list[tuple[list, np.ndarray]], int]:
    """utils.get_image_list(sort_output=True): each box's crop resized to the model's height
    (or width, when taller than wide), sorted by the boxes' top; and the width, a multiple
    of model_height, that the recognizer input is padded to."""
    image_list = []
    maximum_y, maximum_x = img.shape

    max_ratio_hori, max_ratio_free = 1, 1
    for box in free_list:
        rect = np.array(box, dtype="float32")
        transformed_img = four_point_transform(img, rect)
        ratio = calculate_ratio(transformed_img.shape[1], transformed_img.shape[0])
        new_width = int(model_height * ratio)
        if new_width != 0:
            crop_img, ratio = compute_ratio_and_resize(transformed_img, transformed_img.shape[1],
                                                       transformed_img.shape[0], model_height)
            image_list.append((box, crop_img))
            max_ratio_free = max(ratio, max_ratio_free)
    max_ratio_free = math.ceil(max_ratio_free)

    for box in horizontal_list:
        x_min = max(0, box[0])
        x_max = min(box[1], maximum_x)
        y_min = max(0, box[2])
        y_max = min(box[3], maximum_y)
        crop_img = img[y_min:y_max, x_min:x_max]
        width = x_max - x_min
        height = y_max - y_min
        ratio = calculate_ratio(width, height)
        new_width = int(model_height * ratio)
        if new_width != 0:
            crop_img, ratio = compute_ratio_and_resize(crop_img, width, height, model_height)
            image_list.append(([[x_min, y_min], [x_max, y_min], [x_max, y_max], [x_min, y_max]], crop_img))
            max_ratio_hori = max(ratio, max_ratio_hori)
    max_ratio_hori = math.ceil(max_ratio_hori)

    max_ratio = max(max_ratio_hori, max_ratio_free)
    max_width = math.ceil(max_ratio) * model_height
    image_list = sorted(image_list, key=lambda item: item[0][0][1])
    return image_list, max_width


def get_paragraph(raw_result: list[Result], x_ths: float = 1, y_ths: float = 0.5) -> list[list]:
    """utils.get_paragraph(mode='ltr'): results clustered into paragraphs, as [box, text]."""
    box_group = []
    for box in raw_result:
        all_x = [int(coord[0]) for coord in box[0]]
        all_y = [int(coord[1]) for coord in box[0]]
        min_x, max_x, min_y, max_y = min(all_x), max(all_x), min(all_y), max(all_y)
        height = max_y - min_y
        box_group.append([box[1], min_x, max_x, min_y, max_y, height, 0.5 * (min_y + max_y), 0])  # last: group
    current_group = 1
    while len([box for box in box_group if box[7] == 0]) > 0:
        box_group0 = [box for box in box_group if box[7] == 0]
        if len([box for box in box_group if box[7] == current_group]) == 0:
            box_group0[0][7] = current_group  # the first ungrouped box starts a new group
        else:
            current_box_group = [box for box in box_group if box[7] == current_group]
            mean_height = np.mean([box[5] for box in current_box_group])
            min_gx = min([box[1] for box in current_box_group]) - x_ths * mean_height
            max_gx = max([box[2] for box in current_box_group]) + x_ths * mean_height
            min_gy = min([box[3] for box in current_box_group]) - y_ths * mean_height
            max_gy = max([box[4] for box in current_box_group]) + y_ths * mean_height
            add_box = False
            for box in box_group0:
                same_horizontal_level = (min_gx <= box[1] <= max_gx) or (min_gx <= box[2] <= max_gx)
                same_vertical_level = (min_gy <= box[3] <= max_gy) or (min_gy <= box[4] <= max_gy)
                if same_horizontal_level and same_vertical_level:
                    box[7] = current_group
                    add_box = True
                    break
            if not add_box:
                current_group += 1

    result = []
    for i in set(box[7] for box in box_group):
        current_box_group = [box for box in box_group if box[7] == i]
        mean_height = np.mean([box[5] for box in current_box_group])
        min_gx = min([box[1] for box in current_box_group])
        max_gx = max([box[2] for box in current_box_group])
        min_gy = min([box[3] for box in current_box_group])
        max_gy = max([box[4] for box in current_box_group])
        text = ''
        while len(current_box_group) > 0:
            highest = min([box[6] for box in current_box_group])
            candidates = [box for box in current_box_group if box[6] < highest + 0.4 * mean_height]
            most_left = min([box[1] for box in candidates])
            for box in candidates:
                if box[1] == most_left:
                    best_box = box
            text += ' ' + best_box[0]
            current_box_group.remove(best_box)
        result.append([[[min_gx, min_gy], [max_gx, min_gy], [max_gx, max_gy], [min_gx, max_gy]], text[1:]])
    return result


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


def _softmax(x: np.ndarray) -> np.ndarray:
    """F.softmax(x, dim=2) in float32, computed as torch's CPU kernel does (times 1/sum)."""
    e = np.exp(x - x.max(axis=2, keepdims=True))
    return e * (np.float32(1) / e.sum(axis=2, keepdims=True))


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------


def _as_model(model: Any) -> Model:
    """A callable from an ONNX Runtime InferenceSession (its first input and output) or a callable."""
    if hasattr(model, "run") and hasattr(model, "get_inputs"):
        input_name = model.get_inputs()[0].name
        return lambda x: model.run(None, {input_name: x})[0]
    return model


class EasyOcrReader:
    """easyocr.Reader(['en'], gpu=False) as far as readtext goes.

    detector: float32 [1, 3, H, W] (H, W multiples of 32, normalized as
    normalize_mean_variance does) -> [1, H/2, W/2, 2] (text score, link score).
    recognizer: float32 [B, 1, 64, W] in [-1, 1] -> logits [B, T, 97].
    Either may be an onnxruntime.InferenceSession of convert_weights.py's models.
    """

    def __init__(self, detector: Any, recognizer: Any) -> None:
        self._detector = _as_model(detector)
        self._recognizer = _as_model(recognizer)
        self._classes = np.array(['[blank]'] + list(CHARACTERS))
        # Reader.setLanguageList + Reader.recognize: characters outside the language are never read
        lang_char = set(EN_CHARS) | set(SYMBOLS)
        self._ignore_idx = sorted(CHARACTERS.index(char) + 1 for char in set(CHARACTERS) - lang_char)

    @classmethod
    def from_onnx(cls, folder: str | Path, threads: int = 1) -> EasyOcrReader:
        """A reader on craft.onnx and recognizer.onnx in `folder`, with `threads` ONNX Runtime
        threads per operator and sequential execution."""
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        sessions = [onnxruntime.InferenceSession(str(Path(folder) / name), options, providers=["CPUExecutionProvider"])
                    for name in ("craft.onnx", "recognizer.onnx")]
        return cls(*sessions)

    def readtext(self, image: np.ndarray, detail: int = 1, paragraph: bool = False, min_size: int = 20,
                 contrast_ths: float = 0.1, adjust_contrast: float = 0.5, text_threshold: float = 0.7,
                 low_text: float = 0.4, link_threshold: float = 0.4, canvas_size: int = 2560,
                 mag_ratio: float = 1., slope_ths: float = 0.1, ycenter_ths: float = 0.5,
                 height_ths: float = 0.5, width_ths: float = 0.5, y_ths: float = 0.5, x_ths: float = 1.0,
                 add_margin: float = 0.1, batch_size: int = 1, batch_width_ratio: float = 1.0) -> list:
        """Reader.readtext(image, decoder='greedy') on a uint8 greyscale image [H, W].

        Returns [(box, text, confidence), ...] in EasyOCR's order (horizontal boxes
        top to bottom as grouped, then free boxes), box being 4 corners clockwise from
        the top left; the texts only when detail == 0; [box, text] paragraphs when
        paragraph is true.

        batch_size 1 (the default) reads box by box, each padded to its own width
        rounded up to a multiple of 64, as EasyOCR does on CPU. batch_size N > 1 reads
        up to N boxes per recognizer call: boxes sorted by that padded width and grouped
        while the widest is at most batch_width_ratio times the narrowest, each padded
        to the group's widest. With batch_width_ratio 1 every box gets exactly the input
        of the box-by-box mode; above 1 the extra padding can change a text slightly.
        """
        if image.ndim != 2 or image.dtype != np.uint8:
            raise ValueError(f"expected a uint8 greyscale image [H, W], got {image.dtype} {image.shape}")
        horizontal_list, free_list = self.detect(
            image, min_size=min_size, text_threshold=text_threshold, low_text=low_text,
            link_threshold=link_threshold, canvas_size=canvas_size, mag_ratio=mag_ratio, slope_ths=slope_ths,
            ycenter_ths=ycenter_ths, height_ths=height_ths, width_ths=width_ths, add_margin=add_margin)
        result = self.recognize(image, horizontal_list, free_list, contrast_ths=contrast_ths,
                                adjust_contrast=adjust_contrast, batch_size=batch_size,
                                batch_width_ratio=batch_width_ratio)
        if paragraph:
            result = get_paragraph(result, x_ths=x_ths, y_ths=y_ths)
        if detail == 0:
            return [item[1] for item in result]
        return result

    def detect(self, img_grey: np.ndarray, min_size: int = 20, text_threshold: float = 0.7, low_text: float = 0.4,
               link_threshold: float = 0.4, canvas_size: int = 2560, mag_ratio: float = 1.,
               slope_ths: float = 0.1, ycenter_ths: float = 0.5, height_ths: float = 0.5, width_ths: float = 0.5,
               add_margin: float = 0.1) -> tuple[list[HorizontalBox], list[FreeBox]]:
        """Reader.detect for one image: get_textbox, group_text_box, then the min_size filter."""
        img = cv2.cvtColor(img_grey, cv2.COLOR_GRAY2BGR)  # utils.reformat_input
        polys = self.get_textbox(img, canvas_size, mag_ratio, text_threshold, link_threshold, low_text)
        horizontal_list, free_list = group_text_box(polys, slope_ths, ycenter_ths, height_ths, width_ths, add_margin)
        if min_size:
            horizontal_list = [i for i in horizontal_list if max(i[1] - i[0], i[3] - i[2]) > min_size]
            free_list = [i for i in free_list
                         if max(diff([c[0] for c in i]), diff([c[1] for c in i])) > min_size]
        return horizontal_list, free_list

    def get_textbox(self, img: np.ndarray, canvas_size: int, mag_ratio: float, text_threshold: float,
                    link_threshold: float, low_text: float) -> list[np.ndarray]:
        """detection.get_textbox + test_net for one image: the detector's boxes as int32 [8]."""
        img_resized, target_ratio = resize_aspect_ratio(img, canvas_size, cv2.INTER_LINEAR, mag_ratio)
        ratio_h = ratio_w = 1 / target_ratio
        x = np.ascontiguousarray(np.transpose(normalize_mean_variance(img_resized), (2, 0, 1))[np.newaxis])
        out = self._detector(x)[0]
        boxes = get_det_boxes(out[:, :, 0], out[:, :, 1], text_threshold, link_threshold, low_text)
        boxes = adjust_result_coordinates(boxes, ratio_w, ratio_h)
        return [np.array(box).astype(np.int32).reshape((-1)) for box in boxes]

    def recognize(self, img_cv_grey: np.ndarray, horizontal_list: list[HorizontalBox], free_list: list[FreeBox],
                  contrast_ths: float = 0.1, adjust_contrast: float = 0.5, batch_size: int = 1,
                  batch_width_ratio: float = 1.0) -> list[Result]:
        """Reader.recognize's CPU path: get_image_list for each box alone (horizontal boxes,
        then free ones), then get_text on the crops (see readtext for batch_size)."""
        crops: list[tuple[list, np.ndarray, int]] = []
        for h_list, f_list in [([box], []) for box in horizontal_list] + [([], [box]) for box in free_list]:
            image_list, max_width = get_image_list(h_list, f_list, img_cv_grey, model_height=MODEL_HEIGHT)
            crops += [(coord, crop, int(max_width)) for coord, crop in image_list]
        return self.get_text(crops, contrast_ths, adjust_contrast, batch_size, batch_width_ratio)

    def get_text(self, crops: list[tuple[list, np.ndarray, int]], contrast_ths: float, adjust_contrast: float,
                 batch_size: int, batch_width_ratio: float) -> list[Result]:
        """recognition.get_text for (box, crop, padded width) triples: a first reading, a second
        one with adjust_contrast for those under contrast_ths, the more confident kept."""
        first = self._predict([crop for _, crop, _ in crops], [w for _, _, w in crops], 0., batch_size,
                              batch_width_ratio)
        low_confident_idx = [i for i, item in enumerate(first) if item[1] < contrast_ths]
        second = dict(zip(low_confident_idx, self._predict(
            [crops[i][1] for i in low_confident_idx], [crops[i][2] for i in low_confident_idx], adjust_contrast,
            batch_size, batch_width_ratio)))
        result = []
        for i, ((box, _, _), pred1) in enumerate(zip(crops, first)):
            pred = pred1
            if i in second and not pred1[1] > second[i][1]:
                pred = second[i]
            result.append((box, pred[0], pred[1]))
        return result

    def _predict(self, images: list[np.ndarray], widths: list[int], adjust_contrast: float, batch_size: int,
                 batch_width_ratio: float) -> list[tuple[str, Any]]:
        """recognition.recognizer_predict over batches of crops of similar padded width."""
        order = sorted(range(len(images)), key=lambda i: widths[i])
        groups: list[list[int]] = []
        for i in order:
            if groups and len(groups[-1]) < batch_size and widths[i] <= batch_width_ratio * widths[groups[-1][0]]:
                groups[-1].append(i)
            else:
                groups.append([i])
        results: list[tuple[str, Any]] = [("", 0.)] * len(images)
        for group in groups:
            batch = align_collate([images[i] for i in group], MODEL_HEIGHT, max(widths[i] for i in group),
                                  adjust_contrast)
            for i, pred in zip(group, self._decode(self._recognizer(batch))):
                results[i] = pred
        return results

    def _decode(self, preds: np.ndarray) -> list[tuple[str, Any]]:
        """recognition.recognizer_predict after the model, decoder='greedy': softmax, ignored
        characters zeroed and the rest renormalised, CTCLabelConverter.decode_greedy, and
        custom_mean of the best non-blank probabilities as the confidence."""
        preds_prob = _softmax(preds)
        preds_prob[:, :, self._ignore_idx] = 0.
        pred_norm = preds_prob.sum(axis=2)
        preds_prob = preds_prob / np.expand_dims(pred_norm, axis=-1)
        values = preds_prob.max(axis=2)
        indices = preds_prob.argmax(axis=2)
        result = []
        for v, t in zip(values, indices):
            keep = np.insert(~(t[1:] == t[:-1]), 0, True) & (t != 0)  # collapse repeats, drop blanks
            text = ''.join(self._classes[t[keep.nonzero()]])
            max_probs = v[t != 0]
            result.append((text, custom_mean(max_probs if len(max_probs) > 0 else np.array([0]))))
        return result

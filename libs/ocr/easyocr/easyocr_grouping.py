"""EasyOCR's grouping and cropping (utils.py of EasyOCR 1.7.2): detected boxes merged into
lines, each line cut out and resized for the recognizer, and results joined into paragraphs
(see pipeline.py for the licence)."""

from __future__ import annotations

import math
from typing import Any, Sequence

import cv2
import numpy as np

HorizontalBox = list  # [x_min, x_max, y_min, y_max]
FreeBox = list  # [[x1, y1], [x2, y2], [x3, y3], [x4, y4]], clockwise from the top left
Result = tuple  # (box as 4 corner points, text, confidence)

MODEL_HEIGHT = 64  # config.imgH: the height the recognizer reads lines at

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

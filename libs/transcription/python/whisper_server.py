#!/usr/bin/env python3
"""faster-whisper as a long-running engine process of the worker (libs/engines/src/engine-process.ts,
libs/engines/python/engine_protocol.py).

On start it loads the CTranslate2 Whisper model and writes one line,
    {"ready": true, "engine": "faster-whisper", "version": "<x.y.z>",
     "model": {"name": ..., "sha256": ..., "size_bytes": ..., "multilingual": ...}, "languages": [...]}
or exits non-zero with a message on stderr: 2 when faster-whisper cannot be imported, 3 when the
model is missing (it is never downloaded here).

Then it reads one request per line on stdin, {"id": 1, "path": "/path/to/audio-or-video"}, and
answers with progress lines {"id": 1, "progress": 0.42} (the share of the recording done) and
one of
    {"id": 1, "result": {"language": "en", "language_probability": 1.0, "duration": 9.8,
                         "segments": [{"start": 0.0, "end": 3.2, "text": "..."}]}}
    {"id": 1, "error": "message"}

Environment:
    WHISPER_MODEL_DIR  a CTranslate2 Whisper model folder (default: models/whisper-base in this
                       Python's environment, which scripts/setup.sh joins from its packages)
    WHISPER_THREADS    CPU threads (default 2)
"""

import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "engines", "python"))
from engine_protocol import EXIT_NO_MODEL, EXIT_NO_RUNTIME, EngineUnavailable, serve  # noqa: E402


def main():
    return serve(load)


def load():
    """The ready line's fields and the answer to a request, once the model is loaded."""
    try:
        import faster_whisper
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import _LANGUAGE_CODES
    except ImportError as error:
        raise EngineUnavailable(
            EXIT_NO_RUNTIME, f"whisper_server: cannot import faster_whisper with {sys.executable}: {error}"
        ) from error

    model_dir = os.environ.get("WHISPER_MODEL_DIR") or os.path.join(sys.prefix, "models", "whisper-base")
    weights = os.path.join(model_dir or "", "model.bin")
    if not model_dir or not os.path.isfile(weights):
        raise EngineUnavailable(EXIT_NO_MODEL, f"whisper_server: no Whisper model at {model_dir!r} (set WHISPER_MODEL_DIR)")

    threads = int(os.environ.get("WHISPER_THREADS", "2"))
    model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=threads, local_files_only=True)
    multilingual = model.model.is_multilingual
    ready = {
        "engine": "faster-whisper",
        "version": faster_whisper.__version__,
        "model": {
            "name": model_name(model_dir),
            "sha256": sha256(weights),
            "size_bytes": os.path.getsize(weights),
            "multilingual": multilingual,
        },
        "languages": sorted(_LANGUAGE_CODES) if multilingual else ["en"],
    }
    return ready, lambda request, progress: transcribe(model, multilingual, request, progress)


def transcribe(model, multilingual, request, progress):
    segments, info = model.transcribe(
        request["path"],
        language=None if multilingual else "en",
        beam_size=5,
        condition_on_previous_text=False,
    )
    out = []
    for segment in segments:
        out.append({"start": round(segment.start, 2), "end": round(segment.end, 2), "text": segment.text.strip()})
        if info.duration > 0:
            progress(min(1.0, segment.end / info.duration))
    return {
        "language": info.language,
        "language_probability": round(info.language_probability, 3),
        "duration": round(info.duration, 2),
        "segments": out,
    }


def model_name(model_dir):
    return os.path.basename(os.path.normpath(model_dir))


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


if __name__ == "__main__":
    sys.exit(main())

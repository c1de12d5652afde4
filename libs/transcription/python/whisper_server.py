#!/usr/bin/env python3
"""faster-whisper as a long-running engine process of the worker (libs/engines/src/engine-process.ts).

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
import json
import os
import sys

EXIT_NO_ENGINE = 2
EXIT_NO_MODEL = 3


def main():
    # The protocol owns stdout; whatever the libraries print goes to stderr instead.
    protocol = sys.stdout
    sys.stdout = sys.stderr
    try:
        import faster_whisper
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import _LANGUAGE_CODES
    except ImportError as error:
        print(f"whisper_server: cannot import faster_whisper with {sys.executable}: {error}", file=sys.stderr)
        return EXIT_NO_ENGINE

    model_dir = os.environ.get("WHISPER_MODEL_DIR") or os.path.join(sys.prefix, "models", "whisper-base")
    weights = os.path.join(model_dir or "", "model.bin")
    if not model_dir or not os.path.isfile(weights):
        print(f"whisper_server: no Whisper model at {model_dir!r} (set WHISPER_MODEL_DIR)", file=sys.stderr)
        return EXIT_NO_MODEL

    threads = int(os.environ.get("WHISPER_THREADS", "2"))
    model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=threads, local_files_only=True)
    multilingual = model.model.is_multilingual
    write(
        protocol,
        {
            "ready": True,
            "engine": "faster-whisper",
            "version": faster_whisper.__version__,
            "model": {
                "name": model_name(model_dir),
                "sha256": sha256(weights),
                "size_bytes": os.path.getsize(weights),
                "multilingual": multilingual,
            },
            "languages": sorted(_LANGUAGE_CODES) if multilingual else ["en"],
        },
    )
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            write(protocol, {"id": request["id"], "result": transcribe(model, multilingual, request, protocol)})
        except Exception as error:  # the recording, not the process, is at fault: answer and go on
            write(protocol, {"id": request["id"], "error": f"{type(error).__name__}: {error}"})
    return 0


def transcribe(model, multilingual, request, protocol):
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
            write(protocol, {"id": request["id"], "progress": min(1.0, segment.end / info.duration)})
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


def write(stream, message):
    stream.write(json.dumps(message, ensure_ascii=False) + "\n")
    stream.flush()


if __name__ == "__main__":
    sys.exit(main())

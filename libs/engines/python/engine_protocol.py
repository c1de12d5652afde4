"""The Python side of the engine protocol (libs/engines/src/engine-process.ts), shared by every
engine process of the worker (easyocr_server.py, whisper_server.py): JSON lines over stdin and
stdout.

- Once loaded, the process writes `{"ready": true, "engine": "<name>", "version": "<x.y>", ...}`,
  or exits non-zero with a message on stderr (EXIT_NO_RUNTIME, EXIT_NO_MODEL).
- Then each request is one line `{"id": 1, ...}`; the process answers it with any number of
  `{"id": 1, "progress": 0.4}` lines, then one `{"id": 1, "result": ...}` or
  `{"id": 1, "error": "message"}`. A request that fails gets an error answer; it never ends the
  process.

stdout belongs to the protocol: `serve` sends whatever else is printed (by the engine or the
libraries it loads) to stderr before the engine is loaded.

A server script imports this module with its folder on the path:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "engines", "python"))
"""

import json
import sys

# The exit codes of a process that cannot start: its runtime (a Python package) cannot be
# imported, or its model is missing (models are never downloaded by an engine).
EXIT_NO_RUNTIME = 2
EXIT_NO_MODEL = 3


class EngineUnavailable(Exception):
    """Raised by an engine's `load` when it cannot start: `exit_code` is what the process exits with,
    the message what it writes on stderr."""

    def __init__(self, exit_code, message):
        super().__init__(message)
        self.exit_code = exit_code


class RequestError(Exception):
    """Raised by an engine's `answer` for a request it refuses: the message is the error answer as
    it is, without the name of an exception type."""


def serve(load):
    """Runs an engine process and returns its exit code (`sys.exit(serve(load))`).

    `load()` loads the engine (its imports included, so that their output goes to stderr) and
    returns `(ready, answer)`: `ready`, the fields of the ready line besides `"ready"`; `answer(request,
    progress)`, the result of one request (a dict with its "id"), where `progress(fraction)` writes a
    progress line. `load` raises EngineUnavailable when the engine cannot start."""
    protocol = sys.stdout
    sys.stdout = sys.stderr
    try:
        ready, answer = load()
    except EngineUnavailable as error:
        print(str(error), file=sys.stderr)
        return error.exit_code
    write(protocol, {"ready": True, **ready})
    for line in sys.stdin:
        if line.strip():
            write(protocol, reply(line, answer, protocol))
    return 0


def reply(line, answer, protocol):
    """The answer line of one request line: its result, or its error."""
    request_id = None
    try:
        request = json.loads(line)
        request_id = request.get("id")
        progress = lambda fraction: write(protocol, {"id": request_id, "progress": fraction})
        return {"id": request_id, "result": answer(request, progress)}
    except RequestError as error:
        return {"id": request_id, "error": str(error)}
    except Exception as error:  # the request, not the process, is at fault: answer and go on
        return {"id": request_id, "error": f"{type(error).__name__}: {error}"}


def write(stream, message):
    """One protocol line: JSON in ASCII (escapes for the rest), so that no locale changes its bytes."""
    stream.write(json.dumps(message) + "\n")
    stream.flush()

"""Typed errors: every refusal of the service as a ``DocconvError`` carrying its problem's fields."""

import json
from typing import Any, Dict, List, Optional

from docconv_client.exceptions import ApiException


class DocconvError(Exception):
    """A refusal of the service (RFC 9457 problem+json): its HTTP status, stable ``code``, ``title``,
    ``detail`` a person can act on, ``errors`` of a 400 (field and message), the whole ``problem``,
    and for a 429 the seconds to wait (``retry_after``)."""

    def __init__(self, status: int, problem: Dict[str, Any], retry_after: Optional[int] = None) -> None:
        self.status = status
        self.problem = problem
        self.code: str = str(problem.get("code", f"http_{status}"))
        self.title: str = str(problem.get("title", f"HTTP {status}"))
        self.detail: str = str(problem.get("detail", ""))
        self.errors: List[Dict[str, str]] = list(problem.get("errors") or [])
        self.retry_after = retry_after
        super().__init__(f"{status} {self.code}: {self.title}: {self.detail}")


class ValidationFailed(DocconvError):
    """400: a field is wrong; ``errors`` names each."""


class PaymentRequired(DocconvError):
    """402: not enough credits; the problem gives ``needed`` and ``balance``."""

    @property
    def needed(self) -> Optional[int]:
        return self.problem.get("needed")

    @property
    def balance(self) -> Optional[int]:
        return self.problem.get("balance")


class NotFound(DocconvError):
    """404: no such job (or not the caller's)."""


class RateLimited(DocconvError):
    """429: the key's rate limit or daily quota; ``retry_after`` says how long to wait."""


_BY_STATUS = {400: ValidationFailed, 402: PaymentRequired, 404: NotFound, 429: RateLimited}


def problem_error(status: int, body: Optional[str], headers: Optional[Any] = None) -> DocconvError:
    """The typed error of a response that is not a success: its problem+json when the body is one."""
    try:
        problem = json.loads(body) if body else {}
    except ValueError:
        problem = {}
    if not isinstance(problem, dict):
        problem = {}
    problem.setdefault("detail", (body or "").strip()[:300] or f"The service answered {status}.")
    retry = (headers or {}).get("Retry-After") if headers is not None else None
    seconds = int(retry) if isinstance(retry, str) and retry.strip().isdigit() else None
    return _BY_STATUS.get(status, DocconvError)(status, problem, seconds)


def from_api_exception(error: ApiException) -> DocconvError:
    """The typed error of a generated call's ``ApiException``."""
    return problem_error(int(error.status or 0), error.body, error.headers)

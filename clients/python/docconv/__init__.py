"""Helpers over the generated ``docconv_client``, written by hand: waiting for and following a job,
typed errors carrying the problem's fields, the structured result parsed, and chunks.

    from docconv import wait_for_job, follow_job, download_structured, iter_chunks, DocconvError

Every helper takes a ``docconv_client.ApiClient`` configured with the credential (see README).
"""

from .errors import DocconvError, NotFound, PaymentRequired, RateLimited, ValidationFailed, problem_error
from .jobs import JobEvent, download_structured, follow_job, iter_chunks, wait_for_job

__all__ = [
    "DocconvError",
    "JobEvent",
    "NotFound",
    "PaymentRequired",
    "RateLimited",
    "ValidationFailed",
    "download_structured",
    "follow_job",
    "iter_chunks",
    "problem_error",
    "wait_for_job",
]

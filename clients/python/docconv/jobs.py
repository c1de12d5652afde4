"""Waiting for a job, following its events, its structured result parsed, and its chunks."""

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, Optional

import urllib3

from docconv_client import ApiClient
from docconv_client.api.jobs_api import JobsApi
from docconv_client.exceptions import ApiException
from docconv_client.models.chunk_list_chunks_inner import ChunkListChunksInner
from docconv_client.models.job_response import JobResponse
from docconv_client.models.structured_result import StructuredResult

from .errors import DocconvError, RateLimited, from_api_exception, problem_error

FINISHED = ("done", "error", "cancelled")


@dataclass
class JobEvent:
    """One Server-Sent Event of a job: its type (``status``, ``progress``), its data as parsed JSON
    (the job's snapshot) and its id."""

    type: str
    data: Dict[str, Any]
    id: str = ""


def _call(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except ApiException as error:
        raise from_api_exception(error) from error


def follow_job(client: ApiClient, job_id: str, last_event_id: Optional[str] = None) -> Iterator[JobEvent]:
    """The job's events as they come (GET /api/v1/jobs/{job_id}/events): its current state first,
    then each change, until the service ends the stream once the job is done, failed or cancelled.
    Raises ``DocconvError`` when the service refuses the stream."""
    headers = {"Accept": "text/event-stream"}
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    response = _call(
        lambda: JobsApi(client).jobs_events_without_preload_content(job_id, _headers=headers)
    )
    try:
        if response.status >= 300:
            raise problem_error(response.status, response.data.decode("utf-8", "replace"), response.headers)
        event, data, event_id = "", [], ""
        for raw in _lines(response):
            if raw == "":
                if data:
                    yield JobEvent(event or "message", json.loads("\n".join(data)), event_id)
                event, data = "", []
            elif raw.startswith(":"):
                continue
            else:
                name, _, value = raw.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "event":
                    event = value
                elif name == "data":
                    data.append(value)
                elif name == "id":
                    event_id = value
    finally:
        response.release_conn()


def _lines(response: urllib3.HTTPResponse) -> Iterator[str]:
    """The lines of a streamed response as they arrive, decoded (CRLF, LF or CR)."""
    buffer = ""
    for chunk in response.stream(1024, decode_content=True):
        buffer += chunk.decode("utf-8")
        *lines, buffer = buffer.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        yield from lines
    if buffer:
        yield buffer


def wait_for_job(
    client: ApiClient,
    job_id: str,
    on_progress: Optional[Callable[[JobResponse], None]] = None,
    timeout: float = 86_400,
    interval: float = 5.0,
) -> JobResponse:
    """Waits until the job is done, failed or cancelled and returns that last record (a failed job is
    returned, not raised). It follows the job's events, so a job of hours costs a few requests; a
    429 waits out its Retry-After and an unreachable service is tried again, until ``timeout``
    seconds. ``on_progress`` gets the job when the wait begins and at each change of status."""
    deadline = time.monotonic() + timeout
    jobs = JobsApi(client)
    last_status = None

    def pause(seconds: float) -> None:
        if time.monotonic() + seconds > deadline:
            raise TimeoutError(f"job {job_id} did not finish within {timeout} s")
        time.sleep(seconds)

    while True:
        try:
            job = _call(lambda: jobs.jobs_get(job_id))
        except RateLimited as error:
            pause(error.retry_after or interval)
            continue
        except urllib3.exceptions.HTTPError:
            pause(interval)
            continue
        if job.status != last_status and on_progress:
            on_progress(job)
        last_status = job.status
        if job.status in FINISHED:
            return job
        if job.status == "pending":
            raise DocconvError(0, {"code": "job_pending", "title": "Job not confirmed", "detail": f"Job {job_id} is pending: confirm it before waiting for it."})
        try:
            for event in follow_job(client, job_id):
                status = event.data.get("status")
                if status in FINISHED:
                    break
        except RateLimited as error:
            pause(error.retry_after or interval)
            continue
        except urllib3.exceptions.HTTPError:
            pause(interval)
            continue
        pause(min(interval, 1.0))


def download_structured(client: ApiClient, job_id: str) -> StructuredResult:
    """A finished job's structured result (GET /api/v1/jobs/{job_id}/download?format=json), parsed."""
    data = _call(lambda: JobsApi(client).jobs_download(job_id, format="json"))
    return StructuredResult.from_json(bytes(data).decode("utf-8"))


def iter_chunks(
    client: ApiClient, job_id: str, strategy: str = "structure", max_tokens: int = 512, overlap_tokens: int = 0
) -> Iterator[ChunkListChunksInner]:
    """Every chunk of a finished job's result, in reading order, fetched a page at a time."""
    jobs = JobsApi(client)
    cursor = None
    while True:
        page = _call(
            lambda: jobs.jobs_chunks(
                job_id, strategy=strategy, max_tokens=max_tokens, overlap_tokens=overlap_tokens, limit=1000, cursor=cursor
            )
        )
        yield from page.chunks
        if not page.next_cursor:
            return
        cursor = page.next_cursor

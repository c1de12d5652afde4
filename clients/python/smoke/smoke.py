"""The whole flow against a running docconv with the generated Python SDK.

DOCCONV_URL=http://127.0.0.1:3000 python clients/python/smoke/smoke.py

Signs up, creates an API key, uploads a Markdown file it writes itself, confirms the quote, waits
for the job (following its events), downloads the Markdown and the structured result, reads its
chunks, converts it to DOCX and fetches the file, reads the balance and provokes a wrong-password
error and a refused chunking. Prints one line per step; exits 1 on the first mismatch.
"""

import os
import sys
import tempfile
import uuid
from urllib.parse import urljoin

import docconv_client
from docconv import DocconvError, ValidationFailed, download_structured, follow_job, iter_chunks, wait_for_job
from docconv_client.api.account_api import AccountApi
from docconv_client.api.auth_api import AuthApi
from docconv_client.api.jobs_api import JobsApi
from docconv_client.api.keys_api import KeysApi
from docconv_client.exceptions import ApiException
from docconv_client.models.convert_dto import ConvertDto
from docconv_client.models.create_key_dto import CreateKeyDto
from docconv_client.models.credentials_dto import CredentialsDto
from docconv_client.models.error_code import ErrorCode
from docconv_client.models.problem import Problem

MARKER = "Smoke test from Python"


class Mismatch(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Mismatch(what)


def wait_only(base_url: str, job_id: str, key: str) -> None:
    """DOCCONV_WAIT_JOB: only waits for that job with DOCCONV_API_KEY (the reliability suite's long wait)."""
    configuration = docconv_client.Configuration(host=base_url, api_key={"api_key": key})
    with docconv_client.ApiClient(configuration) as program:
        print(f"waited: {wait_for_job(program, job_id, timeout=600).status}")


def main() -> None:
    base_url = os.environ["DOCCONV_URL"].rstrip("/")
    if os.environ.get("DOCCONV_WAIT_JOB"):
        return wait_only(base_url, os.environ["DOCCONV_WAIT_JOB"], os.environ["DOCCONV_API_KEY"])
    email = f"smoke-python-{uuid.uuid4().hex[:12]}@example.test"
    password = "correct horse battery staple"

    # Public calls: no credential.
    with docconv_client.ApiClient(docconv_client.Configuration(host=base_url)) as anonymous:
        session = AuthApi(anonymous).auth_signup(CredentialsDto(email=email, password=password))
        check(session.access_token != "", "signup returned no session token")
        print(f"signed up {session.email}")

        # A wrong password is a problem+json 401 whose code says why.
        try:
            AuthApi(anonymous).auth_login(CredentialsDto(email=email, password="not the password"))
            raise Mismatch("a wrong password logged in")
        except ApiException as error:
            check(error.status == 401, f"a wrong password answered {error.status}, not 401")
            check(isinstance(error.data, Problem), "the 401 carried no problem+json body")
            problem: Problem = error.data
            if problem.code == ErrorCode.INVALID_CREDENTIALS:
                print(f"wrong password refused: {problem.status} {problem.code.value}")
            else:
                raise Mismatch(f"a wrong password gave the code {problem.code.value}")

    # The session token (Authorization: Bearer) manages keys.
    with docconv_client.ApiClient(docconv_client.Configuration(host=base_url, access_token=session.access_token)) as person:
        issued = KeysApi(person).keys_create(CreateKeyDto(name="smoke"))
        check(issued.key.startswith(issued.prefix), "the key does not start with its prefix")
        print(f"created key {issued.prefix}")

    # The API key (X-API-Key) runs jobs.
    configuration = docconv_client.Configuration(host=base_url, api_key={"api_key": issued.key})
    with docconv_client.ApiClient(configuration) as program:
        jobs = JobsApi(program)
        account = AccountApi(program)
        before = account.account_account().points_balance

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "smoke.md")
            with open(path, "w", encoding="utf-8") as file:
                file.write(f"# {MARKER}\n\n| Item | Count |\n| --- | --- |\n| Pages | 1 |\n")
            with open(path, "rb") as file:
                preview = jobs.jobs_upload(files=[("smoke.md", file.read())], ocr_model="basic")
        check(preview.status == "pending", f"the upload is {preview.status}, not pending")
        points = preview.cost.points
        check(points >= 0, "the quote is negative")
        job_id = preview.job_id
        print(f"uploaded job {job_id}: {preview.total_pages} page(s), quote {points} points")

        confirmed = jobs.jobs_confirm(job_id)
        check(confirmed.status == "queued", f"the confirmed job is {confirmed.status}, not queued")
        print(f"confirmed: {confirmed.remaining_points} points left")

        job = wait_for_job(program, job_id, timeout=120)
        check(job.status == "done", f"the job ended {job.status}: {job.error_log}")
        print(f"job done: {job.done_pages}/{job.total_pages} pages")

        markdown = jobs.jobs_download(job_id).decode("utf-8")
        check(MARKER in markdown, "the Markdown lacks the uploaded heading")
        print(f"downloaded Markdown: {len(markdown)} characters")

        # The result page by page as it was delivered (a file without pages is one page): joined, the Markdown.
        pages = [event for event in follow_job(program, job_id) if event.type == "page"]
        check("".join(event.data["markdown"] for event in pages) == markdown, "the pages joined are not the Markdown")
        print(f"followed {len(pages)} page(s), ids {pages[0].id}…{pages[-1].id}")

        structured = download_structured(program, job_id)
        check(structured.blocks[0].type == "heading", "the structured result does not open with the heading")
        chunks = list(iter_chunks(program, job_id, max_tokens=64))
        check(len(chunks) > 0 and chunks[0].heading_path[:1] == [MARKER], "the chunks do not start under the heading")
        print(f'chunks: {len(chunks)} under "{chunks[0].heading_path[0]}"')

        # A refusal is a typed error carrying its problem's fields.
        try:
            list(iter_chunks(program, job_id, max_tokens=64, overlap_tokens=60))
            raise Mismatch("an overlap over half of max_tokens was accepted")
        except ValidationFailed as error:
            check(error.status == 400 and error.detail in str(error), f"the refusal reads {error}")
            print(f"refused with its detail: {error.detail}")

        conversion = jobs.jobs_convert(job_id, ConvertDto(format="docx"))
        check(conversion.format == "docx", f"the conversion is {conversion.format}")
        # The link is signed and needs no credential; without a public URL configured it is
        # path-absolute, resolved against the address the API was called at.
        response = program.rest_client.request("GET", urljoin(f"{base_url}/", conversion.download_url))
        check(response.status == 200, f"the DOCX link answered {response.status}")
        docx = response.read()
        check(docx[:2] == b"PK", "the DOCX is not a ZIP package")
        print(f"converted to DOCX: {len(docx)} bytes")

        after = account.account_account()
        check(after.points_balance == before - points, f"the balance is {after.points_balance}, not {before} - {points}")
        print(f"balance: {after.points_balance} points")

    print("python smoke: ok")


if __name__ == "__main__":
    try:
        main()
    except Mismatch as mismatch:
        print(f"python smoke: FAILED: {mismatch}", file=sys.stderr)
        sys.exit(1)
    except ApiException as error:
        print(f"python smoke: FAILED: HTTP {error.status}: {error.body}", file=sys.stderr)
        sys.exit(1)
    except DocconvError as error:
        print(f"python smoke: FAILED: {error}", file=sys.stderr)
        sys.exit(1)

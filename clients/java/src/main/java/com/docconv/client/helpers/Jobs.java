package com.docconv.client.helpers;

import com.docconv.client.ApiClient;
import com.docconv.client.ApiException;
import com.docconv.client.api.JobsApi;
import com.docconv.client.model.ChunkList;
import com.docconv.client.model.ChunkListChunksInner;
import com.docconv.client.model.JobResponse;
import com.docconv.client.model.StructuredResult;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Waiting for a job, following its events, its structured result parsed, and its chunks, over the
 * generated client. Written by hand; kept when the SDK is regenerated.
 */
public final class Jobs {
  private static final Set<JobResponse.StatusEnum> FINISHED =
      Set.of(JobResponse.StatusEnum.DONE, JobResponse.StatusEnum.ERROR, JobResponse.StatusEnum.CANCELLED);

  private Jobs() {}

  /**
   * Waits until the job is done, failed or cancelled and returns that last record (a failed job is
   * returned, not thrown). It follows the job's event stream, so a job of hours costs a few
   * requests; a 429 waits out its Retry-After and a broken connection is followed again, until
   * {@code timeout}. {@code onStatus}, when not null, gets each status the job takes.
   */
  public static JobResponse waitForJob(ApiClient client, UUID jobId, Duration timeout, Consumer<String> onStatus)
      throws ProblemException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    JobsApi jobs = new JobsApi(client);
    String last = null;
    while (true) {
      JobResponse job;
      try {
        job = jobs.jobsGet(jobId);
      } catch (ApiException error) {
        ProblemException problem = ProblemException.of(error);
        if (problem.status != 429 && problem.status < 500 && problem.status != 0) throw problem;
        pause(deadline, problem.retryAfter > 0 ? problem.retryAfter * 1000 : 5000, jobId);
        continue;
      }
      String status = job.getStatus().getValue();
      if (onStatus != null && !status.equals(last)) onStatus.accept(status);
      last = status;
      if (FINISHED.contains(job.getStatus())) return job;
      if (job.getStatus() == JobResponse.StatusEnum.PENDING) {
        throw new IllegalStateException("Job " + jobId + " is pending: confirm it before waiting for it.");
      }
      try {
        follow(client, jobId);
        pause(deadline, 1000, jobId);
      } catch (IOException broken) {
        pause(deadline, 5000, jobId);
      }
    }
  }

  private static void pause(long deadline, long millis, UUID jobId) throws InterruptedException {
    if (System.nanoTime() + millis * 1_000_000 > deadline) {
      throw new IllegalStateException("Job " + jobId + " did not finish in time.");
    }
    Thread.sleep(millis);
  }

  /** Reads the job's Server-Sent Events until the service ends the stream (once the job is finished). */
  private static void follow(ApiClient client, UUID jobId) throws IOException, InterruptedException {
    events(client, jobId, null, (event, id, data) -> {});
  }

  /**
   * A page of a job's result as the service delivers it while the job runs, final: joined in
   * {@code seq} order, a job's pages are its result Markdown. {@code page} is null for a file
   * delivered whole; {@code id} is what to give {@link #followPages} to follow again after it.
   */
  public static final class DeliveredPage {
    public final long seq;
    public final long retry;
    public final String file;
    public final Long page;
    public final String markdown;
    public final String id;

    DeliveredPage(long seq, long retry, String file, Long page, String markdown, String id) {
      this.seq = seq;
      this.retry = retry;
      this.file = file;
      this.page = page;
      this.markdown = markdown;
      this.id = id;
    }
  }

  /**
   * Reads the job's event stream until the service ends it (once the job is done, failed or
   * cancelled), handing each page of the result to {@code onPage} as it is delivered: those after
   * {@code lastEventId} (the id of the last page received before; null for all of them), each once.
   */
  public static void followPages(ApiClient client, UUID jobId, String lastEventId, Consumer<DeliveredPage> onPage)
      throws IOException, InterruptedException {
    events(client, jobId, lastEventId, (event, id, data) -> {
      if (!event.equals("page")) return;
      JsonNode page = client.getObjectMapper().readTree(data);
      onPage.accept(new DeliveredPage(page.path("seq").asLong(), page.path("retry").asLong(), page.path("file").asText(),
          page.path("page").isNull() ? null : page.path("page").asLong(), page.path("markdown").asText(), id));
    });
  }

  private interface EventHandler {
    void accept(String event, String id, String data) throws IOException;
  }

  /** Reads the job's Server-Sent Events (after {@code lastEventId}, when given) until the service ends the stream. */
  private static void events(ApiClient client, UUID jobId, String lastEventId, EventHandler onEvent)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(client.getBaseUri() + "/api/v1/jobs/" + jobId + "/events"))
        .header("Accept", "text/event-stream")
        .GET();
    if (lastEventId != null) request.header("Last-Event-ID", lastEventId);
    if (client.getRequestInterceptor() != null) client.getRequestInterceptor().accept(request);
    HttpResponse<InputStream> response = client.getHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      if (response.statusCode() >= 300) throw new IOException("the event stream answered " + response.statusCode());
      String event = "";
      String id = "";
      StringBuilder data = new StringBuilder();
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isEmpty()) {
          if (data.length() > 0) onEvent.accept(event, id, data.substring(0, data.length() - 1));
          event = "";
          data.setLength(0);
          continue;
        }
        if (line.startsWith(":")) continue;
        int colon = line.indexOf(':');
        String name = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
        if (name.equals("event")) event = value;
        else if (name.equals("data")) data.append(value).append('\n');
        else if (name.equals("id")) id = value;
      }
    }
  }

  /** A finished job's structured result (GET /api/v1/jobs/{job_id}/download?format=json), parsed. */
  public static StructuredResult downloadStructured(ApiClient client, UUID jobId) throws ProblemException, IOException {
    try {
      java.io.File saved = new JobsApi(client).jobsDownload(jobId, "json", null);
      try {
        return client.getObjectMapper().readValue(saved, StructuredResult.class);
      } finally {
        Files.deleteIfExists(saved.toPath());
      }
    } catch (ApiException error) {
      throw ProblemException.of(error);
    }
  }

  /** Every chunk of a finished job's result, in reading order, fetched a page at a time. */
  public static List<ChunkListChunksInner> allChunks(ApiClient client, UUID jobId, String strategy, long maxTokens, long overlapTokens)
      throws ProblemException {
    JobsApi jobs = new JobsApi(client);
    List<ChunkListChunksInner> chunks = new ArrayList<>();
    String cursor = null;
    do {
      ChunkList page;
      try {
        page = jobs.jobsChunks(jobId, strategy, maxTokens, overlapTokens, 1000L, cursor);
      } catch (ApiException error) {
        throw ProblemException.of(error);
      }
      chunks.addAll(page.getChunks());
      cursor = page.getNextCursor();
    } while (cursor != null);
    return chunks;
  }
}

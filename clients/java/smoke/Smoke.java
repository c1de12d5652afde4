import com.docconv.client.ApiClient;
import com.docconv.client.ApiException;
import com.docconv.client.helpers.Jobs;
import com.docconv.client.helpers.ProblemException;
import com.docconv.client.model.ChunkListChunksInner;
import com.docconv.client.model.StructuredResult;
import com.docconv.client.model.StructuredResultBlocksInner;
import java.time.Duration;
import com.docconv.client.api.AccountApi;
import com.docconv.client.api.AuthApi;
import com.docconv.client.api.JobsApi;
import com.docconv.client.api.KeysApi;
import com.docconv.client.model.AccountResponse;
import com.docconv.client.model.ConfirmResponse;
import com.docconv.client.model.ConversionResponse;
import com.docconv.client.model.ConvertDto;
import com.docconv.client.model.CreateKeyDto;
import com.docconv.client.model.CredentialsDto;
import com.docconv.client.model.IssuedKeyResponse;
import com.docconv.client.model.JobResponse;
import com.docconv.client.model.PreviewResponse;
import com.docconv.client.model.Problem;
import com.docconv.client.model.SignupResponse;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * The whole flow against a running docconv with the generated Java SDK.
 *
 * <pre>
 * cd clients/java &amp;&amp; mvn -q compile
 * DOCCONV_URL=http://127.0.0.1:3000 java -cp target/classes:$(cat target/classpath.txt) smoke/Smoke.java
 * </pre>
 *
 * <p>Signs up, creates an API key, uploads a Markdown file it writes itself, confirms the quote, waits for
 * the job, downloads the Markdown, converts it to DOCX and fetches the file, reads the balance and provokes
 * a wrong-password error. Prints one line per step; exits 1 on the first mismatch.
 */
public final class Smoke {
  private static final String MARKER = "Smoke test from Java";

  private static final class Mismatch extends Exception {
    Mismatch(String message) {
      super(message);
    }
  }

  private static void check(boolean condition, String what) throws Mismatch {
    if (!condition) throw new Mismatch(what);
  }

  /** A client of the service; the interceptor adds the credential, if any, to every request. */
  private static ApiClient client(String baseUrl, String header, String value) {
    ApiClient client = new ApiClient();
    client.updateBaseUri(baseUrl);
    if (header != null) client.setRequestInterceptor(request -> request.header(header, value));
    return client;
  }

  private static void run(String baseUrl) throws Exception {
    String email = "smoke-java-" + UUID.randomUUID().toString().substring(0, 12) + "@example.test";
    String password = "correct horse battery staple";

    // Public calls: no credential.
    ApiClient anonymous = client(baseUrl, null, null);
    AuthApi auth = new AuthApi(anonymous);
    SignupResponse session = auth.authSignup(new CredentialsDto().email(email).password(password));
    check(!session.getAccessToken().isEmpty(), "signup returned no session token");
    System.out.println("signed up " + session.getEmail());

    // A wrong password is a problem+json 401 whose code says why.
    try {
      auth.authLogin(new CredentialsDto().email(email).password("not the password"));
      throw new Mismatch("a wrong password logged in");
    } catch (ApiException error) {
      check(error.getCode() == 401, "a wrong password answered " + error.getCode() + ", not 401");
      Problem problem = anonymous.getObjectMapper().readValue(error.getResponseBody(), Problem.class);
      switch (problem.getCode()) {
        case INVALID_CREDENTIALS:
          System.out.println("wrong password refused: " + problem.getStatus() + " " + problem.getCode().getValue());
          break;
        default:
          throw new Mismatch("a wrong password gave the code " + problem.getCode().getValue());
      }
    }

    // The session token (Authorization: Bearer) manages keys.
    ApiClient person = client(baseUrl, "Authorization", "Bearer " + session.getAccessToken());
    IssuedKeyResponse issued = new KeysApi(person).keysCreate(new CreateKeyDto().name("smoke"));
    check(issued.getKey().startsWith(issued.getPrefix()), "the key does not start with its prefix");
    System.out.println("created key " + issued.getPrefix());

    // The API key (X-API-Key) runs jobs.
    ApiClient program = client(baseUrl, "X-API-Key", issued.getKey());
    JobsApi jobs = new JobsApi(program);
    AccountApi account = new AccountApi(program);
    long before = account.accountAccount().getPointsBalance();

    Path folder = Files.createTempDirectory("docconv-smoke-");
    Path file = folder.resolve("smoke.md");
    Files.writeString(file, "# " + MARKER + "\n\n| Item | Count |\n| --- | --- |\n| Pages | 1 |\n");
    PreviewResponse preview;
    try {
      preview = jobs.jobsUpload(List.of(file.toFile()), null, "basic", null, null, null, null, null, null, null, null, null);
    } finally {
      Files.delete(file);
      Files.delete(folder);
    }
    check(preview.getStatus() == PreviewResponse.StatusEnum.PENDING, "the upload is " + preview.getStatus());
    long points = preview.getCost().getPoints();
    check(points >= 0, "the quote is negative");
    UUID jobId = preview.getJobId();
    System.out.println(
        "uploaded job " + jobId + ": " + preview.getTotalPages() + " page(s), quote " + points + " points");

    ConfirmResponse confirmed = jobs.jobsConfirm(jobId, null);
    check(confirmed.getStatus() == ConfirmResponse.StatusEnum.QUEUED, "the confirmed job is " + confirmed.getStatus());
    System.out.println("confirmed: " + confirmed.getRemainingPoints() + " points left");

    JobResponse job = Jobs.waitForJob(program, jobId, Duration.ofSeconds(120), null);
    check(job.getStatus() == JobResponse.StatusEnum.DONE, "the job ended " + job.getStatus() + ": " + job.getErrorLog());
    System.out.println("job done: " + job.getDonePages() + "/" + job.getTotalPages() + " pages");

    // The client saves a download to a temporary file.
    File saved = jobs.jobsDownload(jobId, null, null);
    String markdown = Files.readString(saved.toPath(), StandardCharsets.UTF_8);
    Files.delete(saved.toPath());
    check(markdown.contains(MARKER), "the Markdown lacks the uploaded heading");
    System.out.println("downloaded Markdown: " + markdown.length() + " characters");

    // The result page by page as it was delivered (a file without pages is one page): joined, the Markdown.
    List<Jobs.DeliveredPage> followed = new java.util.ArrayList<>();
    Jobs.followPages(program, jobId, null, followed::add);
    StringBuilder joined = new StringBuilder();
    for (Jobs.DeliveredPage page : followed) joined.append(page.markdown);
    check(!followed.isEmpty() && joined.toString().equals(markdown), "the pages followed do not join into the Markdown");
    System.out.println("followed " + followed.size() + " page(s), ids " + followed.get(0).id + "…" + followed.get(followed.size() - 1).id);

    StructuredResult structured = Jobs.downloadStructured(program, jobId);
    check(structured.getBlocks().get(0).getType() == StructuredResultBlocksInner.TypeEnum.HEADING, "the structured result does not open with the heading");
    List<ChunkListChunksInner> chunks = Jobs.allChunks(program, jobId, "structure", 64, 0);
    check(!chunks.isEmpty() && chunks.get(0).getHeadingPath().get(0).equals(MARKER), "the chunks do not start under the heading");
    System.out.println("chunks: " + chunks.size() + " under \"" + chunks.get(0).getHeadingPath().get(0) + "\"");

    // A refusal is a Problem carrying the problem's fields.
    try {
      Jobs.allChunks(program, jobId, "structure", 64, 60);
      throw new Mismatch("an overlap over half of max_tokens was accepted");
    } catch (ProblemException refusal) {
      check(refusal.status == 400 && refusal.getMessage().contains(refusal.detail), "the refusal reads " + refusal.getMessage());
      System.out.println("refused with its detail: " + refusal.detail);
    }

    ConversionResponse conversion = jobs.jobsConvert(jobId, new ConvertDto().format(ConvertDto.FormatEnum.DOCX), null);
    check(conversion.getFormat() == ConversionResponse.FormatEnum.DOCX, "the conversion is " + conversion.getFormat());
    // The link is signed and needs no credential; without a public URL configured it is
    // path-absolute, resolved against the address the API was called at.
    URI link = URI.create(baseUrl + "/").resolve(conversion.getDownloadUrl());
    HttpResponse<byte[]> fetched =
        anonymous.getHttpClient().send(HttpRequest.newBuilder(link).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    byte[] docx = fetched.body();
    check(fetched.statusCode() == 200 && docx.length > 2 && docx[0] == 'P' && docx[1] == 'K',
        "the DOCX link answered " + fetched.statusCode() + " with no ZIP package");
    System.out.println("converted to DOCX: " + docx.length + " bytes");

    AccountResponse after = account.accountAccount();
    check(after.getPointsBalance() == before - points,
        "the balance is " + after.getPointsBalance() + ", not " + before + " - " + points);
    System.out.println("balance: " + after.getPointsBalance() + " points");
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    String baseUrl = System.getenv("DOCCONV_URL");
    if (baseUrl == null || baseUrl.isEmpty()) {
      System.err.println("java smoke: FAILED: DOCCONV_URL is not set");
      System.exit(1);
    }
    try {
      // DOCCONV_WAIT_JOB: only waits for that job with DOCCONV_API_KEY (the reliability suite's long wait).
      String waitFor = System.getenv("DOCCONV_WAIT_JOB");
      if (waitFor != null && !waitFor.isEmpty()) {
        ApiClient program = client(baseUrl.replaceAll("/+$", ""), "X-API-Key", System.getenv("DOCCONV_API_KEY"));
        JobResponse job = Jobs.waitForJob(program, UUID.fromString(waitFor), Duration.ofMinutes(10), null);
        System.out.println("waited: " + job.getStatus().getValue());
        return;
      }
      run(baseUrl.replaceAll("/+$", ""));
    } catch (Mismatch mismatch) {
      System.err.println("java smoke: FAILED: " + mismatch.getMessage());
      System.exit(1);
    } catch (ApiException error) {
      System.err.println("java smoke: FAILED: HTTP " + error.getCode() + ": " + error.getResponseBody());
      System.exit(1);
    } catch (Exception error) {
      System.err.println("java smoke: FAILED: " + error);
      System.exit(1);
    }
    System.out.println("java smoke: ok");
  }
}

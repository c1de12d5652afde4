package com.docconv.client.helpers;

import com.docconv.client.ApiException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A refusal of the service as its problem+json body says it (RFC 9457): the HTTP status, a stable
 * code, a title, a detail a person can act on, the field errors of a 400, and for a 429 the
 * seconds to wait (Retry-After). Written by hand; kept when the SDK is regenerated.
 */
public final class ProblemException extends Exception {
  public final int status;
  public final String code;
  public final String title;
  public final String detail;
  public final List<Map.Entry<String, String>> errors;
  /** Seconds the service asked to wait before trying again, or 0. */
  public final long retryAfter;

  private ProblemException(int status, String code, String title, String detail, List<Map.Entry<String, String>> errors, long retryAfter, Throwable cause) {
    super(status + " " + code + ": " + title + ": " + detail, cause);
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }

  /** The problem behind a generated call's ApiException (its title and detail, or the bare status when the body is not a problem). */
  public static ProblemException of(ApiException error) {
    String code = "http_" + error.getCode();
    String title = "HTTP " + error.getCode();
    String detail = error.getResponseBody() == null ? "" : error.getResponseBody();
    List<Map.Entry<String, String>> errors = new ArrayList<>();
    try {
      JsonNode body = new ObjectMapper().readTree(error.getResponseBody());
      if (body != null && body.isObject()) {
        code = body.path("code").asText(code);
        title = body.path("title").asText(title);
        detail = body.path("detail").asText(detail);
        for (JsonNode field : body.path("errors")) errors.add(Map.entry(field.path("field").asText(), field.path("message").asText()));
      }
    } catch (Exception notJson) {
      // the body as it came stands in for the detail
    }
    long retryAfter = 0;
    if (error.getResponseHeaders() != null) {
      retryAfter = error.getResponseHeaders().firstValue("Retry-After").map(value -> value.trim().matches("\\d+") ? Long.parseLong(value.trim()) : 0L).orElse(0L);
    }
    return new ProblemException(error.getCode(), code, title, detail, errors, retryAfter, error);
  }
}

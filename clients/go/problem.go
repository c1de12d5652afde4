package docconv

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// problemMessage is the text of a refusal's error: the HTTP status, then the problem's code,
// title and detail (RFC 9457 problem+json) when the body is one, so that err.Error() says what
// went wrong and what to do, whatever the status and whether or not this SDK's types know it.
func problemMessage(status string, body []byte) string {
	var problem struct {
		Title  string `json:"title"`
		Detail string `json:"detail"`
		Code   string `json:"code"`
	}
	if json.Unmarshal(body, &problem) != nil || (problem.Title == "" && problem.Detail == "") {
		return status
	}
	parts := []string{status}
	if problem.Code != "" {
		parts = append(parts, problem.Code)
	}
	if problem.Title != "" {
		parts = append(parts, problem.Title)
	}
	text := strings.Join(parts, ": ")
	if problem.Detail != "" {
		text += ": " + problem.Detail
	}
	return text
}

// APIProblem is a refusal of the service as its problem+json body says it: the HTTP status, a
// stable code, a title, a detail a person can act on, field errors of a 400, and for a 429 the
// seconds to wait (Retry-After).
type APIProblem struct {
	Status     int
	Code       string
	Title      string
	Detail     string
	Errors     []FieldError
	RetryAfter int
}

func (p *APIProblem) Error() string {
	return fmt.Sprintf("%d %s: %s: %s", p.Status, p.Code, p.Title, p.Detail)
}

// ProblemOf is the problem behind an error a call of this SDK returned, given the *http.Response
// it returned beside it; nil when the error carries no problem+json body (a network failure).
func ProblemOf(err error, response *http.Response) *APIProblem {
	var generic *GenericOpenAPIError
	if !errors.As(err, &generic) {
		return nil
	}
	var body struct {
		Title  string       `json:"title"`
		Detail string       `json:"detail"`
		Code   string       `json:"code"`
		Errors []FieldError `json:"errors"`
	}
	if json.Unmarshal(generic.Body(), &body) != nil || body.Code == "" {
		return nil
	}
	status, seconds := 0, 0
	if response != nil {
		status = response.StatusCode
		seconds, _ = strconv.Atoi(strings.TrimSpace(response.Header.Get("Retry-After")))
	}
	return &APIProblem{Status: status, Code: body.Code, Title: body.Title, Detail: body.Detail, Errors: body.Errors, RetryAfter: seconds}
}

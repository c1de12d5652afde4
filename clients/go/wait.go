package docconv

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// finished says whether a job's status is one it leaves no more by itself.
func finished(status string) bool {
	return status == "done" || status == "error" || status == "cancelled"
}

// WaitForJob waits until the job is done, failed or cancelled and returns that last record; a
// failed job is returned, not an error, so the caller can read its ErrorLog and Refundable. A
// pending job is refused at once: it only moves when confirmed. ctx carries the credential (as
// for every call) and bounds the wait. onProgress, when not nil, gets each status the job takes.
//
// It follows the job's event stream (GET /api/v1/jobs/{job_id}/events), so a job of hours costs a
// few requests, well inside any key's rate limit: a stream that ends early is followed again
// after the job is read. A 429 waits out its Retry-After; an unreachable service is tried again.
func WaitForJob(ctx context.Context, client *APIClient, jobID string, onProgress func(status string)) (*JobResponse, error) {
	last := ""
	seen := func(status string) {
		if status != last && onProgress != nil {
			onProgress(status)
		}
		last = status
	}
	for {
		job, response, err := client.JobsAPI.JobsGet(ctx, jobID).Execute()
		if err != nil {
			if pause := retryAfter(err, response); pause > 0 {
				if waitErr := sleep(ctx, pause); waitErr != nil {
					return nil, waitErr
				}
				continue
			}
			return nil, err
		}
		if finished(job.Status) {
			seen(job.Status)
			return job, nil
		}
		if job.Status == "pending" {
			return nil, fmt.Errorf("job %s is pending: confirm it before waiting for it", jobID)
		}
		seen(job.Status)
		err = followEvents(ctx, client, jobID, func(status string) {
			if !finished(status) {
				seen(status)
			}
		})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The stream ended (the job finished, or the connection was cut): the job is read again.
		pause := time.Second
		if err != nil {
			var problem *APIProblem
			if errors.As(err, &problem) && problem.Status != http.StatusTooManyRequests && problem.Status < 500 {
				return nil, problem
			}
			pause = 5 * time.Second
			if problem != nil && problem.RetryAfter > 0 {
				pause = time.Duration(problem.RetryAfter) * time.Second
			}
		}
		if waitErr := sleep(ctx, pause); waitErr != nil {
			return nil, waitErr
		}
	}
}

// retryAfter is how long to wait before trying a call again that failed with err: a 429's
// Retry-After, 5 s for an unavailable or unreachable service, 0 for a failure that will not pass.
func retryAfter(err error, response *http.Response) time.Duration {
	if problem := ProblemOf(err, response); problem != nil {
		switch {
		case problem.Status == http.StatusTooManyRequests && problem.RetryAfter > 0:
			return time.Duration(problem.RetryAfter) * time.Second
		case problem.Status == http.StatusTooManyRequests || problem.Status >= 502:
			return 5 * time.Second
		default:
			return 0
		}
	}
	var urlError *url.Error
	if errors.As(err, &urlError) {
		return 5 * time.Second
	}
	return 0
}

func sleep(ctx context.Context, pause time.Duration) error {
	timer := time.NewTimer(pause)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// DeliveredPage is a page of a job's result as the service delivers it while the job runs (a
// `page` event), final: joined in Seq order, a job's pages are its result Markdown.
type DeliveredPage struct {
	Seq      int64  `json:"seq"`
	Retry    int64  `json:"retry"`
	File     string `json:"file"`
	Page     *int64 `json:"page"`
	Markdown string `json:"markdown"`
	// ID is the event's id: pass it as lastEventID to follow again after this page.
	ID string `json:"-"`
}

// FollowPages reads the job's event stream until the service ends it (once the job is done,
// failed or cancelled), handing each page of the result to onPage as it is delivered: those after
// lastEventID (the ID of the last page received before; empty for all of them), each once.
func FollowPages(ctx context.Context, client *APIClient, jobID, lastEventID string, onPage func(DeliveredPage)) error {
	return readEvents(ctx, client, jobID, lastEventID, func(event, id string, data []byte) {
		if event != "page" {
			return
		}
		var page DeliveredPage
		if json.Unmarshal(data, &page) == nil {
			page.ID = id
			onPage(page)
		}
	})
}

// followEvents reads the job's Server-Sent Events as they come, handing the status each carries
// to onStatus, until the service ends the stream.
func followEvents(ctx context.Context, client *APIClient, jobID string, onStatus func(status string)) error {
	return readEvents(ctx, client, jobID, "", func(event, _ string, data []byte) {
		var snapshot struct {
			Status string `json:"status"`
		}
		if (event == "status" || event == "progress") && json.Unmarshal(data, &snapshot) == nil && snapshot.Status != "" {
			onStatus(snapshot.Status)
		}
	})
}

// readEvents reads the job's Server-Sent Events (after lastEventID, when given) until the service
// ends the stream, handing each event's name, id and data to onEvent.
func readEvents(ctx context.Context, client *APIClient, jobID, lastEventID string, onEvent func(event, id string, data []byte)) error {
	base, err := client.GetConfig().ServerURLWithContext(ctx, "JobsAPIService.JobsEvents")
	if err != nil {
		return err
	}
	path := base + "/api/v1/jobs/" + url.PathEscape(jobID) + "/events"
	// The credential travels in ctx, as for every call: an API key (a session token is applied by prepareRequest).
	headers := map[string]string{"Accept": "text/event-stream"}
	if lastEventID != "" {
		headers["Last-Event-ID"] = lastEventID
	}
	if auth, ok := ctx.Value(ContextAPIKeys).(map[string]APIKey); ok {
		if apiKey, ok := auth["api_key"]; ok {
			headers["X-API-Key"] = strings.TrimSpace(apiKey.Prefix + " " + apiKey.Key)
		}
	}
	request, err := client.prepareRequest(ctx, path, http.MethodGet, nil, headers, url.Values{}, url.Values{}, nil)
	if err != nil {
		return err
	}
	response, err := client.callAPI(request)
	if err != nil {
		return err
	}
	defer response.Body.Close()
	if response.StatusCode >= 300 {
		body := make([]byte, 64*1024)
		n, _ := response.Body.Read(body)
		if problem := ProblemOf(&GenericOpenAPIError{body: body[:n], error: response.Status}, response); problem != nil {
			return problem
		}
		return errors.New(response.Status)
	}
	scanner := bufio.NewScanner(response.Body)
	scanner.Buffer(make([]byte, 64*1024), 16*1024*1024)
	event, id, data := "", "", []string{}
	for scanner.Scan() {
		line := strings.TrimSuffix(scanner.Text(), "\r")
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch {
		case line == "":
			if len(data) > 0 {
				onEvent(event, id, []byte(strings.Join(data, "\n")))
			}
			event, data = "", data[:0]
		case strings.HasPrefix(line, ":"):
		case name == "event":
			event = value
		case name == "data":
			data = append(data, value)
		case name == "id":
			id = value
		}
	}
	return scanner.Err()
}

// AllChunks is every chunk of a finished job's result (GET /api/v1/jobs/{job_id}/chunks), fetched a
// page at a time; strategy is "structure" or "page", maxTokens 64 to 8192, overlapTokens at most half of it.
func AllChunks(ctx context.Context, client *APIClient, jobID, strategy string, maxTokens, overlapTokens int64) ([]ChunkListChunksInner, error) {
	var chunks []ChunkListChunksInner
	cursor := ""
	for {
		request := client.JobsAPI.JobsChunks(ctx, jobID).Strategy(strategy).MaxTokens(maxTokens).OverlapTokens(overlapTokens).Limit(1000)
		if cursor != "" {
			request = request.Cursor(cursor)
		}
		page, _, err := request.Execute()
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, page.Chunks...)
		if !page.NextCursor.IsSet() || page.NextCursor.Get() == nil {
			return chunks, nil
		}
		cursor = *page.NextCursor.Get()
	}
}

// DownloadStructured is a finished job's structured result (GET /api/v1/jobs/{job_id}/download?format=json), parsed.
func DownloadStructured(ctx context.Context, client *APIClient, jobID string) (*StructuredResult, error) {
	saved, _, err := client.JobsAPI.JobsDownload(ctx, jobID).Format("json").Execute()
	if err != nil {
		return nil, err
	}
	defer os.Remove(saved.Name())
	defer saved.Close()
	var result StructuredResult
	if err := json.NewDecoder(saved).Decode(&result); err != nil {
		return nil, fmt.Errorf("the structured result of job %s is not what the API documents: %w", jobID, err)
	}
	return &result, nil
}

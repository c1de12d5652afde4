// Command smoke runs the whole flow against a running docconv with the generated Go SDK.
//
//	DOCCONV_URL=http://127.0.0.1:3000 go run ./smoke   (in clients/go)
//
// It signs up, creates an API key, uploads a Markdown file it writes itself, confirms the quote,
// waits for the job, downloads the Markdown, converts it to DOCX and fetches the file, reads the
// balance and provokes a wrong-password error. It prints one line per step and exits 1 on the
// first mismatch.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	docconv "docconv.example/sdk/go"
)

const marker = "Smoke test from Go"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "go smoke: FAILED: %v\n", err)
		os.Exit(1)
	}
	fmt.Println("go smoke: ok")
}

// describe adds the problem+json body of an API error to its message.
func describe(err error) error {
	var apiError *docconv.GenericOpenAPIError
	if errors.As(err, &apiError) {
		return fmt.Errorf("%v: %s", err, apiError.Body())
	}
	return err
}

func run() error {
	baseURL := strings.TrimRight(os.Getenv("DOCCONV_URL"), "/")
	if baseURL == "" {
		return errors.New("DOCCONV_URL is not set")
	}
	configuration := docconv.NewConfiguration()
	configuration.Servers = docconv.ServerConfigurations{{URL: baseURL}}
	client := docconv.NewAPIClient(configuration)
	ctx := context.Background()

	// DOCCONV_WAIT_JOB: only waits for that job with DOCCONV_API_KEY (the reliability suite's long wait).
	if jobID := os.Getenv("DOCCONV_WAIT_JOB"); jobID != "" {
		keyed := context.WithValue(ctx, docconv.ContextAPIKeys, map[string]docconv.APIKey{"api_key": {Key: os.Getenv("DOCCONV_API_KEY")}})
		waiting, cancel := context.WithTimeout(keyed, 10*time.Minute)
		defer cancel()
		job, err := docconv.WaitForJob(waiting, client, jobID, nil)
		if err != nil {
			return fmt.Errorf("wait: %w", err)
		}
		fmt.Printf("waited: %s\n", job.Status)
		return nil
	}

	email := fmt.Sprintf("smoke-go-%d@example.test", time.Now().UnixNano())
	password := "correct horse battery staple"

	// Public calls: no credential.
	session, _, err := client.AuthAPI.AuthSignup(ctx).CredentialsDto(*docconv.NewCredentialsDto(email, password)).Execute()
	if err != nil {
		return fmt.Errorf("signup: %w", describe(err))
	}
	if session.AccessToken == "" {
		return errors.New("signup returned no session token")
	}
	fmt.Printf("signed up %s\n", session.Email)

	// A wrong password is a problem+json 401 whose code says why.
	_, response, err := client.AuthAPI.AuthLogin(ctx).CredentialsDto(*docconv.NewCredentialsDto(email, "not the password")).Execute()
	var apiError *docconv.GenericOpenAPIError
	if !errors.As(err, &apiError) {
		return fmt.Errorf("a wrong password did not fail with an API error: %v", err)
	}
	if response == nil || response.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("a wrong password answered %v, not 401", response)
	}
	problem, isProblem := apiError.Model().(docconv.Problem)
	if !isProblem {
		return fmt.Errorf("the 401 carried no problem+json body: %s", apiError.Body())
	}
	switch problem.Code {
	case docconv.ERRORCODE_INVALID_CREDENTIALS:
		fmt.Printf("wrong password refused: %v %s\n", problem.Status, problem.Code)
	default:
		return fmt.Errorf("a wrong password gave the code %s", problem.Code)
	}

	// The session token (Authorization: Bearer) manages keys.
	asPerson := context.WithValue(ctx, docconv.ContextAccessToken, session.AccessToken)
	createKey := docconv.NewCreateKeyDto()
	createKey.SetName("smoke")
	issued, _, err := client.KeysAPI.KeysCreate(asPerson).CreateKeyDto(*createKey).Execute()
	if err != nil {
		return fmt.Errorf("create key: %w", describe(err))
	}
	if !strings.HasPrefix(issued.Key, issued.Prefix) {
		return errors.New("the key does not start with its prefix")
	}
	fmt.Printf("created key %s\n", issued.Prefix)

	// The API key (X-API-Key) runs jobs.
	asProgram := context.WithValue(ctx, docconv.ContextAPIKeys, map[string]docconv.APIKey{"api_key": {Key: issued.Key}})
	before, _, err := client.AccountAPI.AccountAccount(asProgram).Execute()
	if err != nil {
		return fmt.Errorf("account: %w", describe(err))
	}

	folder, err := os.MkdirTemp("", "docconv-smoke-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(folder)
	path := filepath.Join(folder, "smoke.md")
	content := "# " + marker + "\n\n| Item | Count |\n| --- | --- |\n| Pages | 1 |\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return err
	}
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	preview, _, err := client.JobsAPI.JobsUpload(asProgram).Files([]*os.File{file}).OcrModel("basic").Execute()
	if err != nil {
		return fmt.Errorf("upload: %w", describe(err))
	}
	if preview.Status != "pending" {
		return fmt.Errorf("the upload is %s, not pending", preview.Status)
	}
	points := preview.Cost.Points
	if points < 0 {
		return errors.New("the quote is negative")
	}
	fmt.Printf("uploaded job %s: %v page(s), quote %v points\n", preview.JobId, preview.TotalPages, points)

	confirmed, _, err := client.JobsAPI.JobsConfirm(asProgram, preview.JobId).Execute()
	if err != nil {
		return fmt.Errorf("confirm: %w", describe(err))
	}
	if confirmed.Status != "queued" {
		return fmt.Errorf("the confirmed job is %s, not queued", confirmed.Status)
	}
	fmt.Printf("confirmed: %v points left\n", confirmed.RemainingPoints)

	// The caller's file stays open and whole: it uploads again.
	again, _, err := client.JobsAPI.JobsUpload(asProgram).Files([]*os.File{file}).OcrModel("basic").Execute()
	if err != nil {
		return fmt.Errorf("the same file uploaded again: %w", describe(err))
	}
	if again.TotalFiles != 1 {
		return fmt.Errorf("the same file uploaded again holds %v files", again.TotalFiles)
	}

	waiting, cancel := context.WithTimeout(asProgram, 120*time.Second)
	defer cancel()
	job, err := docconv.WaitForJob(waiting, client, preview.JobId, nil)
	if err != nil {
		return fmt.Errorf("job: %w", describe(err))
	}
	if job.Status != "done" {
		return fmt.Errorf("the job ended %s: %s", job.Status, job.GetErrorLog())
	}
	fmt.Printf("job done: %v/%v pages\n", job.DonePages, job.TotalPages)

	saved, _, err := client.JobsAPI.JobsDownload(asProgram, preview.JobId).Execute()
	if err != nil {
		return fmt.Errorf("download: %w", describe(err))
	}
	// The client saves a download to a temporary file.
	defer os.Remove(saved.Name())
	defer saved.Close()
	downloaded, err := io.ReadAll(saved)
	if err != nil {
		return fmt.Errorf("download: %w", err)
	}
	markdown := string(downloaded)
	if !strings.Contains(markdown, marker) {
		return errors.New("the Markdown lacks the uploaded heading")
	}
	fmt.Printf("downloaded Markdown: %d characters\n", len(markdown))

	// The result page by page as it was delivered (a file without pages is one page): joined, the Markdown.
	var followed []docconv.DeliveredPage
	if err := docconv.FollowPages(asProgram, client, preview.JobId, "", func(page docconv.DeliveredPage) { followed = append(followed, page) }); err != nil {
		return fmt.Errorf("follow: %w", err)
	}
	joined := ""
	for _, page := range followed {
		joined += page.Markdown
	}
	if len(followed) == 0 || joined != markdown {
		return fmt.Errorf("the %d page(s) followed do not join into the Markdown", len(followed))
	}
	fmt.Printf("followed %d page(s), ids %s…%s\n", len(followed), followed[0].ID, followed[len(followed)-1].ID)

	structured, err := docconv.DownloadStructured(asProgram, client, preview.JobId)
	if err != nil || len(structured.Blocks) == 0 || structured.Blocks[0].Type != "heading" {
		return fmt.Errorf("the structured result does not open with the heading: %v", err)
	}

	chunks, err := docconv.AllChunks(asProgram, client, preview.JobId, "structure", 64, 0)
	if err != nil {
		return fmt.Errorf("chunks: %w", describe(err))
	}
	if len(chunks) == 0 || len(chunks[0].HeadingPath) == 0 || chunks[0].HeadingPath[0] != marker {
		return fmt.Errorf("the chunks do not start under the heading %q: %+v", marker, chunks)
	}
	fmt.Printf("chunks: %d under %q\n", len(chunks), chunks[0].HeadingPath[0])

	// A refusal's error says what the problem says.
	_, response, err = client.JobsAPI.JobsChunks(asProgram, preview.JobId).MaxTokens(10).Execute()
	refusal := docconv.ProblemOf(err, response)
	if refusal == nil || refusal.Status != http.StatusBadRequest || !strings.Contains(err.Error(), refusal.Detail) {
		return fmt.Errorf("max_tokens=10 gave %v, not a 400 whose error holds its detail", err)
	}
	fmt.Printf("refused with its detail: %s\n", refusal.Detail)

	conversion, _, err := client.JobsAPI.JobsConvert(asProgram, preview.JobId).ConvertDto(*docconv.NewConvertDto("docx")).Execute()
	if err != nil {
		return fmt.Errorf("convert: %w", describe(err))
	}
	if conversion.Format != "docx" {
		return fmt.Errorf("the conversion is %s", conversion.Format)
	}
	// The link is signed and needs no credential; without a public URL configured it is
	// path-absolute, resolved against the address the API was called at.
	link, err := url.Parse(baseURL + "/")
	if err == nil {
		link, err = link.Parse(conversion.DownloadUrl)
	}
	if err != nil {
		return err
	}
	fetched, err := configuration.HTTPClient.Get(link.String())
	if err != nil {
		return err
	}
	defer fetched.Body.Close()
	docx, err := io.ReadAll(fetched.Body)
	if err != nil {
		return err
	}
	if fetched.StatusCode != http.StatusOK || !bytes.HasPrefix(docx, []byte("PK")) {
		return fmt.Errorf("the DOCX link answered %d with no ZIP package", fetched.StatusCode)
	}
	fmt.Printf("converted to DOCX: %d bytes\n", len(docx))

	after, _, err := client.AccountAPI.AccountAccount(asProgram).Execute()
	if err != nil {
		return fmt.Errorf("account: %w", describe(err))
	}
	if after.PointsBalance != before.PointsBalance-points {
		return fmt.Errorf("the balance is %v, not %v - %v", after.PointsBalance, before.PointsBalance, points)
	}
	fmt.Printf("balance: %v points\n", after.PointsBalance)
	return nil
}

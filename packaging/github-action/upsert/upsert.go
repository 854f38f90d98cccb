// Command upsert puts git convo pr's Markdown report into a pull request:
// one marker-delimited section of its description (the text around it kept
// byte for byte), or one sticky comment. It talks to GitHub's REST API
// with the standard library only, at a base URL given as an input, so it
// is tested against a local server; the composite action runs it with
// `go run`. It never fails the job: every problem is a message and exit 0.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// The markers around the section. The report escapes "<" in outside text,
// so no prompt or title can write them.
const (
	StartMarker = "<!-- git-convo:pr:start -->"
	EndMarker   = "<!-- git-convo:pr:end -->"
)

// bodyLimit is the most characters GitHub keeps in a description or comment.
const bodyLimit = 65536

// Client is a GitHub REST client for one pull request.
type Client struct {
	API    string // base URL: https://api.github.com, or GitHub Enterprise's /api/v3
	Token  string
	Repo   string // owner/name
	Number int
	HTTP   *http.Client
}

// Section is the report between the markers.
func Section(report string) string {
	return StartMarker + "\n" + strings.TrimRight(report, "\n") + "\n" + EndMarker
}

// Splice puts section into body: in place of the old one, else after the
// user's text with a blank line between. Everything outside the markers
// is kept byte for byte.
func Splice(body, section string) string {
	if i := strings.Index(body, StartMarker); i >= 0 {
		if j := strings.Index(body[i:], EndMarker); j >= 0 {
			return body[:i] + section + body[i+j+len(EndMarker):]
		}
		return body[:i] + section // a section someone cut short: replace to the end
	}
	if body == "" {
		return section
	}
	sep := "\n\n"
	if strings.HasSuffix(body, "\n\n") || strings.HasSuffix(body, "\r\n\r\n") {
		sep = ""
	} else if strings.HasSuffix(body, "\n") {
		sep = "\n"
	}
	return body + sep + section
}

// fit shortens the section when the whole body would pass GitHub's limit.
func fit(body, report, where string) string {
	out := Splice(body, Section(report))
	if utf8.RuneCountInString(out) <= bodyLimit {
		return out
	}
	return Splice(body, Section("git-convo: the report does not fit in the description beside its text; "+where+"."))
}

// Error is a failed API call, with GitHub's status.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("GitHub API: %d %s", e.Status, e.Msg) }

func (c *Client) do(method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(c.API, "/")+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if resp.StatusCode/100 != 2 {
		var m struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(b, &m)
		return &Error{Status: resp.StatusCode, Msg: m.Message}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// Description upserts the section in the pull request's description. It
// writes nothing when the description already holds this report.
func (c *Client) Description(report, where string) (changed bool, err error) {
	var pr struct {
		Body *string `json:"body"`
	}
	path := fmt.Sprintf("/repos/%s/pulls/%d", c.Repo, c.Number)
	if err := c.do("GET", path, nil, &pr); err != nil {
		return false, err
	}
	old := ""
	if pr.Body != nil {
		old = *pr.Body
	}
	body := fit(old, report, where)
	if body == old {
		return false, nil
	}
	return true, c.do("PATCH", path, map[string]string{"body": body}, nil)
}

// Comment upserts one sticky comment: the pull request's comment that
// holds the start marker is edited, else one is added.
func (c *Client) Comment(report, where string) (changed bool, err error) {
	type comment struct {
		ID   int64  `json:"id"`
		Body string `json:"body"`
	}
	for page := 1; page <= 50; page++ {
		var list []comment
		if err := c.do("GET", fmt.Sprintf("/repos/%s/issues/%d/comments?per_page=100&page=%d", c.Repo, c.Number, page), nil, &list); err != nil {
			return false, err
		}
		for _, cm := range list {
			if strings.Contains(cm.Body, StartMarker) {
				body := fit("", report, where)
				if body == cm.Body {
					return false, nil
				}
				return true, c.do("PATCH", fmt.Sprintf("/repos/%s/issues/comments/%d", c.Repo, cm.ID), map[string]string{"body": body}, nil)
			}
		}
		if len(list) < 100 {
			break
		}
	}
	return true, c.do("POST", fmt.Sprintf("/repos/%s/issues/%d/comments", c.Repo, c.Number), map[string]string{"body": fit("", report, where)}, nil)
}

// Why says, for a person reading the job's log, what a failure means.
func Why(err error) string {
	if e, ok := err.(*Error); ok && (e.Status == 403 || e.Status == 404) {
		return fmt.Sprintf("%v: the token cannot write to this pull request (a fork's pull request gets a read-only token; "+
			"permissions: pull-requests: write is needed). The report is in the job summary only.", err)
	}
	return fmt.Sprintf("%v: the report is in the job summary only.", err)
}

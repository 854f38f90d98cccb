package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeGitHub stands in for the REST endpoints upsert uses, under a
// GitHub Enterprise-like prefix, and records what was sent.
type fakeGitHub struct {
	mu       sync.Mutex
	body     string
	comments map[int64]string
	nextID   int64
	calls    []string // "METHOD path"
	sent     []string // bodies sent
	readOnly bool
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer t0ken" || r.Header.Get("Accept") != "application/vnd.github+json" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	var in struct {
		Body string `json:"body"`
	}
	if r.Method != "GET" {
		if f.readOnly {
			w.WriteHeader(403)
			io.WriteString(w, `{"message":"Resource not accessible by integration"}`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &in); err != nil {
			http.Error(w, "bad json", 400)
			return
		}
		f.sent = append(f.sent, in.Body)
	}
	switch p := r.URL.Path; {
	case p == "/api/v3/repos/o/r/pulls/7" && r.Method == "GET":
		json.NewEncoder(w).Encode(map[string]any{"number": 7, "body": f.body})
	case p == "/api/v3/repos/o/r/pulls/7" && r.Method == "PATCH":
		f.body = in.Body
		json.NewEncoder(w).Encode(map[string]any{"number": 7})
	case p == "/api/v3/repos/o/r/issues/7/comments" && r.Method == "GET":
		list := []map[string]any{{"id": 1, "body": "LGTM, a person's comment"}}
		for id, b := range f.comments {
			list = append(list, map[string]any{"id": id, "body": b})
		}
		json.NewEncoder(w).Encode(list)
	case p == "/api/v3/repos/o/r/issues/7/comments" && r.Method == "POST":
		f.nextID++
		f.comments[100+f.nextID] = in.Body
		w.WriteHeader(201)
		io.WriteString(w, "{}")
	case strings.HasPrefix(p, "/api/v3/repos/o/r/issues/comments/") && r.Method == "PATCH":
		var id int64
		for _, c := range strings.TrimPrefix(p, "/api/v3/repos/o/r/issues/comments/") {
			id = id*10 + int64(c-'0')
		}
		if _, ok := f.comments[id]; !ok {
			http.NotFound(w, r)
			return
		}
		f.comments[id] = in.Body
		io.WriteString(w, "{}")
	default:
		http.NotFound(w, r)
	}
}

func client(t *testing.T, f *fakeGitHub) *Client {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return &Client{API: srv.URL + "/api/v3/", Token: "t0ken", Repo: "o/r", Number: 7}
}

func TestUpsertDescriptionKeepsUserText(t *testing.T) {
	before := "## What\r\nFixes the *thing*.\r\n\r\n- [ ] tested  \n"
	f := &fakeGitHub{body: before}
	c := client(t, f)
	changed, err := c.Description("report one\n", "see the job summary")
	if err != nil || !changed {
		t.Fatalf("first run: %v %v", changed, err)
	}
	if !strings.HasPrefix(f.body, before) || !strings.HasSuffix(f.body, Section("report one")) {
		t.Fatalf("first run wrote %q", f.body)
	}
	// The user edits around the section; the second run replaces the
	// section only.
	userText := strings.TrimSuffix(f.body, Section("report one")) // before, and the blank line run one put after it
	after := "\n\nThanks!\r\n<!-- a user's own comment -->\n"
	f.body = "Edited intro ✓\r\n" + f.body + after
	changed, err = c.Description("report two\n", "see the job summary")
	if err != nil || !changed {
		t.Fatalf("second run: %v %v", changed, err)
	}
	want := "Edited intro ✓\r\n" + userText + Section("report two") + after
	if f.body != want {
		t.Errorf("second run:\n got %q\nwant %q", f.body, want)
	}
	if strings.Count(f.body, StartMarker) != 1 || strings.Count(f.body, EndMarker) != 1 {
		t.Errorf("one section expected: %q", f.body)
	}
	// The same report again: nothing is written.
	n := len(f.sent)
	if changed, err = c.Description("report two\n", "x"); err != nil || changed || len(f.sent) != n {
		t.Errorf("third run wrote again: %v %v", changed, err)
	}
	for _, call := range f.calls {
		if !strings.HasPrefix(call, "GET /api/v3/repos/o/r/pulls/7") && !strings.HasPrefix(call, "PATCH /api/v3/repos/o/r/pulls/7") {
			t.Errorf("unexpected call %s", call)
		}
	}
}

func TestUpsertDescriptionTooLong(t *testing.T) {
	f := &fakeGitHub{body: strings.Repeat("x", 60000)}
	c := client(t, f)
	if _, err := c.Description(strings.Repeat("r", 10000), "the full report is in the job summary"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(f.body, strings.Repeat("x", 60000)) || len(f.body) > bodyLimit || !strings.Contains(f.body, "job summary") {
		t.Errorf("too long: %d chars", len(f.body))
	}
}

func TestUpsertStickyComment(t *testing.T) {
	f := &fakeGitHub{comments: map[int64]string{}}
	c := client(t, f)
	for i, report := range []string{"one", "two", "two"} {
		if _, err := c.Comment(report, "x"); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	if len(f.comments) != 1 || f.comments[101] != Section("two") {
		t.Errorf("comments %v", f.comments)
	}
	var posts, patches int
	for _, call := range f.calls {
		switch {
		case strings.HasPrefix(call, "POST"):
			posts++
		case strings.HasPrefix(call, "PATCH /api/v3/repos/o/r/issues/comments/101"):
			patches++
		}
	}
	if posts != 1 || patches != 1 {
		t.Errorf("posts %d, patches %d (third run writes nothing): %v", posts, patches, f.calls)
	}
}

// A fork's pull request gets a read-only token: the error says so, and
// nothing fails (main prints it and exits 0).
func TestUpsertReadOnlyToken(t *testing.T) {
	f := &fakeGitHub{body: "text", readOnly: true}
	c := client(t, f)
	_, err := c.Description("r", "x")
	e, ok := err.(*Error)
	if !ok || e.Status != 403 || !strings.Contains(Why(err), "read-only token") || !strings.Contains(Why(err), "job summary only") {
		t.Errorf("err %v, why %q", err, Why(err))
	}
	if f.body != "text" {
		t.Errorf("body changed: %q", f.body)
	}
}

func TestSplice(t *testing.T) {
	s := Section("r")
	for _, c := range []struct{ body, want string }{
		{"", s},
		{"a", "a\n\n" + s},
		{"a\n", "a\n\n" + s},
		{"a\n\n", "a\n\n" + s},
		{"a " + StartMarker + " old " + EndMarker + " b", "a " + s + " b"},
		{"a " + StartMarker + " cut", "a " + s},
	} {
		if got := Splice(c.body, s); got != c.want {
			t.Errorf("Splice(%q) = %q, want %q", c.body, got, c.want)
		}
	}
}

package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestPRActionScript runs the GitHub Action's script as a runner would, in
// a fresh clone that has no database (CI: the shared notes alone), against
// a local server standing in for GitHub's REST API.
func TestPRActionScript(t *testing.T) {
	skipOnWindows(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go for the upsert")
	}
	script, err := filepath.Abs("../../packaging/github-action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	sb, repo := prRepo(t)
	sb.convo(repo, "share", "on", "--prompts")
	bare := filepath.Join(sb.root, "origin.git")
	sb.run(sb.root, "git", "init", "-q", "--bare", bare)
	sb.run(repo, "git", "remote", "add", "origin", bare)
	sb.run(repo, "git", "push", "-q", "origin", "main", "feature")
	sb.convo(repo, "push", "origin")
	base := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "main"))
	head := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "feature"))
	ci := filepath.Join(sb.root, "ci")
	sb.run(sb.root, "git", "clone", "-q", bare, ci)

	archive := releaseArchive(t, "git-convo_1.2.3_"+runtime.GOOS+"_"+runtime.GOARCH)
	var mu sync.Mutex
	body := "Please review.\r\n"
	var patches int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/repos/o/git-convo/releases/latest":
			io.WriteString(w, `{"tag_name": "v1.2.3", "name": "v1.2.3"}`)
			return
		case "/o/git-convo/releases/download/v1.2.3/git-convo_1.2.3_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz":
			w.Write(archive)
			return
		}
		if r.URL.Path != "/repos/o/r/pulls/7" || r.Header.Get("Authorization") != "Bearer t0ken" {
			http.NotFound(w, r)
			return
		}
		if r.Method == "PATCH" {
			var in struct {
				Body string `json:"body"`
			}
			b, _ := io.ReadAll(r.Body)
			json.Unmarshal(b, &in)
			body = in.Body
			patches++
		}
		json.NewEncoder(w).Encode(map[string]any{"body": body})
	}))
	defer srv.Close()
	gocache := strings.TrimSpace(string(must(exec.Command("go", "env", "GOCACHE").Output())))
	gomodcache := strings.TrimSpace(string(must(exec.Command("go", "env", "GOMODCACHE").Output())))
	run := func(headRepo string, extra ...string) (string, string) {
		t.Helper()
		summary := filepath.Join(t.TempDir(), "summary.md")
		env := sb.with("CONVO_BIN="+filepath.Dir(binPath), "CONVO_BASE="+base, "CONVO_HEAD="+head, "CONVO_PR=7",
			"CONVO_TARGET=description", "CONVO_API="+srv.URL, "CONVO_EVENT=pull_request", "CONVO_HEAD_REPO="+headRepo,
			"GITHUB_REPOSITORY=o/r", "GITHUB_STEP_SUMMARY="+summary, "RUNNER_TEMP="+t.TempDir(), "GITHUB_TOKEN=t0ken",
			"GIT_CONVO_DB="+filepath.Join(t.TempDir(), "none.sqlite"), "GOCACHE="+gocache, "GOMODCACHE="+gomodcache,
			"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=", "PATH="+os.Getenv("PATH"))
		env = append(env, extra...)
		r := sb.runEnv(ci, env, "", "bash", script)
		if r.code != 0 {
			t.Fatalf("the script exited %d: %s %s", r.code, r.stdout, r.stderr)
		}
		s, _ := os.ReadFile(summary)
		return r.stdout + r.stderr, string(s)
	}
	log, summary := run("o/r")
	// Notes alone: the agent's 4 lines, the recorded commit's 2, the
	// unrecorded commit's 2.
	if !strings.Contains(summary, "Of **8** added lines (non-blank): **4** written by agents' edits") {
		t.Fatalf("job summary:\n%s\nlog:\n%s", summary, log)
	}
	mu.Lock()
	first := body
	mu.Unlock()
	if !strings.HasPrefix(first, "Please review.\r\n") || strings.Count(first, "<!-- git-convo:pr:start -->") != 1 ||
		!strings.Contains(first, "**4** written by agents") || patches != 1 {
		t.Fatalf("description after the first run (%d patches):\n%s\nlog:\n%s", patches, first, log)
	}
	// Again: the same report, nothing written.
	run("o/r")
	if patches != 1 || body != first {
		t.Errorf("second run: %d patches", patches)
	}
	// Installed from the release archive for this platform (the latest
	// release, asked of the API), not from CONVO_BIN.
	tmp := t.TempDir()
	log, summary = run("o/r", "CONVO_BIN=", "CONVO_VERSION=latest", "CONVO_ACTION_REPO=o/git-convo", "GITHUB_SERVER_URL="+srv.URL,
		"RUNNER_TEMP="+tmp, "PATH=/usr/local/bin:/usr/bin:/bin:"+filepath.Dir(mustLook(t, "go")))
	if !strings.Contains(log, "installing "+srv.URL+"/o/git-convo/releases/download/v1.2.3/") ||
		!strings.Contains(summary, "**4** written by agents") {
		t.Errorf("from the release archive:\n%s\n%s", log, summary)
	}
	if _, err := os.Stat(filepath.Join(tmp, "git-convo-bin", "git-convo")); err != nil {
		t.Errorf("not installed from the archive: %v", err)
	}
	// git-ai's notes on the remote: fetched, read beside git-convo's. The
	// unrecorded commit's two lines, by a claude session.
	blind := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "feature"))
	sb.addRawNote(repo, "refs/notes/ai", blind, strings.Replace(gitAINoteFor(blind, "y.go", "claude-sonnet-4-6"), " 1-3\n", " 1,3\n", 1))
	sb.run(repo, "git", "push", "-q", "origin", "refs/notes/ai")
	log, summary = run("o/r")
	if !strings.Contains(summary, "**6** written by agents") || !strings.Contains(summary, "git\\-ai\\'s notes") || patches != 2 {
		t.Errorf("with git-ai's notes (%d patches):\n%s\n%s", patches, summary, log)
	}
	mu.Lock()
	patches = 1 // the fork's run below writes nothing more
	mu.Unlock()
	// A fork's pull request: the job summary says why, nothing is written.
	log, summary = run("someone/fork")
	if patches != 1 || !strings.Contains(summary, "read-only token") || !strings.Contains(log, "fork") {
		t.Errorf("fork: %d patches\n%s\n%s", patches, summary, log)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func mustLook(t *testing.T, name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skip(err)
	}
	return p
}

// releaseArchive is a release archive as scripts/release.sh makes it: the
// binaries in a folder named as the archive.
func releaseArchive(t *testing.T, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, bin := range []string{"git-convo", "git-convo-mcp"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(binPath), bin))
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: name + "/" + bin, Mode: 0o755, Size: int64(len(b))})
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

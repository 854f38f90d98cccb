package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// chromium finds Debian's headless browser (.ci/run installs it), or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium: apt-get install -y chromium (.ci/run does) to test the HTML report in a browser")
	return ""
}

// browse opens page in headless Chromium with every request sent to a
// local listener standing in for a proxy: it answers nothing and keeps the
// first line of each request ("GET http://host/..." or "CONNECT host:443").
// It returns the DOM as the browser built it, the console lines, and the
// hosts asked for.
func browse(t *testing.T, bin, page string) (dom string, console []string, hosts map[string]bool) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	hosts = map[string]bool{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if f := strings.Fields(line); len(f) >= 2 {
				h := f[1]
				if u, err := url.Parse(h); err == nil && u.Host != "" {
					h = u.Host
				}
				mu.Lock()
				hosts[h] = true
				mu.Unlock()
			}
		}
	}()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--proxy-server=http://" + ln.Addr().String(), "--proxy-bypass-list=<-loopback>",
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", "file://" + page}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	// Connections the browser opened may still wait in the backlog.
	time.Sleep(300 * time.Millisecond)
	ln.Close()
	wg.Wait()
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return string(out), console, hosts
}

// pageHosts is what page asked for beyond what the browser asks for by
// itself (its own services, with an empty page). Chromium reaches its
// Google services (accounts.google.com) on some runs and not others, so an
// empty page's run does not always name them: they are the browser's, never
// a page's (the hostile pages point at example.com).
func pageHosts(own, seen map[string]bool) []string {
	var out []string
	for h := range seen {
		name := h
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[:i]
		}
		browsers := strings.HasSuffix(name, ".google.com") || strings.HasSuffix(name, ".googleapis.com") || strings.HasSuffix(name, ".gstatic.com")
		if !own[h] && !browsers {
			out = append(out, h)
		}
	}
	return out
}

// TestPRBrowser opens the HTML report in a real headless Chromium with the
// network blocked: no request leaves, no console error, the headline
// numbers shown are the JSON's, and the hostile prompt shows as text.
func TestPRBrowser(t *testing.T) {
	skipOnWindows(t)
	bin := chromium(t)
	sb, repo := prRepo(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(sb.convo(repo, "pr", "main", "--format", "html")), 0o644); err != nil {
		t.Fatal(err)
	}
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main", "--json")), &s); err != nil {
		t.Fatal(err)
	}

	// The checks can fail: a page that asks for an image and logs an error
	// is caught by both.
	control := filepath.Join(dir, "control.html")
	os.WriteFile(control, []byte(`<!DOCTYPE html><html><body><img src="http://example.com/x.png"><script>console.error("boom")</script></body></html>`), 0o644)
	blank := filepath.Join(dir, "blank.html")
	os.WriteFile(blank, []byte(`<!DOCTYPE html><html><body>blank</body></html>`), 0o644)
	_, _, own := browse(t, bin, blank)
	if _, console, seen := browse(t, bin, control); !seen["example.com"] || len(console) == 0 {
		t.Fatalf("the control page went unnoticed: asked for %v, console %v", seen, console)
	}

	dom, console, seen := browse(t, bin, page)
	if asked := pageHosts(own, seen); len(asked) != 0 {
		t.Errorf("the report asked for %v", asked)
	}
	if len(console) != 0 {
		t.Errorf("console: %v", console)
	}
	for id, want := range map[string]int{"n-added": s.Headline.Added, "n-agent": s.Headline.Agent, "n-noedit": s.Headline.NoEdit,
		"n-norecord": s.Headline.NoRecord, "n-covered": s.Commits.Covered, "n-commits": s.Commits.Total} {
		m := regexp.MustCompile(`id="` + id + `">(\d+)<`).FindStringSubmatch(dom)
		if m == nil || m[1] != fmt.Sprint(want) {
			t.Errorf("%s shows %v, JSON says %d", id, m, want)
		}
	}
	// The prompt's <script> and </textarea> are text in the built DOM: no
	// element was made of them.
	if strings.Contains(dom, "<script") || strings.Contains(dom, "</textarea") || !strings.Contains(dom, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/textarea&gt;") {
		t.Errorf("the hostile prompt is not plain text in the DOM:\n%s", dom)
	}
	if !strings.Contains(dom, `<rect data-kind="agent"`) {
		t.Errorf("no chart in the DOM")
	}
	if out := os.Getenv("GIT_CONVO_SCREENSHOT"); out != "" {
		// scripts: GIT_CONVO_SCREENSHOT=docs/pr-report.png go test -run TestPRBrowser ./pkg/cli
		shot(t, bin, page, out)
	}
}

func shot(t *testing.T, bin, page, out string) {
	t.Helper()
	abs, _ := filepath.Abs(out)
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--user-data-dir="+t.TempDir(), "--hide-scrollbars",
		"--window-size=1100,900", "--screenshot="+abs, "file://"+page)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("screenshot: %v\n%s", err, b)
	}
}

// TestPRBrowserWords: the agent's hostile words before an edit are text in
// the page the browser builds, and ask for nothing.
func TestPRBrowserWords(t *testing.T) {
	skipOnWindows(t)
	bin := chromium(t)
	sb, repo, _ := prWordsRepo(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(sb.convo(repo, "pr", "main", "--format", "html")), 0o644); err != nil {
		t.Fatal(err)
	}
	blank := filepath.Join(dir, "blank.html")
	os.WriteFile(blank, []byte(`<!DOCTYPE html><html><body>blank</body></html>`), 0o644)
	_, _, own := browse(t, bin, blank)
	dom, console, seen := browse(t, bin, page)
	if asked := pageHosts(own, seen); len(asked) != 0 || len(console) != 0 {
		t.Errorf("the report asked for %v; console %v", asked, console)
	}
	if strings.Contains(dom, "<script") || strings.Contains(dom, "</textarea") || strings.Contains(dom, "<!-- [x]") ||
		!strings.Contains(dom, `\033[31mNow\033[0m &lt;script&gt;alert(1)&lt;/script&gt;&lt;/textarea&gt; --&gt; &lt;!-- [x](javascript:alert(1)) [redacted: github token]`) {
		t.Errorf("the hostile words are not plain text in the DOM:\n%s", dom)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeLineKeepsOtherLinks: a commit adding one line over 64 MiB (a
// minified bundle) next to an agent's file keeps the conversation's link,
// and blame of the bundle works.
func TestHugeLineKeepsOtherLinks(t *testing.T) {
	skipOnWindows(t)
	if testing.Short() {
		t.Skip("writes a 65 MiB file")
	}
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "conv-bundle-01", "a.go", "package a\n\nfunc A() {}\n")
	f, err := os.Create(filepath.Join(repo, "bundle.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("x", 65<<20) + "\n")
	f.Close()
	sb.commit(repo, "add a.go and the bundle", "a.go", "bundle.min.js")
	if s := sb.showJSON(repo, "HEAD"); !has(convIDs(s), "conv-bundle-01") {
		t.Errorf("the conversation lost its link: %+v", s.Conversations)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "blame", "--json", "bundle.min.js"); r.code != 0 || !json.Valid([]byte(strings.SplitN(r.stdout, "\n", 2)[0])) {
		t.Errorf("blame of the bundle: exit %d %.200q", r.code, r.stderr)
	}
}

package cli

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
)

// TestShareOnProgress: share on over more than one batch of commits draws
// a progress bar on a terminal's stderr, and none when stderr is a pipe;
// the notes are written either way.
func TestShareOnProgress(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("many")
	const n = 1001 // one more than a batch
	var in strings.Builder
	for i := range n {
		body := fmt.Sprintf("line %d\n", i)
		fmt.Fprintf(&in, "commit refs/heads/main\ncommitter Ada <ada@example.com> %d +0000\ndata 2\nc\n", 1_700_000_000+i)
		if i == 0 {
			in.WriteString("from refs/heads/main^0\n")
		}
		fmt.Fprintf(&in, "M 644 inline f%d.txt\ndata %d\n%s\n", i%10, len(body), body)
	}
	fi := exec.Command("git", "fast-import", "--quiet")
	fi.Dir, fi.Env, fi.Stdin = repo, sb.env, strings.NewReader(in.String())
	if out, err := fi.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	hashes := strings.Fields(sb.run(repo, "git", "rev-list", "-n", fmt.Sprint(n), "main"))
	common := strings.TrimSpace(sb.run(repo, "git", "rev-parse", "--path-format=absolute", "--git-common-dir"))
	ctx := context.Background()
	s, err := store.Open(ctx, sb.linksDB, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := s.Bulk()
	if err := b.RecordActivity(ctx, store.Activity{ConversationID: "conv-progress", Event: "afterFileEdit", WorkspaceRoots: []string{repo}}); err != nil {
		t.Fatal(err)
	}
	for i, h := range hashes {
		f := fmt.Sprintf("f%d.txt", (n-1-i)%10)
		if err := b.UpsertCommit(ctx, store.Commit{Hash: h, RepoPath: repo, RepoKey: repoKey(common), CommittedAt: time.Unix(int64(1_700_000_000+n-1-i), 0),
			ParentCount: 1, Files: []string{f}}); err != nil {
			t.Fatal(err)
		}
		if err := b.AddAutoLinks(ctx, h, []store.Link{{ConversationID: "conv-progress", Confidence: 0.9, MatchedFiles: []string{f}, Reason: "test"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()

	piped := sb.runEnv(repo, sb.env, "", "git", "convo", "share", "on")
	if piped.code != 0 || strings.Contains(piped.stderr, "writing notes") || !strings.Contains(piped.stdout, fmt.Sprintf("%d notes written", n)) {
		t.Fatalf("share on, piped: exit %d\nstdout: %s\nstderr: %s", piped.code, piped.stdout, piped.stderr)
	}
	sb.run(repo, "git", "update-ref", "-d", "refs/notes/convo")
	tty := sb.onTTY(repo, sb.env, filepath.Join(sb.root, "bin", "git-convo"), "share", "on")
	if !strings.Contains(tty, fmt.Sprintf("writing notes [%s] %d/%d\n", strings.Repeat("#", 30), n, n)) ||
		!strings.Contains(tty, fmt.Sprintf("%d notes written", n)) {
		t.Fatalf("share on, on a terminal:\n%q", tty)
	}
	if got := strings.TrimSpace(sb.run(repo, "git", "rev-list", "--count", "refs/notes/convo")); got != "2" {
		t.Errorf("%s notes commits, want one a batch (2)", got)
	}
}

package interop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// TestForFileIgnoresSignatures: with log.showSignature in the user's
// config, git log prints the verifier's lines before each signed commit;
// the file's commits are git's hashes alone.
func TestForFileIgnoresSignatures(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	gpg, err := testshared.FakeGPG()
	if err != nil {
		t.Fatal(err)
	}
	git(t, dir, "config", "gpg.program", gpg)
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(strings.Repeat("x\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", ".")
	git(t, dir, "-c", "commit.gpgsign=true", "commit", "-q", "-m", "one")
	commit := git(t, dir, "rev-parse", "HEAD")
	addNote(t, dir, "refs/notes/ai", commit, gitAINote(commit, "claude-sonnet-4-6"))
	git(t, dir, "config", "log.showSignature", "true")
	if out := git(t, dir, "log", "-1", "--format=%H"); !strings.HasPrefix(out, "gpg:") {
		t.Fatalf("the verifier's output should show in git log: %q", out)
	}
	r, _ := gitx.Discover(dir, os.Getenv)
	f, skips := ForFile(context.Background(), r, notes.Git{Dir: dir}, "a.go", nil, 5, nil)
	if len(f.Extra) != 1 || f.Extra[0] != commit || len(f.ByCommit[commit]) == 0 || len(skips) != 0 {
		t.Errorf("extra %v, by commit %v, skips %v", f.Extra, f.ByCommit, skips)
	}
}

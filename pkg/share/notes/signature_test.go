package notes

import (
	"context"
	"testing"

	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// signing makes g's commits signed by a stand-in for gpg and turns
// log.showSignature on, as a user's config can: git log and show then
// print the verifier's lines before each signed commit's.
func signing(t *testing.T, g Git) (sign func()) {
	t.Helper()
	gpg, err := testshared.FakeGPG()
	if err != nil {
		t.Fatal(err)
	}
	git(t, g, "", "config", "gpg.program", gpg)
	git(t, g, "", "config", "commit.gpgsign", "true")
	return func() {
		git(t, g, "", "config", "log.showSignature", "true")
		if out := git(t, g, "", "show", "-s", "--format=%ct"); out == "" || out[0] != 'g' {
			t.Fatalf("the verifier's output should show in git show: %q", out)
		}
	}
}

// TestCommitTimeIgnoresSignatures: the time is read from git's line alone.
func TestCommitTimeIgnoresSignatures(t *testing.T) {
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	git(t, g, "", "init", "-q")
	showSignatures := signing(t, g)
	git(t, g, "", "commit", "-q", "--allow-empty", "-m", "signed")
	showSignatures()
	at, err := g.commitTime(context.Background(), "HEAD")
	if err != nil || at.IsZero() {
		t.Errorf("commitTime with log.showSignature: %v, %v", at, err)
	}
}

// TestSquashesIgnoreSignatures: the commits a squash scan examines are
// git log's hashes alone, with log.showSignature as without.
func TestSquashesIgnoreSignatures(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t)
	showSignatures := signing(t, h.g)
	h.commit("base", map[string]string{"api/api.go": apiBase})
	git(t, h.g, "", "checkout", "-q", "-b", "feature")
	agent := h.commit("agent", map[string]string{"api/api.go": apiBase + limit})
	h.note(agent, "conv-sq", "api/api.go", limitLines...)
	git(t, h.g, "", "checkout", "-q", "main")
	h.squashOnto("feature", "Limits (#7)")
	git(t, h.g, "", "commit", "-q", "--amend", "--no-edit") // signed, as commit-tree's is not
	squash := git(t, h.g, "", "rev-parse", "HEAD")
	want, err := h.g.SquashesIn(ctx, []string{"-n", "1", "main"}, BuildOptions{Writer: "clone-bbbb"})
	if err != nil || len(want) != 1 {
		t.Fatalf("without log.showSignature: %v, %v", want, err)
	}
	showSignatures()
	got, err := h.g.SquashesIn(ctx, []string{"-n", "1", "main"}, BuildOptions{Writer: "clone-bbbb"})
	if _, ok := got[squash]; err != nil || !ok || len(got) != 1 {
		t.Errorf("with log.showSignature: %v, %v", got, err)
	}
}

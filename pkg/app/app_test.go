package app

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// testRepo is a real git repository with one commit, and an application
// whose links.sqlite lives beside it.
func testRepo(t *testing.T) (*App, *gitx.Repo, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "repo")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", root)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "a")
	head := git("rev-parse", "HEAD")
	db := filepath.Join(root, "links.sqlite")
	a := New(Config{Getenv: func(k string) string {
		switch k {
		case "GIT_CONVO_DB":
			return db
		case "GIT_CONVO_SYNC":
			return "1"
		}
		return os.Getenv(k)
	}, Version: "test"})
	repo, err := gitx.Open(context.Background(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return a, repo, head
}

// TestLinkAndUnlink: a manual link records the commit it names (so show
// has its details), a front end's refusal stops it, and unlink removes it;
// a second unlink is an error.
func TestLinkAndUnlink(t *testing.T) {
	a, repo, head := testRepo(t)
	ctx := context.Background()
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const conv = "0f0e0d0c-1111-4222-8333-444455556666"
	refused := errors.New("refused")
	if _, err := a.Link(ctx, s, LinkRequest{Repo: repo, Hash: head, Conversation: conv, Reason: "test",
		Allow: func(context.Context, string) error { return refused }}); !errors.Is(err, refused) {
		t.Fatalf("a link the front end refuses: %v", err)
	}
	if linked, _ := s.ConversationsForCommits(ctx, []string{head}); len(linked[head]) != 0 {
		t.Fatalf("a refused link was made: %v", linked)
	}
	if note, h, err := a.PreviewNote(ctx, repo.TopLevel, "HEAD", false); err != nil || note != nil || h != head {
		t.Fatalf("the note of a commit with no link: %q %s %v", note, h, err)
	}
	id, err := a.Link(ctx, s, LinkRequest{Repo: repo, Hash: head, Conversation: conv, Reason: "test"})
	if err != nil || id != conv {
		t.Fatalf("Link: %q %v", id, err)
	}
	linked, err := s.ConversationsForCommits(ctx, []string{head})
	if err != nil || len(linked[head]) != 1 || linked[head][0].Status != StatusManual || linked[head][0].Confidence != 1 {
		t.Fatalf("after Link: %+v %v", linked, err)
	}
	if done, err := s.RecordedCommits(ctx, []string{head}); err != nil || !done[head] {
		t.Errorf("Link did not record the commit: %v %v", done, err)
	}
	if note, _, err := a.PreviewNote(ctx, repo.TopLevel, "HEAD", false); err != nil || !strings.Contains(string(note), conv) {
		t.Errorf("the note of the linked commit does not name the conversation: %q %v", note, err)
	}
	u, err := a.Unlink(ctx, s, repo, conv[:8], head)
	if err != nil || u.Conversation != conv || u.Derived {
		t.Fatalf("Unlink: %+v %v", u, err)
	}
	if linked, _ := s.ConversationsForCommits(ctx, []string{head}); len(linked[head]) != 0 {
		t.Errorf("after Unlink: %v", linked)
	}
	// Nothing links it any more: the id names nothing to unlink.
	if _, err := a.Unlink(ctx, s, repo, conv, head); err == nil || !strings.Contains(err.Error(), conv) {
		t.Errorf("a second Unlink: %v", err)
	}
}

// TestSharingEntryPoints: share on refuses a remote the repository does not
// have as a usage error; push says sharing is off, except to the pre-push
// hook, which it never fails.
func TestSharingEntryPoints(t *testing.T) {
	a, repo, _ := testRepo(t)
	ctx := context.Background()
	var ue UsageError
	if _, err := a.ShareOn(ctx, repo.TopLevel, ShareOnRequest{Remote: "nowhere"}); !errors.As(err, &ue) || !strings.Contains(ue.Msg, "nowhere") {
		t.Errorf("share on --remote nowhere: %v", err)
	}
	if _, err := a.Push(ctx, repo.TopLevel, "", false); err == nil || !strings.Contains(err.Error(), "sharing is off") {
		t.Errorf("push with sharing off: %v", err)
	}
	if p, err := a.Push(ctx, repo.TopLevel, "", true); err != nil || p.Done {
		t.Errorf("the pre-push hook with sharing off: %+v %v", p, err)
	}
}

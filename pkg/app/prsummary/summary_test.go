package prsummary

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/store"
)

// fixture is a real repository with a base commit on main and a branch
// "feature" of three commits: one an agent's edit wrote (recorded), one
// recorded with a person's lines only, one never recorded.
type fixture struct {
	dir                     string
	st                      *store.Store
	agentC, personC, blindC string
	conv                    string
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada",
		"GIT_COMMITTER_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=2026-11-20T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-20T10:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func commitFile(t *testing.T, dir, name, content, msg string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", name)
	git(t, dir, "commit", "-q", "-m", msg)
	return git(t, dir, "rev-parse", "HEAD")
}

// newFixture builds the repository; prompt is the agent's prompt.
func newFixture(t *testing.T, prompt string) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	commitFile(t, dir, "app.go", "package app\n", "base")
	git(t, dir, "checkout", "-q", "-b", "feature")
	f := &fixture{dir: dir, conv: "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10"}
	f.agentC = commitFile(t, dir, "app.go", "package app\n\nfunc Hello() string {\n\treturn \"hi\"\n}\n", "agent: hello")
	f.personC = commitFile(t, dir, "app.go", "package app\n\nfunc Hello() string {\n\treturn \"hi\"\n}\n\n// Bye is a person's.\nfunc Bye() {}\n", "person: bye")
	f.blindC = commitFile(t, dir, "other.go", "package app\n\nvar X = 1\n", "elsewhere: x")
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	at := time.Date(2026, 11, 20, 9, 59, 0, 0, time.UTC).UnixMilli()
	if err := st.RecordActivity(ctx, store.Activity{ConversationID: f.conv, Agent: "claude", GenerationID: "g1", Event: "prompt",
		AtMs: at, Model: "claude-sonnet-4-5", Prompt: prompt, WorkspaceRoots: []string{dir}}); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordActivity(ctx, store.Activity{ConversationID: f.conv, Agent: "claude", GenerationID: "g1", Event: "response",
		AtMs: at + 1000, Response: "I added Hello.\n\nIt returns hi.", WorkspaceRoots: []string{dir}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hash  string
		files []string
	}{{f.agentC, []string{"app.go"}}, {f.personC, []string{"app.go"}}} {
		if err := st.UpsertCommit(ctx, store.Commit{Hash: c.hash, RepoPath: dir, Author: "Ada <ada@example.com>",
			CommittedAt: time.Unix(at/1000, 0), ParentCount: 1, Files: c.files}); err != nil {
			t.Fatal(err)
		}
	}
	// The agent wrote lines 3-5 of app.go in agentC (line 2 is blank).
	var lines []store.CommitLine
	for n := 3; n <= 5; n++ {
		lines = append(lines, store.CommitLine{Path: "app.go", Line: n, ConversationID: f.conv, GenerationID: "g1", Evidence: store.EvidencePosition})
	}
	if err := st.SetCommitLines(ctx, f.agentC, []store.FileLines{{Path: "app.go", Added: 3, Agent: 3}}, lines); err != nil {
		t.Fatal(err)
	}
	if err := st.AddAutoLinks(ctx, f.agentC, []store.Link{{ConversationID: f.conv, MatchedFiles: []string{"app.go"}, Confidence: 0.92,
		Reason: "1 of 1 files", WrittenLines: 3, AddedLines: 3, PositionLines: 3}}); err != nil {
		t.Fatal(err)
	}
	// personC: recorded, its lines examined, none an agent's; linked by overlap only.
	if err := st.SetCommitLines(ctx, f.personC, []store.FileLines{{Path: "app.go", Added: 2}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.AddAutoLinks(ctx, f.personC, []store.Link{{ConversationID: f.conv, MatchedFiles: []string{"app.go"}, Confidence: 0.4,
		Reason: "1 of 1 files", AddedLines: 2}}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) summarize(t *testing.T, st *store.Store, withNotes bool, args ...string) *Summary {
	t.Helper()
	ctx := context.Background()
	repo, err := gitx.Open(ctx, f.dir, false)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Repo: repo, Store: st, Args: args, Home: "/home/ada"}
	if withNotes {
		in.Notes = notes.NewReader(ctx, f.dir)
		defer in.Notes.Close()
	}
	s, err := Summarize(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSummarizeKinds(t *testing.T) {
	f := newFixture(t, "<user_query>\n\nAdd a Hello function; token ghp_0123456789abcdefghijABCDEFGHIJ0123456789\nand test it\n")
	for _, args := range [][]string{{"main..feature"}, {"main"}, {"main...feature"}} {
		s := f.summarize(t, f.st, false, args...)
		h := s.Headline
		// agentC adds 3 non-blank lines (the agent's), personC 2 (a
		// person's, recorded), blindC 2 (no record).
		if h.Added != 7 || h.Agent != 3 || h.NoEdit != 2 || h.NoRecord != 2 {
			t.Errorf("%v: headline %+v, want added 7, agent 3, noEdit 2, noRecord 2", args, h.Lines)
		}
		if s.Commits.Total != 3 || s.Commits.Covered != 2 || len(s.Commits.Uncovered) != 1 ||
			s.Commits.Uncovered[0].Hash != f.blindC || s.Commits.Uncovered[0].Reason != "no record" {
			t.Errorf("%v: commits %+v", args, s.Commits)
		}
		if s.NothingRecorded {
			t.Errorf("%v: nothingRecorded on a recorded range", args)
		}
		if len(h.ByConversation) != 1 || h.ByConversation[0] != (Count{f.conv, 3}) ||
			len(h.ByAgent) != 1 || h.ByAgent[0] != (Count{"claude", 3}) || h.ByModel[0].Name != "claude-sonnet-4-5" {
			t.Errorf("%v: by conversation %+v, agent %+v, model %+v", args, h.ByConversation, h.ByAgent, h.ByModel)
		}
	}
	s := f.summarize(t, f.st, false, "main..feature")
	if len(s.Files) != 2 || s.Files[0].Path != "app.go" || s.Files[0].Agent != 3 || s.Files[0].NoEdit != 2 ||
		len(s.Files[0].Conversations) != 1 || s.Files[1].NoRecord != 2 {
		t.Errorf("files %+v", s.Files)
	}
	var w *Writer
	var overlap *Writer
	for _, h := range s.Hunks {
		for i := range h.Writers {
			if h.Writers[i].Lines > 0 {
				w = &h.Writers[i]
			} else if h.Writers[i].Evidence == "overlap only" {
				overlap = &h.Writers[i]
			}
		}
	}
	if w == nil {
		t.Fatalf("no hunk names the agent's conversation: %+v", s.Hunks)
	}
	if w.Commit != f.agentC || w.Evidence != "position" || w.LineEvidence != "position" || w.Confidence != 0.92 || w.PromptSource != "edit" {
		t.Errorf("writer %+v", *w)
	}
	// The first meaningful line (not the tag), redacted as share redacts,
	// the rest folded.
	if w.Prompt != "Add a Hello function; token [redacted: github token]" || w.PromptFolded != 1 {
		t.Errorf("prompt %q (folded %d)", w.Prompt, w.PromptFolded)
	}
	if w.Answer != "I added Hello." || w.AnswerFolded != 1 {
		t.Errorf("answer %q (folded %d)", w.Answer, w.AnswerFolded)
	}
	if overlap == nil || overlap.Commit != f.personC || overlap.Confidence != 0.4 {
		t.Errorf("the person's hunk should show the overlap-only link: %+v", overlap)
	}
}

func TestSummarizeNothingRecorded(t *testing.T) {
	f := newFixture(t, "x")
	empty, err := store.OpenEmpty(context.Background(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	s := f.summarize(t, empty, true, "main..feature")
	if !s.NothingRecorded || s.Headline.NoRecord != 7 || s.Headline.Agent != 0 || s.Commits.Covered != 0 ||
		!strings.HasPrefix(s.Message, "Nothing recorded for main..feature") {
		t.Errorf("summary %+v", s)
	}
	s = f.summarize(t, f.st, false, "feature..feature")
	if !s.NothingRecorded || s.Commits.Total != 0 || !strings.Contains(s.Message, "no commits") {
		t.Errorf("empty range: %+v", s)
	}
}

func TestSummarizeDefaultRange(t *testing.T) {
	f := newFixture(t, "x")
	repo, _ := gitx.Open(context.Background(), f.dir, false)
	if _, err := Summarize(context.Background(), Input{Repo: repo, Store: f.st}); err != ErrNoBase {
		t.Errorf("no upstream, no origin/HEAD: %v, want ErrNoBase", err)
	}
	git(t, f.dir, "branch", "-q", "--set-upstream-to=main")
	s := f.summarize(t, f.st, false)
	if s.Range != "@{upstream}..HEAD" || s.Commits.Total != 3 {
		t.Errorf("range %q, %d commits", s.Range, s.Commits.Total)
	}
}

// TestSummarizeNotesAlone: in CI there is no database, only the notes a
// teammate shared: the summary is the same.
func TestSummarizeNotesAlone(t *testing.T) {
	f := newFixture(t, "Add a Hello function")
	ctx := context.Background()
	g := notes.Git{Dir: f.dir}
	if err := g.SetShare(ctx, true, true, "origin"); err != nil {
		t.Fatal(err)
	}
	s, err := g.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Writer == "" {
		s.Writer = "clone-test"
	}
	if _, err := g.Update(ctx, f.st, []string{f.agentC, f.personC}, s, "test"); err != nil {
		t.Fatal(err)
	}
	empty, err := store.OpenEmpty(ctx, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	sum := f.summarize(t, empty, true, "main..feature")
	h := sum.Headline
	if h.Added != 7 || h.Agent != 3 || h.NoEdit != 2 || h.NoRecord != 2 || sum.Commits.Covered != 2 {
		t.Errorf("notes alone: headline %+v, commits %+v", h.Lines, sum.Commits)
	}
	if len(sum.Conversations) == 0 || sum.Conversations[0].Origin != "notes" {
		t.Errorf("conversations %+v", sum.Conversations)
	}
}

func TestFirstLine(t *testing.T) {
	for _, c := range []struct {
		in     string
		first  string
		folded int
	}{
		{"", "", 0},
		{"\n\n  fix it  \n", "fix it", 0},
		{"<user_query>\nfix it\nplease\n</user_query>", "fix it", 2},
		{"---\n***\nReal line", "Real line", 0},
	} {
		first, folded := FirstLine(c.in)
		if first != c.first || folded != c.folded {
			t.Errorf("FirstLine(%q) = %q, %d; want %q, %d", c.in, first, folded, c.first, c.folded)
		}
	}
}

// TestSummarizeRangeWithMerge: a range holding a merge is blamed (no
// one-pass replay): the same answer for the same lines.
func TestSummarizeRangeWithMerge(t *testing.T) {
	f := newFixture(t, "x")
	git(t, f.dir, "checkout", "-q", "-b", "side", f.agentC)
	commitFile(t, f.dir, "z.go", "package app\n\nvar Z = 1\n", "side: z")
	git(t, f.dir, "checkout", "-q", "feature")
	git(t, f.dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	s := f.summarize(t, f.st, false, "main..feature")
	h := s.Headline
	if h.Added != 9 || h.Agent != 3 || h.NoEdit != 2 || h.NoRecord != 4 || s.Commits.Total != 5 || s.Commits.Covered != 2 {
		t.Errorf("headline %+v, commits %d covered of %d", h.Lines, s.Commits.Covered, s.Commits.Total)
	}
}

// TestSummaryListsNeverNull: every list of the JSON is [] when empty, as
// docs/json.md shows (a range no other tool spoke of: byOtherTools []).
func TestSummaryListsNeverNull(t *testing.T) {
	f := newFixture(t, "x")
	for _, args := range [][]string{{"main..feature"}, {"feature..feature"}} {
		b, err := json.Marshal(f.summarize(t, f.st, true, args...))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(":null")) {
			t.Errorf("%v: a null in\n%s", args, b)
		}
	}
}

package ingest

import (
	"context"
	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestRecorderLinksAgentLines: lines an agent's edit wrote, recorded
// through Writer.Record, are attributed to its conversation when the commit
// that adds them is recorded, and the commit is linked and shared.
func TestRecorderLinksAgentLines(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	content := "def area(r):\n    return 3.14159 * r * r\n"
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := Writer{Store: s, Now: time.Now, Agents: builtin.Registry()}
	a := source.Activity{ConversationID: "s1", Event: "PostToolUse", Roots: []string{repo}, ToolEdit: true,
		Files: []string{"area.py"}, Added: map[string][]string{"area.py": {content}}}
	if err := w.Record(ctx, claude.Source{}, a, time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "area.py"), []byte(content+"print(area(2))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "area.py")
	git("commit", "-q", "-m", "area")
	g, err := gitx.Open(ctx, repo, false)
	if err != nil {
		t.Fatal(err)
	}
	r := w.Recorder(g)
	var shared []string
	r.Shared = func(_ context.Context, hashes ...string) { shared = append(shared, hashes...) }
	c, _, err := r.Record(ctx, "HEAD", store.LinkSourceHook)
	if err != nil {
		t.Fatal(err)
	}
	links, err := s.ConversationsForCommits(ctx, []string{c.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if got := links[c.Hash]; len(got) != 1 || got[0].ConversationID != "s1" || got[0].WrittenLines != 2 || got[0].AddedLines != 3 {
		t.Fatalf("links of %s: %+v", c.Hash, got)
	}
	if len(shared) != 1 || shared[0] != c.Hash {
		t.Errorf("shared %q, want [%s]", shared, c.Hash)
	}
}

// TestRecordAfterForgetKeepsItsLinesUnknown: a commit recorded after a
// conversation is forgotten that adds a line it wrote is not examined (the
// line is unknown, not a person's), unless a conversation still here wrote
// that line too: then it is that conversation's, and the commit examined.
func TestRecordAfterForgetKeepsItsLinesUnknown(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		kept     string // what a conversation still here wrote, in its own file
		examined bool
	}{
		{"only the forgotten conversation wrote the line", "", false},
		{"a conversation still here wrote it too", "    return 3.14159 * r * r\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: time.Now})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			w := Writer{Store: s, Now: time.Now, Agents: builtin.Registry()}
			repo := gitInit(t)
			edit := func(conv, file, text string) {
				t.Helper()
				a := source.Activity{ConversationID: conv, Event: "PostToolUse", Roots: []string{repo}, ToolEdit: true,
					Files: []string{file}, Added: map[string][]string{file: {text}}}
				if err := w.Record(ctx, claude.Source{}, a, time.Now().UnixMilli()); err != nil {
					t.Fatal(err)
				}
			}
			edit("gone", "area.py", "def area(r):\n    return 3.14159 * r * r\n")
			if tc.kept != "" {
				edit("kept", "other.py", tc.kept)
			}
			if _, err := s.ForgetConversation(ctx, "gone"); err != nil {
				t.Fatal(err)
			}
			// A copy of the forgotten conversation's function, and a line of a person's.
			if err := os.WriteFile(filepath.Join(repo, "circle.py"), []byte("def circle(r):\n    return 3.14159 * r * r\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"add", "circle.py"}, {"commit", "-q", "-m", "circle"}} {
				cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
				cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			g, err := gitx.Open(ctx, repo, false)
			if err != nil {
				t.Fatal(err)
			}
			c, _, err := w.Recorder(g).Record(ctx, "HEAD", store.LinkSourceHook)
			if err != nil {
				t.Fatal(err)
			}
			_, written, ok, err := s.CommitLineCounts(ctx, c.Hash)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.examined {
				t.Errorf("examined %v, want %v (written %v)", ok, tc.examined, written)
			}
			writers, _, err := s.CommitLineWriters(ctx, []string{c.Hash})
			if err != nil {
				t.Fatal(err)
			}
			if w, claimed := writers[c.Hash]["circle.py"][2]; claimed != tc.examined || claimed && w.ConversationID != "kept" {
				t.Errorf("circle.py line 2: %+v (claimed %v)", w, claimed)
			}
		})
	}
}
